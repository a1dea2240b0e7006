import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORY_FIELDS, randomStore, startTestApp, type TestApp } from '../helpers.js';
import { Bus, message } from '../../src/domain/index.js';
import { Hippocampus } from '../../src/contexts/hippocampus/index.js';
import { Neo4jGraph, type GraphPort } from '../../src/adapters/neo4j/index.js';

let t: TestApp;
const store = randomStore('hippo');
const other = randomStore('hippo-other');

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.dropStore(store);
  await t.dropStore(other);
  await t.stop();
});

const STORE = `mutation ($input: StoreInput!) { store(input: $input) { ${MEMORY_FIELDS} } }`;
const STORE_MANY = `mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id content } }`;

async function remember(content: string, extra: Record<string, unknown> = {}): Promise<string> {
  const { store: m } = await t.ok<{ store: { id: string } }>(STORE, { input: { store, content, ...extra } });
  return m.id;
}

async function eventsOf(id: string): Promise<{ type: string; payload: any }[]> {
  const { memory } = await t.ok<{ memory: { history: { type: string; payload: any }[] } | null }>(
    'query ($id: ID!) { memory(id: $id) { history { type payload } } }',
    { id },
  );
  return memory?.history ?? [];
}

/** Expects a typed error whose code ends as given, and that the store's node count did not move. */
async function expectRefused(query: string, variables: Record<string, unknown>, codeEnd: string, inStore = store) {
  await t.app.bus.idle(); // reactions to earlier calls (salience, links) may still be writing
  const before = await t.countNodes(inStore);
  const res = await t.gql(query, variables);
  expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toMatch(new RegExp(`${codeEnd}$`));
  expect(await t.countNodes(inStore)).toBe(before);
}

describe('idempotent stores', () => {
  it('makes a retried store with a client id a no-op', async () => {
    const id = `client-${store}-1`;
    const input = { id, store, content: 'retry me' };
    const first = await t.ok<{ store: { id: string; createdAt: string } }>(STORE, { input });
    const second = await t.ok<{ store: { id: string; createdAt: string } }>(STORE, { input });
    const { salience: _a, ...firstRest } = first.store as Record<string, unknown>;
    const { salience: _b, ...secondRest } = second.store as Record<string, unknown>;
    expect(secondRest).toEqual(firstRest);
    const rows = await t.cypher<{ n: number; e: number }>(
      'MATCH (m:Memory {id: $id}) OPTIONAL MATCH (e:Event {type: "MemoryStored", memoryId: $id}) RETURN count(DISTINCT m) AS n, count(e) AS e',
      { id },
    );
    expect(rows[0]).toEqual({ n: 1, e: 1 });
  });

  it('makes a retried storeMany with client ids a no-op: the same answer, one memory and one event each', async () => {
    const inputs = [1, 2, 3].map((n) => ({
      id: `client-${store}-batch-${n}`,
      store,
      content: `batch retry ${n}`,
      tags: ['retry'],
    }));
    const ids = inputs.map((i) => i.id);
    const FIELDS = 'id store content tags createdAt tier claimed';
    const many = `mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { ${FIELDS} } }`;
    const first = await t.ok<{ storeMany: unknown[] }>(many, { inputs });
    await t.app.bus.idle();
    const nodesAfterFirst = await t.countNodes(store);
    const second = await t.ok<{ storeMany: unknown[] }>(many, { inputs });
    await t.app.bus.idle();
    expect(second.storeMany).toEqual(first.storeMany);
    expect(await t.countNodes(store)).toBe(nodesAfterFirst);
    const rows = await t.cypher<{ id: string; memories: number; stored: number }>(
      `UNWIND $ids AS id
       OPTIONAL MATCH (m:Memory {id: id})
       WITH id, count(m) AS memories
       OPTIONAL MATCH (e:Event {type: "MemoryStored", memoryId: id})
       RETURN id, memories, count(e) AS stored ORDER BY id`,
      { ids },
    );
    expect(rows).toEqual(ids.map((id) => ({ id, memories: 1, stored: 1 })));
  });

  it('refuses a client id already taken by a different memory, writing nothing', async () => {
    const id = `client-${store}-2`;
    await t.ok(STORE, { input: { id, store, content: 'original' } });
    await expectRefused(
      STORE_MANY,
      {
        inputs: [
          { store, content: 'fresh' },
          { id, store, content: 'different' },
        ],
      },
      'HIPPOCAMPUS.ID_CONFLICT',
    );
    // One memory alone takes the single-statement path: refused the same way.
    await expectRefused(STORE, { input: { id, store, content: 'different' } }, 'HIPPOCAMPUS.ID_CONFLICT');
    const rows = await t.cypher<{ content: string; e: number }>(
      'MATCH (m:Memory {id: $id}) OPTIONAL MATCH (e:Event {memoryId: $id}) RETURN m.content AS content, count(e) AS e',
      { id },
    );
    expect(rows).toEqual([{ content: 'original', e: 1 }]);
  });

  it('never applies a replayed transaction function twice', async () => {
    // The driver may re-run a transaction function whose commit it could not confirm:
    // this port commits every transaction function twice, on the real database.
    const real = new Neo4jGraph(t.app.driver, t.config.neo4j.database);
    const replaying: GraphPort = {
      read: (s, p) => real.read(s, p),
      write: (s, p) => replaying.transaction((tx) => tx.run(s, p)),
      readTransaction: (w) => real.readTransaction(w),
      async transaction(work) {
        await real.transaction(work);
        return real.transaction(work);
      },
    };
    const hippocampus = new Hippocampus({ graph: replaying, bus: new Bus(), limits: t.config });
    const [stored] = await hippocampus.store(
      message('StoreCommand', { memories: [{ store, content: 'replayed' }] }, 'cortex'),
    );
    const id = stored!.memory.id;
    await hippocampus.claim(message('ClaimCommand', { id }, 'cortex'));
    await hippocampus.access(id, message('ClaimCommand', { id }, 'cortex').meta);
    const rows = await t.cypher<{ claimCount: number; accessCount: number; events: string[] }>(
      'MATCH (m:Memory {id: $id}) MATCH (e:Event {memoryId: $id}) RETURN m.claimCount AS claimCount, m.accessCount AS accessCount, collect(e.type) AS events',
      { id },
    );
    expect(rows[0]?.claimCount).toBe(1);
    expect(rows[0]?.accessCount).toBe(1);
    expect([...(rows[0]?.events ?? [])].sort()).toEqual(['MemoryAccessed', 'MemoryClaimed', 'MemoryStored']);
    await hippocampus.forget(message('ForgetCommand', { id, confirmId: id, reason: 'replay test' }, 'cortex'));
    const tombstones = await t.cypher<{ n: number }>(
      'MATCH (e:Event {memoryId: $id, type: "MemoryForgotten"}) RETURN count(e) AS n',
      { id },
    );
    expect(tombstones[0]?.n).toBe(1);
  });
});

