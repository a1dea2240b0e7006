/**
 * Invariant 1 for Synapse: its statements write association relationships
 * only. They never create, change or remove a node: every MERGE is a
 * relationship between bound memories, every SET is on a relationship.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CYPHER_ROOT } from '../../src/adapters/neo4j/testing.js';

const dir = join(CYPHER_ROOT, 'synapse');
const statements = readdirSync(dir)
  .filter((f) => f.endsWith('.cypher'))
  .map((f) => ({
    file: f,
    body: readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter((l) => !l.trimStart().startsWith('//'))
      .join('\n'),
  }));

/** The variables a statement binds to relationships: `-[r:…]-`. */
const relationshipVars = (body: string) => new Set([...body.matchAll(/\[(\w+):/g)].map((m) => m[1] as string));

describe('Synapse writes only associations (invariant 1)', () => {
  it('finds its statements and its writes (the check is not empty)', () => {
    expect(statements.length).toBeGreaterThan(5);
    expect(statements.filter((s) => /\bMERGE\b/.test(s.body)).length).toBeGreaterThanOrEqual(2);
    expect(statements.some((s) => /SET r\.strength\b/.test(s.body))).toBe(true);
  });

  it.each(statements.map((s) => [s.file, s.body] as const))('%s creates, changes or removes no node', (_file, body) => {
    expect(body).not.toMatch(/\b(DELETE|REMOVE)\b|(?<!ON )\bCREATE\b/);
    // MERGE only a relationship between two already bound memories.
    for (const m of body.matchAll(/\bMERGE\s+(\S+)/g)) expect(m[1]).toMatch(/^\(\w+\)-\[\w+:/);
    // Every assignment is to a relationship's property.
    const rels = relationshipVars(body);
    for (const clause of body.matchAll(
      /\b(?:SET|ON CREATE SET|ON MATCH SET)\b([\s\S]*?)(?=\bRETURN\b|\bWITH\b|\bSET\b|\bMERGE\b|$)/g,
    )) {
      // The start node's changedAt is the change stamp cold storage's deltas find a link by (docs/cold-storage.md).
      for (const target of (clause[1] as string).matchAll(/(\w+)\.(\w+)\s*=(?!=)/g))
        if (target[2] !== 'changedAt') expect(rels, `${target[0]} in ${_file}`).toContain(target[1]);
    }
  });
});
