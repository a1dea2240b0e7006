import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORY_FIELDS, randomStore, startTestApp, type TestApp } from '../helpers.js';
import { Bus, message } from '../../src/domain/index.js';
import { Hippocampus } from '../../src/contexts/hippocampus/index.js';
import type { GraphPort } from '../../src/domain/index.js';
import { Neo4jGraph } from '../../src/adapters/neo4j/index.js';

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
      'MATCH (m:Memory {id: $id}) OPTIONAL MATCH (e:Event {type: "MemoryStored", memoryId: $id}) RETURN ' +
        'count(DISTINCT m) AS n, count(e) AS e',
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
      'MATCH (m:Memory {id: $id}) MATCH (e:Event {memoryId: $id}) RETURN m.claimCount AS claimCount, m.accessCount ' +
        'AS accessCount, collect(e.type) AS events',
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

  it('never lets a replayed forget delete a memory stored again under the same id', async () => {
    // The forget commits, its answer is lost; before the driver replays it, a client stores anew under that id.
    const id = `client-${store}-forget-replay`;
    const real = new Neo4jGraph(t.app.driver, t.config.neo4j.database);
    let betweenAttempts: (() => Promise<unknown>) | null = null;
    const replaying: GraphPort = {
      read: (s, p) => real.read(s, p),
      write: (s, p) => real.write(s, p),
      readTransaction: (w) => real.readTransaction(w),
      async transaction(work) {
        await real.transaction(work);
        await betweenAttempts?.();
        return real.transaction(work);
      },
    };
    const hippocampus = new Hippocampus({ graph: replaying, bus: new Bus(), limits: t.config });
    await t.ok(STORE, { input: { id, store, content: 'the first, forgotten with consent' } });
    // Stored again by another store: the store that forgot the id refuses it (store-after-forget.test.ts).
    betweenAttempts = () => t.ok(STORE, { input: { id, store: other, content: 'the second, never forgotten' } });
    const done = await hippocampus.forget(
      message('ForgetCommand', { id, confirmId: id, reason: 'replay test' }, 'cortex'),
    );
    expect(done).toEqual({ id, forgotten: true, consolidatedInto: [] });
    const rows = await t.cypher<{ content: string; store: string; payload: string }>(
      'MATCH (m:Memory {id: $id}) MATCH (e:Event {type: "MemoryStored"})-[:ABOUT]->(m) ' +
        'RETURN m.content AS content, m.store AS store, e.payload AS payload',
      { id },
    );
    expect(rows.map((r) => [r.content, r.store])).toEqual([['the second, never forgotten', other]]);
    expect(rows[0]?.payload).not.toBe('{"redacted":true}');
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

  it(
    'commits stores that arrive together in fewer statements, each stored once with its ' + 'own command and event',
    async () => {
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
    },
  );

  it(
    'fails only the store whose id is taken by a different memory, and a same-memory retry in ' +
      'the group is a no-op',
    async () => {
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
    },
  );

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
      `MATCH (m:Memory) WHERE m.id IN $ids OPTIONAL MATCH (e:Event {type: 'MemoryStored'})-[:ABOUT]->(m) RETURN ` +
        `count(DISTINCT m) AS n, count(e) AS e`,
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

  describe('one id twice, or an id taken already', () => {
    const own = randomStore('hippo-batch-ids');
    afterAll(() => t.dropStore(own));
    const MANY = 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id content tags } }';

    it('answers an exact repeat with the same memory, so the answer lines up with the inputs', async () => {
      const id = `client-${own}-repeat`;
      const inputs = [
        { id, store: own, content: 'said twice', tags: ['t'] },
        { store: own, content: 'in between' },
        { id, store: own, content: 'said twice', tags: ['t'] },
      ];
      const { storeMany } = await t.ok<{ storeMany: { id: string; content: string }[] }>(MANY, { inputs });
      expect(storeMany.map((m) => m.content)).toEqual(['said twice', 'in between', 'said twice']);
      expect(storeMany[2]?.id).toBe(id);
      const rows = await t.cypher<{ n: number }>('MATCH (m:Memory {id: $id}) RETURN count(m) AS n', { id });
      expect(rows).toEqual([{ n: 1 }]);
    });

    it('refuses one id for two inputs that differ only in their labels, naming both indexes', async () => {
      const id = `client-${own}-differ`;
      const inputs = [
        { store: own, content: 'first' },
        { id, store: own, content: 'same text', tags: ['one'] },
        { id, store: own, content: 'same text', tags: ['two'] },
      ];
      await expectRefused(MANY, { inputs }, 'HIPPOCAMPUS.ID_CONFLICT', own);
      const res = await t.gql(MANY, { inputs });
      expect(res.errors?.[0]?.extensions?.details).toMatchObject({ id, index: 2, firstIndex: 1 });
    });

    it('names the index of the input whose id another memory has taken', async () => {
      const id = `client-${own}-taken`;
      await t.ok(STORE, { input: { id, store: own, content: 'original' } });
      const inputs = [
        { store: own, content: 'fresh' },
        { store: own, content: 'fresh too' },
        { id, store: own, content: 'different' },
      ];
      await expectRefused(MANY, { inputs }, 'HIPPOCAMPUS.ID_CONFLICT', own);
      const res = await t.gql(MANY, { inputs });
      expect(res.errors?.[0]?.extensions?.details).toMatchObject({ id, index: 2 });
      expect(res.errors?.[0]?.message).toMatch(/memory 2/);
    });
  });
});
