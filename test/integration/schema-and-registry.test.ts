import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildGraphQLSchema, schemaText } from '../../src/adapters/graphql/index.js';
import { cypherFilesOnDisk, parseStatement, registeredFiles, usedParams, CYPHER_ROOT, schemaStatements } from '../../src/adapters/neo4j/index.js';
// Importing the composition root loads every context's statements.
import '../../src/app.js';

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
    const statement = parseStatement(file, readFileSync(`${CYPHER_ROOT}/${file}`, 'utf8'));
    expect([...statement.params].sort()).toEqual(usedParams(statement.text));
    expect(statement.text).toMatch(/^\/\/ returns: .+$/m);
  });

  it('keeps schema statements parameter-free and idempotent', () => {
    for (const { file, text } of schemaStatements()) {
      expect(usedParams(text), file).toEqual([]);
      expect(text, file).toMatch(/IF NOT EXISTS/);
    }
  });
});
