import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORY_FIELDS, randomStore, startTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
const store = randomStore('skeleton');

beforeAll(async () => {
  // Apollo adds stack traces to error responses unless NODE_ENV is production
  // or test; start the app as a developer would run it, to see that it adds none.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'development';
  try {
    t = await startTestApp();
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
});
afterAll(async () => {
  await t.dropStore(store);
  await t.stop();
});

const STORE = `mutation ($input: StoreInput!) { store(input: $input) { ${MEMORY_FIELDS} } }`;

describe('walking skeleton', () => {
  it('reports health of both backing services', async () => {
    const { health } = await t.ok<{ health: Record<string, unknown> }>(
      '{ health { neo4j redis version memories accepting } }',
    );
    expect(health).toMatchObject({ neo4j: true, redis: true, version: '0.1.0', accepting: true });
    expect(health.memories).toBeGreaterThanOrEqual(0);
  });

  it('stores a memory and reads it back as a :Memory node', async () => {
    const input = {
      store,
      content: 'We spent two weeks in Lisbon in May.',
      tags: ['travel', 'lisbon'],
      people: ['Ana'],
      emotions: ['joy'],
      metadata: { source: 'test', n: 1 },
      occurredAt: '2026-05-01T12:00:00.000Z',
    };
    const { store: stored } = await t.ok<{ store: Record<string, any> }>(STORE, { input });
    expect(stored).toMatchObject({ ...input, tier: 'LONG_TERM', claimed: false, accessCount: 0, lastAccessedAt: null });
    expect(stored.salience).toBeGreaterThan(0);
    expect(stored.salience).toBeLessThanOrEqual(1);

    const { memory } = await t.ok<{ memory: Record<string, any> }>(
      `query ($id: ID!) { memory(id: $id) { ${MEMORY_FIELDS} } }`,
      { id: stored.id },
    );
    expect(memory).toMatchObject({ id: stored.id, content: input.content, store, accessCount: 1 });
    expect(memory.lastAccessedAt).not.toBeNull();

    const nodes = await t.cypher<{ labels: string[]; content: string }>(
      'MATCH (m:Memory {id: $id}) RETURN labels(m) AS labels, m.content AS content',
      { id: stored.id },
    );
    // A memory also carries its tier as a label (Neo4j Browser styles by label).
    expect(nodes.map((n) => ({ ...n, labels: [...n.labels].sort() }))).toEqual([
      { labels: ['LONG_TERM', 'Memory'], content: input.content },
    ]);
  });

  it('returns null for an unknown id', async () => {
    const res = await t.gql('query { memory(id: "no-such-memory") { id } }');
    expect(res.errors).toBeUndefined();
    expect(res.data?.memory).toBeNull();
  });

  it.each([
    ['empty content', { content: '' }, 'HIPPOCAMPUS.CONTENT_EMPTY'],
    ['blank content', { content: '  \t ' }, 'HIPPOCAMPUS.CONTENT_EMPTY'],
    ['content over 64 KiB', { content: 'x'.repeat(64 * 1024 + 1) }, 'HIPPOCAMPUS.CONTENT_TOO_LARGE'],
    ['a tag with a newline', { content: 'x', tags: ['work\nlife'] }, 'HIPPOCAMPUS.INVALID_LABEL'],
    ['a session id with a NUL', { content: 'x', sessionId: 'ses\u0000' }, 'HIPPOCAMPUS.INVALID_SESSION_ID'],
    ['an emotion with a tab', { content: 'x', emotions: ['calm\tjoy'] }, 'HIPPOCAMPUS.INVALID_LABEL'],
    ['a person with a newline', { content: 'x', people: ['Ana\nBen'] }, 'HIPPOCAMPUS.INVALID_LABEL'],
  ])('rejects %s with a typed error and writes nothing', async (_name, input, expected) => {
    const before = await t.countNodes(store);
    const res = await t.gql(STORE, { input: { store, ...input } });
    expect(res.errors?.[0]?.extensions?.code).toBe(expected);
    expect(res.errors?.[0]?.extensions).not.toHaveProperty('stacktrace');
    expect(res.data).toBeNull();
    expect(await t.countNodes(store)).toBe(before);
  });

  it('rejects an unknown tier with a typed error and writes nothing', async () => {
    const before = await t.countNodes(store);
    const res = await t.gql(STORE, { input: { store, content: 'x', tier: 'FOREVER' } });
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(res.errors?.[0]?.extensions).not.toHaveProperty('stacktrace');
    expect(await t.countNodes(store)).toBe(before);
  });

  it('answers a malformed request body with a typed error', async () => {
    const res = await fetch(t.server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions.code).toBe('BAD_REQUEST');
  });
});
