import { describe, expect, it } from 'vitest';
import { parseStatement } from '../../src/adapters/neo4j/testing.js';

describe('a statement file header', () => {
  it('reads params and returns, a long list going on in indented comment lines', () => {
    const text = [
      '// What it does.',
      '// params: $ids, $now',
      '// returns: id, store,',
      '//   tier, salience',
      '// a note after the lists',
      'MATCH (m:Memory) WHERE m.id IN $ids RETURN m.id AS id',
    ].join('\n');
    const statement = parseStatement('x.cypher', text);
    expect(statement.params).toEqual(['ids', 'now']);
    expect(statement.returns).toEqual(['id', 'store', 'tier', 'salience']);
    expect(statement.text).toBe('MATCH (m:Memory) WHERE m.id IN $ids RETURN m.id AS id');
  });

  it('reads none as an empty list', () => {
    const statement = parseStatement('y.cypher', '// params: none\n// returns: none\nRETURN 1');
    expect([statement.params, statement.returns]).toEqual([[], []]);
  });
});