describe('group commit of concurrent single stores', () => {
  /** A Hippocampus whose port records the memories of each store-memories statement it runs. */
  function recordingHippocampus(maxInFlight = 1) {
    const real = new Neo4jGraph(t.app.driver, t.config.neo4j.database);
    const statements: string[][] = [];
    let failNext: string | null = null;
    const recording: GraphPort = {
      read: (s, p) => real.read(s, p),
      async write(s, p) {
        const ids = ((p?.memories ?? []) as { id: string }[]).map((m) => m.id);
        if (s.file.endsWith('store-memories.cypher')) statements.push(ids);
        if (failNext && ids.length > 1 && ids.includes(failNext))
          throw new Error(`refused a group holding ${failNext}`);
        return real.write(s, p);
      },
      readTransaction: (w) => real.readTransaction(w),
      transaction: (w) => real.transaction(w),
    };
    const hippocampus = new Hippocampus({
      graph: recording,
      bus: new Bus(),
      limits: t.config,
      groupCommit: { maxBatch: 64, maxInFlight },
    });
    const storeOne = (memory: { id?: string; content: string }) =>
      hippocampus.store(message('StoreCommand', { memories: [{ store, ...memory }] }, 'cortex')).then(([s]) => s!);
    return { statements, storeOne, failGroupsHolding: (id: string) => (failNext = id) };
  }

  it('commits stores that arrive together in fewer statements, each stored once with its own command and event', async () => {
    const { statements, storeOne } = recordingHippocampus();
    const ids = Array.from({ length: 30 }, (_, i) => `group-${store}-${i}`);
    const stored = await Promise.all(ids.map((id, i) => storeOne({ id, content: `grouped memory ${i}` })));
    expect(stored.map((s) => [s.memory.id, s.memory.content, s.created])).toEqual(
      ids.map((id, i) => [id, `grouped memory ${i}`, true]),
    );
    // The first went alone; the rest gathered while it committed.
    expect(statements.flat().sort()).toEqual([...ids].sort());
    expect(statements[0]).toEqual([ids[0]]);
    expect(statements.length).toBeLessThan(ids.length / 2);
    const rows = await t.cypher<{ id: string; by: string; events: number; cause: string[] }>(
      `MATCH (m:Memory) WHERE m.id IN $ids OPTIONAL MATCH (e:Event {type: 'MemoryStored'})-[:ABOUT]->(m)
       RETURN m.id AS id, m.storedBy AS by, count(e) AS events, collect(e.causationId) AS cause ORDER BY id`,
      { ids },
    );
    expect(rows).toHaveLength(30);
    for (const row of rows) {
      expect(row.events).toBe(1);
      expect(row.cause).toEqual([row.by]);
    }
    // Thirty calls, thirty commands: no memory took another's.
    expect(new Set(rows.map((r) => r.by)).size).toBe(30);
  });

  it('fails only the store whose id is taken by a different memory, and a same-memory retry in the group is a no-op', async () => {
    const { statements, storeOne } = recordingHippocampus();
    const taken = `group-taken-${store}`;
    await storeOne({ id: taken, content: 'the original' });
    statements.length = 0;
    const first = storeOne({ content: 'goes alone' });
    const group = [
      storeOne({ content: 'fine one' }),
      storeOne({ id: taken, content: 'a different memory' }),
      storeOne({ id: taken, content: 'the original' }),
      storeOne({ content: 'fine two' }),
    ];
    const outcomes = await Promise.allSettled([first, ...group]);
    expect(statements.length).toBe(2);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'HIPPOCAMPUS.ID_CONFLICT' });
    expect((outcomes[3] as PromiseFulfilledResult<{ created: boolean }>).value.created).toBe(false);
    const rows = await t.cypher<{ content: string }>('MATCH (m:Memory {id: $id}) RETURN m.content AS content', {
      id: taken,
    });
    expect(rows).toEqual([{ content: 'the original' }]);
  });

  it('stores each alone again when a group statement fails, so one write cannot fail the others', async () => {
    const { statements, storeOne, failGroupsHolding } = recordingHippocampus();
    const ids = Array.from({ length: 6 }, (_, i) => `group-retry-${store}-${i}`);
    failGroupsHolding(ids[3]!);
    const stored = await Promise.all(ids.map((id, i) => storeOne({ id, content: `retried alone ${i}` })));
    expect(stored.every((s) => s.created)).toBe(true);
    // The group failed, then its members went one by one.
    expect(statements.some((ids) => ids.length > 1)).toBe(true);
    expect(
      statements
        .filter((group) => group.length === 1)
        .flat()
        .sort(),
    ).toEqual([...ids].sort());
    const rows = await t.cypher<{ n: number; e: number }>(
      `MATCH (m:Memory) WHERE m.id IN $ids OPTIONAL MATCH (e:Event {type: 'MemoryStored'})-[:ABOUT]->(m) RETURN count(DISTINCT m) AS n, count(e) AS e`,
      { ids },
    );
    expect(rows).toEqual([{ n: 6, e: 6 }]);
  });
});

