/**
 * Synapse through GraphQL on the real Neo4j: the mind's associations, their
 * bounds and errors, undirected reads, neighbourhoods and spreading activation.
 * Mechanical linking is off here, so every link is one the test made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { MAX_STRENGTH, MIN_STRENGTH, TYPE_WEIGHTS } from '../../src/contexts/synapse/testing.js';

let t: TestApp;
const store = randomStore('synapse');
const other = randomStore('synapse-other');

beforeAll(async () => {
  t = await startTestApp({}, { ...process.env, TOTAL_RECALL_SYNAPSE_MECHANICAL: 'off' });
});
afterAll(async () => {
  await t.dropStore(store);
  await t.dropStore(other);
  await t.stop();
});

const ASSOCIATION = 'type origin strength createdAt updatedAt seenFrom hop other { id content }';
const ASSOCIATE = `mutation ($input: AssociateInput!) { associate(input: $input) { ${ASSOCIATION} } }`;
const LINKS = `query ($id: ID!, $types: [AssociationType!], $min: Float, $limit: Int) {
  memory(id: $id) { associations(types: $types, minStrength: $min, limit: $limit) { ${ASSOCIATION} } } }`;
const NEIGHBOURHOOD =
  `query ($id: ID!, $depth: Int, $types: [AssociationType!]) { neighbourhood(id: $id, depth: ` +
  `$depth, types: $types) { ${ASSOCIATION} } }`;

interface Assoc {
  type: string;
  origin: string;
  strength: number;
  seenFrom: string;
  hop: number;
  other: { id: string; content: string };
}

async function memories(n: number, inStore = store): Promise<string[]> {
  const inputs = Array.from({ length: n }, (_, i) => ({ store: inStore, content: `memory ${i} of ${inStore}` }));
  const { storeMany } = await t.ok<{ storeMany: { id: string }[] }>(
    'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }',
    { inputs },
  );
  return storeMany.map((m) => m.id);
}

async function associate(input: Record<string, unknown>): Promise<Assoc> {
  return (await t.ok<{ associate: Assoc }>(ASSOCIATE, { input })).associate;
}

async function linksOf(id: string, vars: Record<string, unknown> = {}): Promise<Assoc[]> {
  return (await t.ok<{ memory: { associations: Assoc[] } }>(LINKS, { id, ...vars })).memory.associations;
}

async function relationships(): Promise<number> {
  const rows = await t.cypher<{ n: number }>(
    'MATCH (m:Memory)-[r:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]-() WHERE m.store IN [$store, $other] RETURN ' +
      'count(DISTINCT r) AS n',
    { store, other },
  );
  return Number(rows[0]?.n ?? 0);
}

/** A typed error whose code ends as given, and not one relationship more or less. */
async function expectRefused(query: string, variables: Record<string, unknown>, codeEnd: string) {
  const before = await relationships();
  const res = await t.gql(query, variables);
  expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toMatch(new RegExp(`${codeEnd}$`));
  expect(await relationships()).toBe(before);
}

