/**
 * Lists a single request could make unbounded: each has a default, a maximum refused with INVALID_LIMIT, and the
 * limit reaches the Cypher (a limit of 2 against 3 items returns 2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
const store = randomStore('bounds');
const instanceId = `mind-${store.slice(-8)}`;

beforeAll(async () => {
  t = await startTestApp({ log: () => undefined });
});
afterAll(async () => {
  await t.dropStore(store);
  await t.stop();
});

describe('Session.decisions', () => {
  const DECISIONS = 'query ($id: ID!, $limit: Int) { session(id: $id) { decisions(limit: $limit) { text } } }';

  it('returns the newest `limit` decisions in the order made, and refuses a limit over 100', async () => {
    const { startSession } = await t.ok<{ startSession: { id: string } }>(
      'mutation ($input: StartSessionInput!) { startSession(input: $input) { id } }',
      { input: { instanceId, mindType: 'claude', store } },
    );
    for (const text of ['one', 'two', 'three']) {
      await t.ok('mutation ($i: String!, $text: String!) { logDecision(instanceId: $i, text: $text) { id } }', {
        i: instanceId,
        text,
      });
    }
    const read = (limit?: number) =>
      t.ok<{ session: { decisions: { text: string }[] } }>(DECISIONS, { id: startSession.id, limit });
    expect((await read(2)).session.decisions.map((d) => d.text)).toEqual(['two', 'three']);
    expect((await read()).session.decisions.map((d) => d.text)).toEqual(['one', 'two', 'three']);
    const res = await t.gql(DECISIONS, { id: startSession.id, limit: 101 });
    expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toBe('CORTEX.INVALID_LIMIT');
  });
});

describe('Memory.associations', () => {
  const NESTED = (depth: number) => {
    let inner = 'id';
    for (let i = 0; i < depth; i++) inner = `associations(limit: 1000) { other { ${inner} } }`;
    return `query ($id: ID!) { memory(id: $id) { ${inner} } }`;
  };

  it('refuses a request whose nested limits add up to more than 5000 associations', async () => {
    const stored = async (content: string) =>
      (
        await t.ok<{ store: { id: string } }>('mutation ($i: StoreInput!) { store(input: $i) { id } }', {
          i: { store, content },
        })
      ).store.id;
    const [hub, ...spokes] = [await stored('hub'), await stored('b'), await stored('c'), await stored('d')];
    for (const b of spokes) {
      await t.ok('mutation ($i: AssociateInput!) { associate(input: $i) { type } }', {
        i: { a: hub, b, type: 'CAUSAL' },
      });
    }
    // 1000 asked at the hub, then 1000 at each of its 3 neighbours: within the budget.
    const two = await t.ok<{ memory: { associations: { other: { associations: unknown[] } }[] } }>(NESTED(2), {
      id: hub,
    });
    expect(two.memory.associations).toHaveLength(3);
    // One level more asks 1000 at each of the 3 links back to the hub: 7000 in all.
    const res = await t.gql(NESTED(3), { id: hub });
    expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toBe('INVALID_LIMIT');
  });
});

describe('Memory.history', () => {
  const ALIASED = (n: number) => {
    const reads = Array.from({ length: n }, (_, i) => `m${i}: memory(id: $id) { history(limit: 1000) { id } }`);
    return `query ($id: ID!) { ${reads.join(' ')} }`;
  };

  it('refuses a request whose limits add up to more than 10000 events', async () => {
    const { store: memory } = await t.ok<{ store: { id: string } }>(
      'mutation ($i: StoreInput!) { store(input: $i) { id } }',
      { i: { store, content: 'one event' } },
    );
    const ten = await t.ok<Record<string, { history: unknown[] }>>(ALIASED(10), { id: memory.id });
    expect(ten.m9?.history.length).toBeGreaterThan(0);
    const res = await t.gql(ALIASED(11), { id: memory.id });
    expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toBe('INVALID_LIMIT');
  });

  it('reads the default for an explicit null limit, as for none', async () => {
    const { store: memory } = await t.ok<{ store: { id: string } }>(
      'mutation ($i: StoreInput!) { store(input: $i) { id } }',
      { i: { store, content: 'a memory with a history' } },
    );
    const read = await t.ok<{ memory: { history: unknown[]; associations: unknown[] } }>(
      'query ($id: ID!) { memory(id: $id) { history(limit: null) { id } associations(limit: null) { type } } }',
      { id: memory.id },
    );
    expect(read.memory.history.length).toBeGreaterThan(0);
    expect(read.memory.associations).toEqual([]);
  });
});