describe('storeMany', () => {
  it('stores a batch in one call, in order', async () => {
    const inputs = Array.from({ length: 5 }, (_, i) => ({ store, content: `batch item ${i}` }));
    const { storeMany } = await t.ok<{ storeMany: { content: string }[] }>(STORE_MANY, { inputs });
    expect(storeMany.map((m) => m.content)).toEqual(inputs.map((i) => i.content));
  });

  it('writes nothing when one memory of the batch is bad', async () => {
    await expectRefused(
      STORE_MANY,
      {
        inputs: [
          { store, content: 'fine' },
          { store, content: '' },
        ],
      },
      'HIPPOCAMPUS.CONTENT_EMPTY',
    );
  });

  it('refuses a batch over the configured maximum', async () => {
    const inputs = Array.from({ length: t.config.maxBatch + 1 }, (_, i) => ({ store, content: `too many ${i}` }));
    await expectRefused(STORE_MANY, { inputs }, 'HIPPOCAMPUS.BATCH_TOO_LARGE');
  });
});

describe('claims (invariant 3)', () => {
  it('persists the claim before MemoryClaimed is published', async () => {
    // A Hippocampus on a port that logs when each write has committed, and a bus
    // that logs each publish: the claim's commit must come first in the log.
    const real = new Neo4jGraph(t.app.driver, t.config.neo4j.database);
    const log: string[] = [];
    const committed = async <T>(name: string, work: Promise<T>) => {
      const result = await work;
      log.push(`commit ${name}`);
      return result;
    };
    const recording: GraphPort = {
      read: (s, p) => real.read(s, p),
      write: (s, p) => committed(s.file, real.write(s, p)),
      readTransaction: (w) => real.readTransaction(w),
      transaction: (w) => committed('transaction', real.transaction(w)),
    };
    const bus = new Bus();
    bus.tap((m) => void log.push(`publish ${m.type}`));
    const hippocampus = new Hippocampus({ graph: recording, bus, limits: t.config });
    const [stored] = await hippocampus.store(
      message('StoreCommand', { memories: [{ store, content: 'this matters to me' }] }, 'cortex'),
    );
    const id = stored!.memory.id;
    log.length = 0;
    const claimed = await hippocampus.claim(message('ClaimCommand', { id }, 'cortex'));
    expect(claimed.claimed).toBe(true);
    expect(log).toEqual([expect.stringMatching(/^commit .*claim-memory/), 'publish MemoryClaimed']);
    const rows = await t.cypher<{ c: boolean }>('MATCH (m:Memory {id: $id}) RETURN m.claimed AS c', { id });
    expect(rows).toEqual([{ c: true }]);
    expect((await eventsOf(id)).map((e) => e.type)).toContain('MemoryClaimed');
  });

  it('answers an unknown id with NOT_FOUND', async () => {
    await expectRefused('mutation { claim(id: "nope") { id } }', {}, 'NOT_FOUND');
  });
});