describe('bidirectional associations (invariant 5)', () => {
  it('reads the same type and strength from either end, stored once from lower id to higher', async () => {
    const [a, b] = (await memories(2)) as [string, string];
    const made = await associate({ a: b, b: a, type: 'CAUSAL', strength: 0.7 });
    expect(made).toMatchObject({
      type: 'CAUSAL',
      origin: 'SEMANTIC',
      strength: 0.7,
      seenFrom: b,
      hop: 1,
      other: { id: a },
    });

    const fromA = await linksOf(a);
    const fromB = await linksOf(b);
    expect(fromA).toEqual([{ ...made, seenFrom: a, other: { id: b, content: expect.any(String) } }]);
    expect(fromB).toEqual([made]);

    // Asking again from the other side, or again at all, keeps one relationship per pair and type.
    await associate({ a, b, type: 'CAUSAL', strength: 0.7 });
    const rows = await t.cypher<{ from: string; to: string; type: string; origin: string }>(
      'MATCH (x:Memory)-[r]->(y:Memory) WHERE x.id IN [$a, $b] AND y.id IN [$a, $b] RETURN x.id AS from, y.id AS to, ' +
        'type(r) AS type, r.origin AS origin',
      { a, b },
    );
    expect(rows).toEqual([{ from: a < b ? a : b, to: a < b ? b : a, type: 'CAUSAL', origin: 'SEMANTIC' }]);
  });

  it('keeps one relationship per type for a pair, and filters by type and strength', async () => {
    const [a, b] = (await memories(2)) as [string, string];
    await associate({ a, b, type: 'THEMATIC', strength: 0.3 });
    await associate({ a, b, type: 'PERSON', strength: 0.9 });
    expect((await linksOf(b)).map((l) => [l.type, l.strength])).toEqual([
      ['PERSON', 0.9],
      ['THEMATIC', 0.3],
    ]);
    expect((await linksOf(a, { types: ['THEMATIC'] })).map((l) => l.type)).toEqual(['THEMATIC']);
    expect((await linksOf(a, { min: 0.5 })).map((l) => l.type)).toEqual(['PERSON']);
    expect(await linksOf(a, { limit: 1 })).toHaveLength(1);
  });

  it('makes concurrent CREATEs of one pair one relationship', async () => {
    const [a, b] = (await memories(2)) as [string, string];
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        associate(i % 2 ? { a, b, type: 'TEMPORAL' } : { a: b, b: a, type: 'TEMPORAL' }),
      ),
    );
    const rows = await t.cypher<{ n: number }>(
      'MATCH (:Memory {id: $a})-[r:TEMPORAL]-(:Memory {id: $b}) RETURN count(r) AS n',
      { a, b },
    );
    expect(Number(rows[0]?.n)).toBe(1);
  });
});

describe('the mechanical switch', () => {
  it('makes no links on store while mechanical linking is off', async () => {
    const same = {
      store,
      content: 'kestrel orchard',
      tags: ['birds'],
      people: ['Ivo'],
      emotions: ['awe'],
      sessionId: 'off',
      occurredAt: '2026-03-01T09:00:00Z',
    };
    const { storeMany } = await t.ok<{ storeMany: { id: string }[] }>(
      'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }',
      { inputs: [same, same].map((m, i) => ({ ...m, id: `off-${store}-${i}` })) },
    );
    await t.app.bus.idle();
    expect(t.config.synapse.mechanicalLinking).toBe(false);
    for (const { id } of storeMany) expect(await linksOf(id)).toEqual([]);
  });
});

describe('strengthen and weaken', () => {
  it('moves by the step, saturates below 1 and never reaches 0', async () => {
    const [a, b] = (await memories(2)) as [string, string];
    expect((await associate({ a, b, type: 'THEMATIC' })).strength).toBe(0.6); // the default
    // default step 0.2
    expect((await associate({ a, b, type: 'THEMATIC', direction: 'STRENGTHEN' })).strength).toBeCloseTo(0.68);
    expect(
      (await associate({ a: b, b: a, type: 'THEMATIC', direction: 'WEAKEN', strength: 0.5 })).strength,
    ).toBeCloseTo(0.34);
    let up = 0;
    for (let i = 0; i < 5; i++)
      up = (await associate({ a, b, type: 'THEMATIC', direction: 'STRENGTHEN', strength: 1 })).strength;
    expect(up).toBe(MAX_STRENGTH);
    let down = 1;
    for (let i = 0; i < 5; i++)
      down = (await associate({ a, b, type: 'THEMATIC', direction: 'WEAKEN', strength: 1 })).strength;
    expect(down).toBe(MIN_STRENGTH);
    expect((await linksOf(b))[0]).toMatchObject({ strength: MIN_STRENGTH, origin: 'SEMANTIC' });
  });

  it('takes over a mechanical link on CREATE: one relationship, now the mind’s', async () => {
    const [a, b] = (await memories(2)) as [string, string];
    await t.cypher(
      `MATCH (x:Memory {id: $lo}), (y:Memory {id: $hi}) CREATE (x)-[:EMOTIONAL {strength: 0.3, origin: 'MECHANICAL', ` +
        `createdAt: datetime(), updatedAt: datetime()}]->(y)`,
      { lo: a < b ? a : b, hi: a < b ? b : a },
    );
    expect(await associate({ a, b, type: 'EMOTIONAL', direction: 'STRENGTHEN', strength: 0.5 })).toMatchObject({
      origin: 'MECHANICAL',
      strength: expect.closeTo(0.65),
    });
    expect(await associate({ a, b, type: 'EMOTIONAL' })).toMatchObject({
      origin: 'SEMANTIC',
      strength: expect.closeTo(0.65),
    }); // keeps the stronger
    expect(await linksOf(a)).toHaveLength(1);
  });
});

