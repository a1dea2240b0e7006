import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildGraphQLSchema, schemaText } from '../../src/adapters/graphql/index.js';
import {
  cypherFilesOnDisk,
  parseStatement,
  usedParams,
  CYPHER_ROOT,
  schemaStatements,
} from '../../src/adapters/neo4j/testing.js';
import { declaredFiles as registeredFiles } from '../../src/domain/index.js';
// Importing the composition root loads every context's statements.
import '../../src/app.js';
import '../../src/adapters/report/index.js';
import { startTestApp } from '../helpers.js';

describe('schema.graphql', () => {
  it('is exactly what the code generates (run `npm run schema` after changing the API)', async () => {
    const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(schemaText(await buildGraphQLSchema()));
  });
});

describe('cypher registry', () => {
  const statementFiles = cypherFilesOnDisk().filter((f) => !f.startsWith('schema/'));

  it('registers every statement file, and only files that exist', () => {
    expect([...registeredFiles()].sort()).toEqual(statementFiles);
  });

  it.each(statementFiles)('%s declares exactly the $params it uses and its returns', (file) => {
    const source = readFileSync(`${CYPHER_ROOT}/${file}`, 'utf8');
    const statement = parseStatement(file, source);
    expect([...statement.params].sort()).toEqual(usedParams(statement.text));
    expect(source).toMatch(/^\/\/ returns: .+$/m);
    // Only the body is sent to Neo4j.
    expect(statement.text).not.toMatch(/^\s*\/\//m);
    expect(statement.text.length).toBeGreaterThan(0);
  });

  it('keeps schema statements parameter-free and idempotent', () => {
    for (const { file, text } of schemaStatements()) {
      expect(usedParams(text), file).toEqual([]);
      expect(text, file).toMatch(/IF NOT EXISTS/);
    }
  });

  it(
    'backs every node a statement finds or merges by id with a uniqueness constraint ' + '(never a label scan)',
    async () => {
      const labels = new Set<string>();
      for (const file of statementFiles) {
        for (const m of readFileSync(`${CYPHER_ROOT}/${file}`, 'utf8').matchAll(/\(\w+:(\w+) \{id: /g))
          labels.add(m[1]!);
      }
      expect(labels.has('Recall')).toBe(true);
      const t = await startTestApp();
      try {
        const rows = await t.cypher<{ labels: string[]; properties: string[] }>(
          "SHOW CONSTRAINTS YIELD type, labelsOrTypes, properties WHERE type = 'UNIQUENESS' RETURN labelsOrTypes " +
            'AS labels, properties',
        );
        const unique = new Set(
          rows.filter((r) => r.properties.length === 1 && r.properties[0] === 'id').map((r) => r.labels[0]),
        );
        expect([...labels].filter((l) => !unique.has(l))).toEqual([]);
      } finally {
        await t.stop();
      }
    },
  );
});
