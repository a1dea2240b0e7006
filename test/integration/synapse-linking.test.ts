/**
 * Mechanical links on MemoryStored, on the real Neo4j: each rule, the caps,
 * batching of storeMany, claims, and the store boundary. Small caps here
 * (3 links per type, degree 6) so the bounds show with few memories.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { mechanicalStrength } from '../../src/contexts/synapse/index.js';
import { strengthen } from '../../src/contexts/synapse/testing.js';
import type { AnyMessage } from '../../src/domain/index.js';

let t: TestApp;
const stores: string[] = [];
const MIN = 60_000;
const T0 = Date.parse('2026-03-01T09:00:00Z');

beforeAll(async () => {
  t = await startTestApp(
    {},
    { ...process.env, TOTAL_RECALL_SYNAPSE_LINKS_PER_TYPE: '3', TOTAL_RECALL_SYNAPSE_MAX_DEGREE: '6' },
  );
});
afterAll(async () => {
  for (const s of stores) await t.dropStore(s);
  await t.stop();
});

function newStore(): string {
  const s = randomStore('synapse-link');
  stores.push(s);
  return s;
}

type Input = {
  content: string;
  tags?: string[];
  people?: string[];
  emotions?: string[];
  sessionId?: string;
  occurredAt?: number;
};

/** Stores one by one (each sees the ones before), waits for the links. */
async function remember(store: string, inputs: Input[]): Promise<string[]> {
  const ids: string[] = [];
  for (const input of inputs) {
    const [stored] = await t.app.ports.memory.store([{ store, ...input }], { instanceId: null, sessionId: null });
    ids.push(stored!.memory.id);
  }
  await t.app.bus.idle();
  return ids;
}

interface Link {
  a: string;
  b: string;
  type: string;
  origin: string;
  strength: number;
}

async function links(store: string, type?: string): Promise<Link[]> {
  const rows = await t.cypher<Link>(
    `MATCH (x:Memory {store: $store})-[r:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]->(y:Memory)
     WHERE $type IS NULL OR type(r) = $type
     RETURN x.id AS a, y.id AS b, type(r) AS type, r.origin AS origin, r.strength AS strength ORDER BY a, b, type`,
    { store, type: type ?? null },
  );
  return rows;
}

const pair = (x: string, y: string) => (x < y ? [x, y] : [y, x]);
const pairsOf = (ls: Link[]) => ls.map((l) => [l.a, l.b].join(' ')).sort();

describe('TEMPORAL', () => {
  it('links memories of one session within the window, closer ones stronger', async () => {
    const store = newStore();
    const [m1, m2, m3, m4, m5] = (await remember(store, [
      { content: 'quartz lantern', sessionId: 's1', occurredAt: T0 },
      { content: 'velvet compass', sessionId: 's1', occurredAt: T0 + 5 * MIN },
      { content: 'granite teapot', sessionId: 's1', occurredAt: T0 + 20 * MIN },
      { content: 'copper violin', sessionId: 's1', occurredAt: T0 + 3 * 60 * MIN }, // outside the window
      { content: 'amber kettle', sessionId: 's2', occurredAt: T0 }, // another session
    ])) as [string, string, string, string, string];
    const temporal = await links(store, 'TEMPORAL');
    expect(pairsOf(temporal)).toEqual([pair(m1, m2), pair(m1, m3), pair(m2, m3)].map((p) => p.join(' ')).sort());
    const strength = (x: string, y: string) =>
      temporal.find((l) => l.a === pair(x, y)[0] && l.b === pair(x, y)[1])?.strength;
    expect(strength(m1, m2)).toBeCloseTo(mechanicalStrength(1 - 5 / 30));
    expect(strength(m1, m3)).toBeCloseTo(mechanicalStrength(1 - 20 / 30));
    expect(temporal.every((l) => l.origin === 'MECHANICAL')).toBe(true);
    expect(temporal.some((l) => [l.a, l.b].includes(m4) || [l.a, l.b].includes(m5))).toBe(false);
    expect(await links(store)).toEqual(temporal); // nothing else in common
  });
});

describe('THEMATIC', () => {
  it('links through shared tags and keyword overlap, not through unrelated text', async () => {
    const store = newStore();
    const [sail, charts, dentist, weather] = (await remember(store, [
      {
        content: 'Planning the sailing trip to the Azores: charts, tide tables and a spare anchor.',
        tags: ['sailing', 'azores'],
      },
      { content: 'Bought tide tables and new charts for the Azores sailing trip.', tags: ['sailing'] },
      { content: 'The dentist moved my appointment to Thursday afternoon.', tags: ['health'] },
      { content: 'And so it was.', tags: ['sailing', 'azores'] }, // no keywords: the shared tags alone
    ])) as [string, string, string, string];
    const thematic = pairsOf(await links(store, 'THEMATIC'));
    expect(thematic).toContain(pair(sail, charts).join(' '));
    expect(thematic).toContain(pair(sail, weather).join(' ')); // shared rare tags alone
    expect(thematic.some((p) => p.includes(dentist))).toBe(false);
  });
});