describe('refused associations write nothing', () => {
  it('refuses a self-link', async () => {
    const [a] = (await memories(1)) as [string];
    await expectRefused(ASSOCIATE, { input: { a, b: a, type: 'CAUSAL' } }, 'SYNAPSE.SELF_LINK');
  });

  it('refuses a link across stores', async () => {
    const [a] = (await memories(1)) as [string];
    const [x] = (await memories(1, other)) as [string];
    await expectRefused(ASSOCIATE, { input: { a, b: x, type: 'CAUSAL' } }, 'SYNAPSE.CROSS_STORE');
  });

  it('refuses unknown ids', async () => {
    const [a] = (await memories(1)) as [string];
    await expectRefused(ASSOCIATE, { input: { a, b: 'no-such-memory', type: 'CAUSAL' } }, 'SYNAPSE.MEMORY_NOT_FOUND');
    await expectRefused(ASSOCIATE, { input: { a: 'nope-1', b: 'nope-2', type: 'CAUSAL' } }, 'NOT_FOUND');
  });

  it.each([0, -0.5, 1.5])('refuses strength %s', async (strength) => {
    const [a, b] = (await memories(2)) as [string, string];
    await expectRefused(ASSOCIATE, { input: { a, b, type: 'CAUSAL', strength } }, 'SYNAPSE.INVALID_STRENGTH');
    await associate({ a, b, type: 'CAUSAL' });
    await expectRefused(
      ASSOCIATE,
      { input: { a, b, type: 'CAUSAL', direction: 'STRENGTHEN', strength } },
      'SYNAPSE.INVALID_STRENGTH',
    );
  });

  it('refuses to strengthen or weaken a link that does not exist', async () => {
    const [a, b] = (await memories(2)) as [string, string];
    await expectRefused(
      ASSOCIATE,
      { input: { a, b, type: 'PERSON', direction: 'STRENGTHEN' } },
      'SYNAPSE.ASSOCIATION_NOT_FOUND',
    );
    await expectRefused(
      ASSOCIATE,
      { input: { a, b, type: 'PERSON', direction: 'WEAKEN' } },
      'SYNAPSE.ASSOCIATION_NOT_FOUND',
    );
  });

  it('refuses a neighbourhood depth outside 1..3 and an unknown start', async () => {
    const [a] = (await memories(1)) as [string];
    await expectRefused(NEIGHBOURHOOD, { id: a, depth: 0 }, 'SYNAPSE.INVALID_DEPTH');
    await expectRefused(NEIGHBOURHOOD, { id: a, depth: 4 }, 'SYNAPSE.INVALID_DEPTH');
    await expectRefused(NEIGHBOURHOOD, { id: 'no-such-memory' }, 'SYNAPSE.MEMORY_NOT_FOUND');
  });
});

