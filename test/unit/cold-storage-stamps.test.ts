/**
 * Cold storage's deltas find what changed by the `changedAt` stamp
 * (docs/cold-storage.md): every statement that creates or changes a node, or
 * a relationship, stamps that node (a relationship: its start node) with
 * Neo4j's clock; the only deletion, forgetting, leaves a stamped
 * MemoryForgotten event behind. A statement that forgets to stamp would make
 * a delta miss its change: this test fails first. A memory's derived
 * properties (Salience's materialised score), which no file holds, are the
 * one write left unstamped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CYPHER_ROOT, cypherFilesOnDisk } from '../../src/adapters/neo4j/testing.js';
import { DERIVED_MEMORY_PROPERTIES } from '../../src/adapters/cold-storage/testing.js';

const statements = cypherFilesOnDisk()
  .filter((f) => !f.startsWith('schema/') && !f.startsWith('cold-storage/'))
  .map((file) => ({
    file,
    body: readFileSync(join(CYPHER_ROOT, file), 'utf8')
      .split('\n')
      .filter((l) => !l.trimStart().startsWith('//'))
      .join('\n'),
  }));

/** The node variables a statement writes: created, merged, labelled, assigned, or the start of a merged link. */
function writtenNodes(body: string): Set<string> {
  const relationships = new Set([...body.matchAll(/\[(\w+):/g)].map((m) => m[1] as string));
  const vars = new Set<string>();
  for (const m of body.matchAll(/\b(?:CREATE|MERGE)\s+\((\w+)[:)]/g)) vars.add(m[1] as string);
  for (const m of body.matchAll(/\b(?:SET|REMOVE)\s+(\w+):/g)) vars.add(m[1] as string);
  for (const m of body.matchAll(/(\w+)\.(\w+)\s*=(?!=)/g)) {
    if (DERIVED_MEMORY_PROPERTIES.includes(m[2] as string)) continue;
    const before = body.slice(0, m.index);
    if (before.lastIndexOf('SET') > before.lastIndexOf('WHERE')) vars.add(m[1] as string);
  }
  for (const m of body.matchAll(/\bREMOVE\s+(\w+)\.\w+/g)) vars.add(m[1] as string);
  return new Set([...vars].filter((v) => !relationships.has(v)));
}

const writes = statements.filter((s) => writtenNodes(s.body).size > 0);

describe('change stamps for cold storage deltas', () => {
  it('finds the statements that write (the check is not empty)', () => {
    expect(writes.length).toBeGreaterThan(30);
    expect(writes.map((s) => s.file)).toContain('hippocampus/store-memories.cypher');
  });

  it.each(writes.map((s) => [s.file, s.body] as const))('%s stamps every node it writes', (_file, body) => {
    for (const v of writtenNodes(body)) {
      const stamped =
        new RegExp(`\\b${v}\\.changedAt\\s*=\\s*timestamp\\(\\)`).test(body) ||
        new RegExp(`\\(${v}:\\w+\\s*\\{[\\s\\S]*?changedAt:\\s*timestamp\\(\\)`).test(body);
      expect(stamped, `${v} in ${_file}`).toBe(true);
    }
    // Relationships are found by their start node: it is stamped whenever one is merged from it.
    for (const m of body.matchAll(/\bMERGE\s+\((\w+)\)-\[/g))
      expect(body, `${m[1]} starts a merged relationship`).toMatch(new RegExp(`\\b${m[1]}\\.changedAt\\s*=`));
  });

  it('every kind of node a statement creates is one the deltas look up by label', () => {
    const created = new Set(
      statements.flatMap((st) => [...st.body.matchAll(/\b(?:CREATE|MERGE)\s+\(\w+:(\w+)/g)].map((m) => m[1] as string)),
    );
    expect(created.size).toBeGreaterThan(8);
    for (const file of ['cold-storage/delta-nodes.cypher', 'cold-storage/delta-relationships.cypher']) {
      const body = readFileSync(join(CYPHER_ROOT, file), 'utf8');
      const looked = new Set([...body.matchAll(/MATCH \(n:(\w+)\) WHERE n\.changedAt >= \$since/g)].map((m) => m[1]));
      for (const label of created) expect(looked.has(label), `${label} in ${file}`).toBe(true);
    }
  });

  it('deletes only by forgetting, which leaves a stamped MemoryForgotten event for the delta', () => {
    const deleting = statements.filter((s) => /\bDELETE\b/.test(s.body)).map((s) => s.file);
    expect(deleting).toEqual(['hippocampus/forget-memory.cypher']);
    const forget = statements.find((s) => s.file === 'hippocampus/forget-memory.cypher')?.body ?? '';
    expect(forget).toMatch(/t\.type = 'MemoryForgotten'[\s\S]*t\.memoryId = m\.id[\s\S]*t\.changedAt = timestamp\(\)/);
  });
});