describe('reclassify (invariant 2)', () => {
  const RECLASSIFY =
    'mutation ($id: ID!, $tier: Tier!, $reason: String!) { reclassify(id: $id, tier: $tier, reason: $reason) { tier } }';

  it('moves a memory by the mind, into IDENTITY_CORE too, keeping the reason in the history', async () => {
    const id = await remember('I keep my promises');
    const { reclassify } = await t.ok<{ reclassify: { tier: string } }>(RECLASSIFY, {
      id,
      tier: 'IDENTITY_CORE',
      reason: 'this is who I am',
    });
    expect(reclassify.tier).toBe('IDENTITY_CORE');
    const history = await eventsOf(id);
    // A read's own access is recorded once its request has succeeded: the next read lists it.
    expect(history.map((e) => e.type)).toEqual(['MemoryStored', 'MemoryReclassified', 'TierChanged']);
    expect((await eventsOf(id)).map((e) => e.type)).toEqual([
      'MemoryStored',
      'MemoryReclassified',
      'TierChanged',
      'MemoryAccessed',
    ]);
    expect(history[1]?.payload).toMatchObject({
      from: 'LONG_TERM',
      to: 'IDENTITY_CORE',
      reason: 'this is who I am',
      by: 'MIND',
    });
  });

  it('refuses an empty reason and an unknown id, changing nothing', async () => {
    const id = await remember('stays put');
    await expectRefused(RECLASSIFY, { id, tier: 'ARCHIVE', reason: '   ' }, 'HIPPOCAMPUS.REASON_REQUIRED');
    await expectRefused(RECLASSIFY, { id: 'nope', tier: 'ARCHIVE', reason: 'why not' }, 'NOT_FOUND');
    const rows = await t.cypher<{ tier: string }>('MATCH (m:Memory {id: $id}) RETURN m.tier AS tier', { id });
    expect(rows[0]?.tier).toBe('LONG_TERM');
  });

  it('refuses salience moves into or out of IDENTITY_CORE and records the ones it allows', async () => {
    const core = await remember('core value', { tier: 'IDENTITY_CORE' });
    const ask = (type: 'DemoteTier' | 'PromoteTier', id: string, from: string, to: string) =>
      t.app.bus.ask(
        message(
          'TierChangeBatch',
          {
            changes: [
              type === 'DemoteTier'
                ? message(
                    'DemoteTier',
                    { id, from: from as never, to: to as never, salience: 0.01, reason: 'faded' },
                    'salience',
                  )
                : message('PromoteTier', { id, from: from as never, to: to as never, salience: 0.99 }, 'salience'),
            ],
          },
          'salience',
        ),
      );
    await expect(ask('DemoteTier', core, 'IDENTITY_CORE', 'ACTIVE_CONTEXT')).rejects.toThrow(/IDENTITY_CORE/);
    const plain = await remember('ordinary day');
    await expect(ask('PromoteTier', plain, 'ACTIVE_CONTEXT', 'IDENTITY_CORE')).rejects.toThrow(/IDENTITY_CORE/);
    await ask('DemoteTier', plain, 'LONG_TERM', 'ARCHIVE');
    const rows = await t.cypher<{ tiers: string[] }>(
      'MATCH (m:Memory) WHERE m.id IN [$a, $b] RETURN collect(m.tier) AS tiers',
      { a: core, b: plain },
    );
    expect([...(rows[0]?.tiers ?? [])].sort()).toEqual(['ARCHIVE', 'IDENTITY_CORE']);
    const changed = (await eventsOf(plain)).find((e) => e.type === 'TierChanged');
    expect(changed?.payload).toMatchObject({ from: 'LONG_TERM', to: 'ARCHIVE', reason: 'faded', by: 'SALIENCE' });
  });
});

