/** The cold-storage format: typed values round-trip, canonical JSON, and an order-independent digest. */
import neo4j from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import {
  GraphDigest,
  canonicalJson,
  compareCounts,
  decodeProps,
  encodeProps,
  nodeRef,
  type NodeLine,
  type RelationshipLine,
} from '../../src/adapters/cold-storage/testing.js';

describe('property values', () => {
  it('keep their Neo4j types through JSON (version 1: float lists as JSON numbers)', () => {
    const props = {
      id: 'mem_1',
      claimed: true,
      accessCount: neo4j.int(3),
      big: neo4j.int('9007199254740993'),
      salience: 0.5,
      whole: 1,
      odd: NaN,
      tags: ['a', 'b'],
      embedding: [0.25, 1, -3.5],
      counts: [neo4j.int(1), neo4j.int(2)],
      createdAt: new neo4j.types.DateTime(2026, 5, 1, 12, 0, 0, 123_000_000, 0),
      zoned: new neo4j.types.DateTime(2026, 1, 1, 10, 0, 0, 123_456_789, undefined, 'Europe/Paris'),
      offset: new neo4j.types.DateTime(2026, 1, 1, 10, 0, 0, 0, -7200),
      local: new neo4j.types.LocalDateTime(2026, 1, 1, 10, 0, 0, 500_000_000),
      day: new neo4j.types.Date(2026, 1, 2),
    };
    const { props: json, types } = encodeProps(props, 'test', 1);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    expect(types).toEqual({
      accessCount: 'Integer',
      big: 'Integer',
      counts: 'List<Integer>',
      createdAt: 'DateTime',
      day: 'Date',
      local: 'LocalDateTime',
      odd: 'Float',
      offset: 'DateTime',
      zoned: 'DateTime',
    });
    expect(json.big).toBe('9007199254740993');
    expect(json.createdAt).toBe('2026-05-01T12:00:00.123000000Z');
    const back = decodeProps(json, types);
    expect(encodeProps(back, 'again', 1)).toEqual({ props: json, types });
    expect(neo4j.isInt(back.accessCount)).toBe(true);
    expect(String(back.zoned)).toBe(String(props.zoned));
    expect(Number.isNaN(back.odd)).toBe(true);
  });

  it('refuses a type it cannot keep rather than losing it', () => {
    expect(() => encodeProps({ p: new neo4j.types.Point(7203, 1, 2) }, 'node')).toThrow(/cannot keep/);
  });
});

describe('canonical form and digest', () => {
  const node = (id: string, extra: Record<string, unknown> = {}): NodeLine => ({
    type: 'node',
    ref: nodeRef(['Memory'], id, `4:x:${id}`),
    labels: ['Memory'],
    props: { id, ...extra } as NodeLine['props'],
    types: {},
  });
  const rel = (a: string, b: string): RelationshipLine => ({
    type: 'relationship',
    rel: 'THEMATIC',
    start: `Memory#${a}`,
    end: `Memory#${b}`,
    props: { strength: 0.9 },
    types: {},
  });

  it('sorts object keys', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
  });

  it('does not depend on the order records come in, and changes with any content', () => {
    const one = new GraphDigest();
    const two = new GraphDigest();
    [node('a'), node('b'), node('c')].forEach((n) => one.node(n));
    [rel('a', 'b'), rel('b', 'c')].forEach((r) => one.relationship(r));
    [node('c'), node('a'), node('b')].forEach((n) => two.node(n));
    [rel('b', 'c'), rel('a', 'b')].forEach((r) => two.relationship(r));
    expect(two.digest()).toBe(one.digest());
    expect(two.counts()).toEqual(one.counts());
    const three = new GraphDigest();
    [node('a'), node('b'), node('c', { content: 'x' })].forEach((n) => three.node(n));
    [rel('a', 'b'), rel('b', 'c')].forEach((r) => three.relationship(r));
    expect(three.digest()).not.toBe(one.digest());
  });

  it('names a node without an id by its content, so two databases agree', () => {
    const anon = (elementId: string): NodeLine => ({
      type: 'node',
      ref: `~${elementId}`,
      labels: ['SweepCursor'],
      props: { key: 'k' },
      types: {},
    });
    const [x, y] = [new GraphDigest(), new GraphDigest()];
    x.node(anon('4:db1:7'));
    x.relationship({ type: 'relationship', rel: 'OF', start: '~4:db1:7', end: '~4:db1:7', props: {}, types: {} });
    y.node(anon('4:db2:99'));
    y.relationship({ type: 'relationship', rel: 'OF', start: '~4:db2:99', end: '~4:db2:99', props: {}, types: {} });
    expect(y.digest()).toBe(x.digest());
  });

  it('reports count differences readably', () => {
    const a = { nodes: { Memory: 2 }, relationships: { ABOUT: 1 }, totalNodes: 2, totalRelationships: 1 };
    const b = { nodes: { Memory: 1, Session: 1 }, relationships: { ABOUT: 1 }, totalNodes: 2, totalRelationships: 1 };
    expect(compareCounts(a, b)).toEqual(['nodes Memory: expected 2, found 1', 'nodes Session: expected 0, found 1']);
  });
});
