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
 * property (memory-embedding-vector.cypher). The index is built anew in the background while the service serves.
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

/**
 * Applies the schema and waits (up to 300 s) for every index to come online but those it had to drop and build
 * anew: a rebuilt vector index over a large database takes many minutes (500k vectors: 31 min on 2 busy cores,
 * bench/results/stores.md), and the service serves meanwhile (index-build.ts watches it; Recall finds the
 * memories of a large store by their words until it is online). Returns the names of the indexes still being built.
 */
export async function applySchema(
  driver: Driver,
  database: string,
  log: (line: string) => void = () => undefined,
): Promise<string[]> {
  const dropped = await dropChangedIndexes(driver, database);
  for (const name of dropped) {
    log(`neo4j: index ${name} was made by an earlier version; building it anew while the service serves`);
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
  await awaitIndexesBut(driver, database, await building(driver, database, dropped), 300_000);
  // An index rebuilt over few vectors (a fresh or small database) is online within seconds: wait for that.
  await awaitIndexesBut(driver, database, [], 10_000).catch(() => undefined);
  return building(driver, database, dropped);
}

/** Of these indexes, the ones not online yet (another process may have started their rebuild before this one). */
async function building(driver: Driver, database: string, names: readonly string[]): Promise<string[]> {
  const all = CHANGED_INDEXES.map((i) => i.name).concat(names);
  const { records } = await driver.executeQuery(
    "SHOW INDEXES YIELD name, state WHERE name IN $names AND state <> 'ONLINE' RETURN name",
    { names: [...new Set(all)] },
    { database },
  );
  return records.map((r) => r.get('name') as string);
}

/** Waits until every index but `except` is online; an index that failed to build stops the start. */
export async function awaitIndexesBut(
  driver: Driver,
  database: string,
  except: readonly string[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { records } = await driver.executeQuery(
      "SHOW INDEXES YIELD name, state WHERE NOT name IN $except AND state <> 'ONLINE' RETURN name, state",
      { except: [...except] },
      { database },
    );
    const failed = records.filter((r) => r.get('state') === 'FAILED').map((r) => r.get('name') as string);
    if (failed.length > 0) throw new Error(`neo4j: index ${failed.join(', ')} failed to build (SHOW INDEXES)`);
    if (records.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`neo4j: index ${records.map((r) => r.get('name')).join(', ')} not online after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