describe('consolidate (invariant 6)', () => {
  const CONSOLIDATE = `mutation ($ids: [ID!]!, $strategy: MergeStrategy!, $content: String) {
    consolidate(ids: $ids, strategy: $strategy, content: $content) { id content tags consolidatedFrom { id content } }
  }`;

  it('creates a new memory linked to its originals and keeps them', async () => {
    const a = await remember('Met Ana at the cafe', { tags: ['ana'], occurredAt: '2026-01-01T10:00:00Z' });
    const b = await remember('Ana told me about Lisbon', { tags: ['lisbon'], occurredAt: '2026-01-02T10:00:00Z' });
    const { consolidate } = await t.ok<{ consolidate: any }>(CONSOLIDATE, { ids: [b, a], strategy: 'COMBINE' });
    expect(consolidate.content).toBe('Met Ana at the cafe\n\nAna told me about Lisbon');
    expect(consolidate.tags).toEqual(['ana', 'lisbon']);
    expect(consolidate.consolidatedFrom.map((m: { id: string }) => m.id)).toEqual([a, b]);
    const originals = await t.cypher<{ n: number }>('MATCH (m:Memory) WHERE m.id IN [$a, $b] RETURN count(m) AS n', {
      a,
      b,
    });
    expect(originals[0]?.n).toBe(2);
    expect((await eventsOf(a)).map((e) => e.type)).toContain('MemoryConsolidated');
  });

  it('takes the caller text for SUMMARIZE', async () => {
    const a = await remember('one');
    const b = await remember('two');
    const { consolidate } = await t.ok<{ consolidate: any }>(CONSOLIDATE, {
      ids: [a, b],
      strategy: 'SUMMARIZE',
      content: 'one and two',
    });
    expect(consolidate.content).toBe('one and two');
  });

  it('refuses fewer than two, unknown ids and ids from two stores, writing nothing', async () => {
    const a = await remember('alone');
    await expectRefused(CONSOLIDATE, { ids: [a], strategy: 'COMBINE' }, 'HIPPOCAMPUS.CONSOLIDATE_TOO_FEW');
    await expectRefused(CONSOLIDATE, { ids: [a, a], strategy: 'COMBINE' }, 'HIPPOCAMPUS.CONSOLIDATE_TOO_FEW');
    await expectRefused(CONSOLIDATE, { ids: [a, 'missing'], strategy: 'COMBINE' }, 'NOT_FOUND');
    const { store: elsewhere } = await t.ok<{ store: { id: string } }>(STORE, {
      input: { store: other, content: 'other store' },
    });
    await expectRefused(CONSOLIDATE, { ids: [a, elsewhere.id], strategy: 'COMBINE' }, 'HIPPOCAMPUS.CROSS_STORE');
    await expectRefused(CONSOLIDATE, { ids: [a, elsewhere.id], strategy: 'COMBINE' }, 'HIPPOCAMPUS.CROSS_STORE', other);
    const b = await remember('second');
    await expectRefused(CONSOLIDATE, { ids: [a, b], strategy: 'SUMMARIZE' }, 'HIPPOCAMPUS.SUMMARY_REQUIRED');
  });
});

