/**
 * The check a background checkpoint makes while the service writes
 * (live-check.ts), as plain functions: records grouped by their node's key,
 * groups a change touched left out, every other group compared.
 */
import { describe, expect, it } from 'vitest';
import {
  GroupedRecords,
  ReadSince,
  compareGroups,
  groupOf,
  type NodeLine,
  type RelationshipLine,
} from '../../src/adapters/cold-storage/testing.js';

const node = (id: string, content: string): NodeLine => ({
  type: 'node',
  ref: `Memory#${id}`,
  labels: ['Memory'],
  props: { id, content },
  types: {},
});
const link = (from: string, to: string, strength: number): RelationshipLine => ({
  type: 'relationship',
  rel: 'THEMATIC',
  start: `Memory#${from}`,
  end: `Memory#${to}`,
  props: { strength },
  types: {},
});

function grouped(nodes: NodeLine[], links: RelationshipLine[]): GroupedRecords {
  const records = new GroupedRecords();
  for (const n of nodes) records.node(n);
  for (const l of links) records.relationship(l);
  return records;
}

const ids = Array.from({ length: 200 }, (_, i) => `m${i}`);
const nodes = ids.map((id) => node(id, `memory ${id}`));
const links = ids.slice(1).map((id, i) => link(id, ids[i] as string, 0.5));
const untouched = () => new Uint8Array(1 << 16);

describe('grouped records', () => {
  it('agree whatever order the records came in, and compare every record when nothing moved', () => {
    const file = grouped(nodes, links);
    const live = grouped([...nodes].reverse(), [...links].reverse());
    expect(compareGroups(file, live, untouched())).toEqual({ compared: 399, left: 0, differing: 0 });
  });

  it('find a record that differs, one that is missing and one too many', () => {
    const file = grouped(nodes, links);
    const changed = nodes.map((n, i) => (i === 7 ? node('m7', 'changed without a stamp') : n));
    expect(compareGroups(file, grouped(changed, links), untouched()).differing).toBe(1);
    expect(compareGroups(file, grouped(nodes, links.slice(1)), untouched()).differing).toBe(1);
    expect(compareGroups(file, grouped([...nodes, node('extra', 'x')], links), untouched()).differing).toBe(1);
  });

  it("leave a touched node's group out (its records and its outgoing relationships) and compare the rest", () => {
    const file = grouped(nodes, links);
    const changed = nodes.map((n, i) => (i === 7 ? node('m7', 'changed since the export') : n));
    const moved = links.map((l) => (l.start === 'Memory#m7' ? link('m7', 'm6', 0.9) : l));
    const touched = untouched();
    touched[groupOf('#m7')] = 1;
    const result = compareGroups(file, grouped(changed, moved), touched);
    expect(result.differing).toBe(0);
    // m7 and its one outgoing relationship (and whatever else shares its group) are left to the next delta.
    expect(result.left).toBeGreaterThanOrEqual(2);
    expect(result.compared + result.left).toBe(399);
  });

  it('spread keys over the groups', () => {
    const groups = new Set(Array.from({ length: 10_000 }, (_, i) => groupOf(`#mem_${i}`)));
    expect(groups.size).toBeGreaterThan(9_000);
  });
});

describe('a file read while writers run', () => {
  const until = 1_000_000;
  const read = (ids: string[]) => {
    const since = new ReadSince(until);
    for (const id of ids) since.node(node(id, id));
    return since;
  };
  const row = (start: number, end: number) => ({ startChangedAt: start, endChangedAt: end });
  const early = until - 10;
  const late = until + 10;

  it('keeps every relationship when nothing was written after the clock reading', () => {
    expect(new ReadSince(null).keeps(row(late, late), link('a', 'new', 1))).toBe(true);
    expect(read(['a', 'b']).keeps(row(early, early), link('a', 'b', 1))).toBe(true);
  });

  it('leaves out a relationship from a node it did not read, or to a node made since from a node changed since', () => {
    const since = read(['a', 'b']);
    // From a node created (or first changed) after the nodes were read: the next delta carries it.
    expect(since.keeps(row(late, early), link('new', 'a', 1))).toBe(false);
    // To a node created since: its start was stamped when the link was made, and the next delta carries both.
    expect(since.keeps(row(late, late), link('a', 'new', 1))).toBe(false);
  });

  it('keeps a relationship to a node that existed before, read or not, and one between nodes it read', () => {
    const since = read(['a', 'b']);
    expect(since.keeps(row(early, early), link('a', 'old', 1))).toBe(true);
    // The end changed after the read, the start did not: the end existed, and the start's relationships stay.
    expect(since.keeps(row(early, late), link('a', 'old', 1))).toBe(true);
    expect(since.keeps(row(late, late), link('a', 'b', 1))).toBe(true);
  });
});
