/** Applies `cypher/schema/*.cypher` (constraints and indexes, all IF NOT EXISTS). */
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

export async function applySchema(driver: Driver, database: string): Promise<void> {
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
  await driver.executeQuery('CALL db.awaitIndexes(300)', {}, { database });
}