describe('PERSON and EMOTIONAL', () => {
  it('links through shared people (case-insensitive) and shared emotions', async () => {
    const store = newStore();
    const [a, b, c, d] = (await remember(store, [
      { content: 'zebra umbrella', people: ['Ana'], emotions: ['joy'] },
      { content: 'walrus ladder', people: ['ana', 'Ben'], emotions: ['fear'] },
      { content: 'falcon mitten', people: ['Carla'], emotions: ['joy', 'pride'] },
      { content: 'otter saddle', people: ['Ben'] },
    ])) as [string, string, string, string];
    const person = await links(store, 'PERSON');
    expect(pairsOf(person)).toEqual([pair(a, b), pair(b, d)].map((p) => p.join(' ')).sort());
    expect(person.find((l) => l.a === pair(a, b)[0] && l.b === pair(a, b)[1])?.strength).toBeCloseTo(
      mechanicalStrength(0.5),
    );
    const emotional = await links(store, 'EMOTIONAL');
    expect(pairsOf(emotional)).toEqual([pair(a, c).join(' ')]);
    expect(emotional[0]?.strength).toBeCloseTo(mechanicalStrength(0.5));
  });
});

describe('bounds', () => {
  it('caps links per memory and degree per memory, so a common person does not fan out', async () => {
    const store = newStore();
    const one = await remember(
      store,
      Array.from({ length: 12 }, (_, i) => ({ content: `note ${i} ${'xyz'.repeat(i + 1)}`, people: ['Dana'] })),
    );
    const { storeMany } = await t.ok<{ storeMany: { id: string }[] }>(
      'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }',
      {
        inputs: Array.from({ length: 12 }, (_, i) => ({
          store,
          content: `batch ${i} ${'qrs'.repeat(i + 1)}`,
          people: ['Dana'],
        })),
      },
    );
    await t.app.bus.idle();
    const ids = [...one, ...storeMany.map((m) => m.id)];
    const person = await links(store, 'PERSON');
    const degree = new Map(ids.map((id) => [id, person.filter((l) => l.a === id || l.b === id).length]));
    expect(Math.max(...degree.values())).toBeLessThanOrEqual(6);
    expect(person.length).toBeLessThanOrEqual(3 * ids.length);
    // Bounded, not starved: every memory after the first still has a PERSON link.
    expect(ids.slice(1).filter((id) => degree.get(id) === 0)).toEqual([]);
  });
});

describe('batching and events', () => {
  it('links a storeMany batch in one go, within the batch too, and says so once', async () => {
    const store = newStore();
    const found: AnyMessage[] = [];
    const untap = t.app.bus.tap((m) => {
      if (m.type === 'AssociationsFound' && m.data.store === store) found.push(m);
    });
    const inputs = Array.from({ length: 10 }, (_, i) => ({
      store,
      content: `entry ${'abc'.repeat(i + 1)}`,
      sessionId: 'batch',
      occurredAt: new Date(T0 + i * MIN).toISOString(),
    }));
    await t.ok('mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }', { inputs });
    await t.app.bus.idle();
    untap();
    const temporal = await links(store, 'TEMPORAL');
    expect(temporal.length).toBeGreaterThan(0);
    expect(found).toHaveLength(1);
    const reported = found[0]?.type === 'AssociationsFound' ? found[0].data.links : [];
    const all = await links(store);
    expect(reported.map((l) => `${l.a} ${l.b} ${l.type}`).sort()).toEqual(
      all.map((l) => `${l.a} ${l.b} ${l.type}`).sort(),
    );
  });

  it('never links across stores and never changes a Memory node', async () => {
    const s1 = newStore();
    const s2 = newStore();
    const same = {
      content: 'heron lighthouse',
      tags: ['coast'],
      people: ['Eve'],
      emotions: ['calm'],
      sessionId: 'shared',
      occurredAt: T0,
    };
    const [first] = await remember(s1, [same]);
    const before = await t.cypher<{ p: Record<string, unknown> }>(
      'MATCH (m:Memory {id: $id}) RETURN properties(m) AS p',
      { id: first },
    );
    await remember(s2, [same]);
    await remember(s1, [same]);
    const crossing = await t.cypher<{ n: number }>(
      'MATCH (x:Memory)-[r]-(y:Memory) WHERE x.store = $s1 AND y.store = $s2 RETURN count(r) AS n',
      { s1, s2 },
    );
    expect(Number(crossing[0]?.n)).toBe(0);
    expect((await links(s1)).length).toBeGreaterThanOrEqual(4); // all four rules within s1
    const after = await t.cypher<{ p: Record<string, unknown> }>(
      'MATCH (m:Memory {id: $id}) RETURN properties(m) AS p',
      { id: first },
    );
    // Only its change stamp moves: a new link from it is in cold storage's next delta (docs/cold-storage.md).
    const unstamped = (rows: { p: Record<string, unknown> }[]) => rows.map(({ p: { changedAt: _, ...rest } }) => rest);
    expect(unstamped(after)).toEqual(unstamped(before));
  });
});

describe('claims', () => {
  it('strengthen every link of the claimed memory by the claim boost, and no other', async () => {
    const store = newStore();
    const [a, b, c] = (await remember(store, [
      { content: 'maple harbour', people: ['Finn'], emotions: ['joy'] },
      { content: 'cedar valley', people: ['Finn'] },
      { content: 'birch meadow', emotions: ['joy'] },
    ])) as [string, string, string];
    const before = await links(store);
    await t.ok('mutation ($id: ID!) { claim(id: $id) { id } }', { id: b });
    await t.app.bus.idle();
    const after = await links(store);
    expect(after).toHaveLength(before.length);
    for (const link of before) {
      const now = after.find((l) => l.a === link.a && l.b === link.b && l.type === link.type)!;
      const touchesB = link.a === b || link.b === b;
      expect(now.strength).toBeCloseTo(
        touchesB ? strengthen(link.strength, t.config.synapse.claimBoost) : link.strength,
      );
    }
    expect(before.some((l) => l.a === b || l.b === b)).toBe(true);
    expect(before.some((l) => [l.a, l.b].includes(a) && [l.a, l.b].includes(c))).toBe(true);
  });
});
