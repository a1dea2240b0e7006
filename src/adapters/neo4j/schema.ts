/**
 * Applies `cypher/schema/*.cypher` (constraints and indexes, all IF NOT EXISTS), after dropping the indexes an
 * earlier version made differently: IF NOT EXISTS keeps an index of that name whatever its definition.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Driver } from 'neo4j-driver';
import { CYPHER_ROOT } from './statements.js';

export function schemaStatements(): { file: string; text: string }[] {
  const dir = join(CYPHER_ROOT, 'schema');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.cypher'))
    .sort()
    .map((f) => ({ file: `schema/${f}`, text: readFileSync(join(dir, f), 'utf8') }));
}

/**
 * Indexes whose definition changed, by name and the property the new one has. memory_embedding: Neo4j 5 could not
 * filter a vector search, so it indexed the embedding alone; since the move to Neo4j 2026.x the store is its filter
 * property (memory-embedding-vector.cypher). The index is built anew in the background; applySchema waits for it.
 */
export const CHANGED_INDEXES: readonly { readonly name: string; readonly property: string }[] = [
  { name: 'memory_embedding', property: 'store' },
];

/** Drops the indexes of CHANGED_INDEXES that lack their new property; returns their names. */
export async function dropChangedIndexes(driver: Driver, database: string): Promise<string[]> {
  const { records } = await driver.executeQuery(
    'SHOW INDEXES YIELD name, properties WHERE name IN $names RETURN name, properties',
    { names: CHANGED_INDEXES.map((i) => i.name) },
    { database },
  );
  const dropped: string[] = [];
  for (const record of records) {
    const name = record.get('name') as string;
    const wanted = CHANGED_INDEXES.find((i) => i.name === name);
    if (!wanted || (record.get('properties') as string[]).includes(wanted.property)) continue;
    // Names come from CHANGED_INDEXES, never from input. IF EXISTS: another process may have dropped it first.
    await driver.executeQuery(`DROP INDEX \`${name}\` IF EXISTS`, {}, { database });
    dropped.push(name);
  }
  return dropped;
}

export async function applySchema(
  driver: Driver,
  database: string,
  log: (line: string) => void = () => undefined,
): Promise<void> {
  const dropped = await dropChangedIndexes(driver, database);
  for (const name of dropped) {
    log(`neo4j: index ${name} was made by an earlier version; building it anew (the start waits for it)`);
  }
  for (const { text } of schemaStatements()) {
    try {
      await driver.executeQuery(text, {}, { database });
    } catch (error) {
      // Two processes starting on a fresh database race on IF NOT EXISTS; the loser's rule exists.
      if (
        !/EquivalentSchemaRuleAlreadyExists|already exists/i.test(
          `${(error as { code?: string }).code} ${(error as Error).message}`,
        )
      )
        throw error;
    }
  }
  // A rebuilt vector index: 500k vectors took 31 min on 2 busy cores (bench/results/stores.md).
  await driver.executeQuery(`CALL db.awaitIndexes(${dropped.length > 0 ? 7200 : 300})`, {}, { database });
}