describe('forget (invariant 6)', () => {
  const FORGET = 'mutation ($input: ForgetInput!) { forget(input: $input) { id forgotten } }';

  it('needs confirmId to repeat the id and an explicit reason', async () => {
    const id = await remember('keep me unless I say so');
    await expectRefused(
      FORGET,
      { input: { id, confirmId: 'something-else', reason: 'oops' } },
      'HIPPOCAMPUS.FORGET_NOT_CONFIRMED',
    );
    await expectRefused(FORGET, { input: { id, confirmId: id, reason: '' } }, 'HIPPOCAMPUS.REASON_REQUIRED');
    await expectRefused(FORGET, { input: { id: 'nope', confirmId: 'nope', reason: 'gone' } }, 'NOT_FOUND');
  });

  it('removes the content everywhere and leaves a tombstone in the trail', async () => {
    const secret = `a secret ${store}`;
    const id = await remember(secret, { tags: ['private-tag'] });
    await t.ok('mutation ($id: ID!) { claim(id: $id) { id } }', { id });
    const { forget } = await t.ok<{ forget: { forgotten: boolean } }>(FORGET, {
      input: { id, confirmId: id, reason: 'I choose to let this go' },
    });
    expect(forget.forgotten).toBe(true);
    expect((await t.ok<{ memory: null }>('query ($id: ID!) { memory(id: $id) { id } }', { id })).memory).toBeNull();
    const leaks = await t.cypher<{ n: number }>(
      `MATCH (n) WHERE n.store = $store
         AND any(k IN keys(n) WHERE toStringOrNull(n[k]) CONTAINS $secret OR toStringOrNull(n[k]) CONTAINS 'private-tag'
           OR (n[k] IS :: LIST<STRING> AND 'private-tag' IN n[k]))
       RETURN count(n) AS n`,
      { secret, store },
    );
    expect(leaks[0]?.n).toBe(0);
    const { events } = await t.ok<{ events: { type: string; memoryId: string; payload: any }[] }>(
      'query ($store: String) { events(store: $store, limit: 1000) { type memoryId payload } }',
      { store },
    );
    const mine = events.filter((e) => e.memoryId === id);
    expect(mine.map((e) => e.type)).toEqual(['MemoryStored', 'MemoryClaimed', 'MemoryForgotten']);
    expect(mine[2]?.payload).toEqual({ reason: 'I choose to let this go' });
    await expectRefused(FORGET, { input: { id, confirmId: id, reason: 'again' } }, 'NOT_FOUND');
  });
});

describe('audit trail (invariant 7)', () => {
  it('pages a store’s events in time order with after and limit, never showing another store', async () => {
    const s = randomStore('trail');
    try {
      for (let i = 0; i < 5; i++) await t.ok(STORE, { input: { store: s, content: `event ${i}` } });
      await t.ok(STORE, { input: { store: other, content: 'not mine' } });
      const page = (after: string | null) =>
        t.ok<{ events: { id: string; type: string }[] }>(
          'query ($s: String, $a: ID) { events(store: $s, after: $a, limit: 2) { id type } }',
          { s, a: after },
        );
      const first = (await page(null)).events;
      const second = (await page(first[1]!.id)).events;
      const third = (await page(second[1]!.id)).events;
      const ids = [...first, ...second, ...third].map((e) => e.id);
      expect(ids).toHaveLength(5);
      expect([...ids].sort()).toEqual(ids);
      expect(new Set(ids).size).toBe(5);
      const bad = await t.gql('query ($s: String) { events(store: $s, limit: 0) { id } }', { s });
      expect(bad.errors?.[0]?.extensions?.code).toBe('HIPPOCAMPUS.INVALID_LIMIT');
    } finally {
      await t.dropStore(s);
    }
  });

  it('records exactly one event per change, in the same transaction', async () => {
    const id = await remember('counted');
    await t.ok('mutation ($id: ID!) { claim(id: $id) { id } }', { id });
    await t.ok('mutation ($id: ID!) { reclassify(id: $id, tier: ARCHIVE, reason: "old news") { id } }', { id });
    const rows = await t.cypher<{ types: string[] }>(
      'MATCH (e:Event {memoryId: $id}) WITH e ORDER BY e.id RETURN collect(e.type) AS types',
      { id },
    );
    expect(rows[0]?.types).toEqual(['MemoryStored', 'MemoryClaimed', 'MemoryReclassified', 'TierChanged']);
  });
});
