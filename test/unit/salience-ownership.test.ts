/**
 * Invariant 1 for Salience: its statements write only its own `salience*` and
 * `usefulness*` properties on Memory nodes, never create or remove a memory, and never set
 * a tier, a claim or content (tier changes go through Hippocampus).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CYPHER_ROOT } from '../../src/adapters/neo4j/testing.js';

const dir = join(CYPHER_ROOT, 'salience');
const statements = readdirSync(dir)
  .filter((f) => f.endsWith('.cypher'))
  .map((f) => ({
    file: f,
    body: readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter((l) => !l.trimStart().startsWith('//'))
      .join('\n'),
  }));

/** The variables a statement binds to :Memory nodes. */
const memoryVars = (body: string) => [...body.matchAll(/\((\w+):Memory\b/g)].map((m) => m[1] as string);

describe('Salience writes only its own properties (invariant 1)', () => {
  it('finds its statements (the check is not empty)', () => {
    expect(statements.length).toBeGreaterThan(5);
    expect(statements.some((s) => /SET m\.salience\b/.test(s.body))).toBe(true);
  });

  it.each(statements.map((s) => [s.file, s.body] as const))(
    '%s sets only salience* and usefulness* on Memory nodes and creates or deletes none',
    (_file, body) => {
      expect(body).not.toMatch(/\b(DELETE|REMOVE|CREATE)\b/);
      expect(body).not.toMatch(/MERGE\s*\(\w*:Memory/);
      for (const v of memoryVars(body)) {
        const assigned = [...body.matchAll(new RegExp(`\\b${v}\\.(\\w+)\\s*=(?!=)`, 'g'))].filter((m) => {
          // `=` inside WHERE is a comparison; only assignments after SET count.
          const before = body.slice(0, m.index);
          return before.lastIndexOf('SET') > before.lastIndexOf('WHERE');
        });
        // changedAt: the change stamp every write sets for cold storage's deltas (docs/cold-storage.md).
        for (const m of assigned) expect(m[1]).toMatch(/^(salience|usefulness|changedAt$)/);
      }
    },
  );
});