describe('neighbourhood', () => {
  it('walks a chain one level per depth, each link once, seen from the nearer end', async () => {
    const [a, b, c, d] = (await memories(4)) as [string, string, string, string];
    await associate({ a, b, type: 'CAUSAL', strength: 0.9 });
    await associate({ a: c, b, type: 'THEMATIC', strength: 0.5 });
    await associate({ a: c, b: d, type: 'PERSON', strength: 0.4 });
    const at = async (depth: number, types?: string[]) =>
      (await t.ok<{ neighbourhood: Assoc[] }>(NEIGHBOURHOOD, { id: a, depth, types })).neighbourhood.map((x) => [
        x.seenFrom,
        x.other.id,
        x.type,
        x.hop,
      ]);
    expect(await at(1)).toEqual([[a, b, 'CAUSAL', 1]]);
    expect(await at(2)).toEqual([
      [a, b, 'CAUSAL', 1],
      [b, c, 'THEMATIC', 2],
    ]);
    expect(await at(3)).toEqual([
      [a, b, 'CAUSAL', 1],
      [b, c, 'THEMATIC', 2],
      [c, d, 'PERSON', 3],
    ]);
    expect(await at(3, ['CAUSAL', 'PERSON'])).toEqual([[a, b, 'CAUSAL', 1]]);
    const fromD = (await t.ok<{ neighbourhood: Assoc[] }>(NEIGHBOURHOOD, { id: d, depth: 3 })).neighbourhood.map(
      (x) => [x.seenFrom, x.other.id],
    );
    expect(fromD).toEqual([
      [d, c],
      [c, b],
      [b, a],
    ]);
  });
});

describe('spreading activation', () => {
  it('orders a small hand-built graph by type weight × strength, fan and hops', async () => {
    // S is the seed. A: a strong cause. B: a shared mood, as strong. H: a topic hub with
    // eight more links. C: behind A. X: behind the hub. Z: three hops away.
    const ids = await memories(15);
    const [S, A, B, H, C, X, Z] = ids as [string, string, string, string, string, string, string];
    const hubLinks = ids.slice(7);
    await associate({ a: S, b: A, type: 'CAUSAL', strength: 0.9 });
    await associate({ a: S, b: B, type: 'EMOTIONAL', strength: 0.9 });
    await associate({ a: S, b: H, type: 'THEMATIC', strength: 0.9 });
    await associate({ a: A, b: C, type: 'THEMATIC', strength: 0.9 });
    await associate({ a: H, b: X, type: 'THEMATIC', strength: 0.9 });
    for (const id of hubLinks) await associate({ a: H, b: id, type: 'PERSON', strength: 0.2 });
    await associate({ a: C, b: Z, type: 'CAUSAL', strength: 0.9 });

    const result = await t.app.synapse.activate(store, [{ id: S, weight: 1 }]);
    const rank = (id: string) => result.findIndex((r) => r.id === id);
    const level = (id: string) => result.find((r) => r.id === id)?.activation ?? 0;
    expect(rank(A)).toBe(0);
    expect(level(A)).toBeCloseTo((TYPE_WEIGHTS.CAUSAL * 0.9) / Math.sqrt(3));
    expect(rank(A)).toBeLessThan(rank(H));
    expect(rank(H)).toBeLessThan(rank(B)); // same strength, THEMATIC weighs more than EMOTIONAL
    expect(level(C)).toBeGreaterThan(level(X)); // the hub passes on less
    expect(result.find((r) => r.id === C)?.path).toEqual(['CAUSAL', 'THEMATIC']);
    expect(rank(Z)).toBe(-1); // beyond two hops
    expect(result.map((r) => r.id)).not.toContain(S);
    expect((await t.app.synapse.activate(store, [{ id: S, weight: 1 }], { maxHops: 3 })).map((r) => r.id)).toContain(Z);
    // seeds outside the store are ignored
    expect(await t.app.synapse.activate(other, [{ id: S, weight: 1 }])).toEqual([]);
  });
});
