/**
 * An optional argument given as an explicit null means what leaving it out means: its default. GraphQL passes the
 * null through to the resolver, so each optional argument with a default is asked here both ways.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
const store = randomStore('explicit-nulls');
let a = '';
let b = '';

beforeAll(async () => {
  t = await startTestApp();
  const STORE = 'mutation ($i: StoreInput!) { store(input: $i) { id tier } }';
  const nulls = { tier: null, tags: null, people: null, emotions: null, metadata: null, occurredAt: null };
  const first = await t.ok<{ store: { id: string; tier: string } }>(STORE, {
    i: { store, content: 'The hedgehog lives under the compost heap.', ...nulls, sessionId: null, id: null },
  });
  expect(first.store.tier).toBe('LONG_TERM');
  a = first.store.id;
  b = (await t.ok<{ store: { id: string } }>(STORE, { i: { store, content: 'We left water out for the hedgehog.' } }))
    .store.id;
  await t.ok(
    'mutation ($s: String) { startSession(input: {store: $s, instanceId: "nulls", mindType: "test"}) { id } }',
    {
      s: store,
    },
  );
});
afterAll(async () => {
  await t.dropStore(store);
  await t.cypher('MATCH (n:Session|Recall|Use|Reflection) WHERE n.store = $s DETACH DELETE n', { s: store });
  await t.stop();
});

describe('an explicit null', () => {
  const cases: [string, string, () => Record<string, unknown>][] = [
    ['events', 'query ($s: String) { events(store: $s, after: null, limit: null) { id } }', () => ({ s: store })],
    [
      'memory history and associations',
      'query ($id: ID!) { memory(id: $id) { history(limit: null) { id } associations(limit: null) { type } } }',
      () => ({ id: a }),
    ],
    [
      'neighbourhood',
      'query ($id: ID!) { neighbourhood(id: $id, depth: null, types: null, limit: null) { type } }',
      () => ({ id: a }),
    ],
    [
      'sessions and their decisions',
      'query ($s: String) { sessions(store: $s, instanceId: null, limit: null) { id decisions(limit: null) { id } } }',
      () => ({ s: store }),
    ],
    [
      'search',
      'query ($s: String!) { search(input: {store: $s, query: "hedgehog", limit: null, includeAssociations: null, ' +
        'tags: null, people: null, tiers: null, from: null, to: null, minConfidence: null, sessionId: null}) ' +
        '{ hits { confidence } } }',
      () => ({ s: store }),
    ],
    [
      'contextFor',
      'query ($s: String!) { contextFor(input: {store: $s, query: "hedgehog", maxTokens: 400, maxItems: null, ' +
        'injectFloor: null, liveFloor: null, sessionId: null}) { text } }',
      () => ({ s: store }),
    ],
    [
      'reflect',
      'query ($s: String!) { reflect(input: {store: $s, scope: null, limit: null, timeSpanDays: null}) { reason } }',
      () => ({ s: store }),
    ],
    [
      'associate',
      'mutation ($a: ID!, $b: ID!) { associate(input: {a: $a, b: $b, type: CAUSAL, direction: null, strength: null}) ' +
        '{ strength } }',
      () => ({ a, b }),
    ],
    [
      'reclassify',
      'mutation ($id: ID!) { reclassify(id: $id, tier: LONG_TERM, reason: "still", metadata: null) { id } }',
      () => ({ id: a }),
    ],
    [
      'endSession',
      'mutation { endSession(instanceId: "nulls", cause: null, reason: null) { memoriesStored } }',
      () => ({}),
    ],
  ];

  it.each(cases)('reads as the default in %s', async (_name, query, variables) => {
    const res = await t.gql(query, variables());
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  });
});
