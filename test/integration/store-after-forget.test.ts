import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { Bus, message } from '../../src/domain/index.js';
import { Hippocampus } from '../../src/contexts/hippocampus/index.js';

let t: TestApp;
const store = randomStore('forgotten');
const other = randomStore('forgotten-other');

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.dropStore(store);
  await t.dropStore(other);
  await t.stop();
});

const STORE = 'mutation ($input: StoreInput!) { store(input: $input) { id createdAt } }';
const MANY = 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }';
const FORGET = 'mutation ($input: ForgetInput!) { forget(input: $input) { forgotten } }';

/** Stores a memory under a client id and forgets it, as a client would. */
async function storeAndForget(id: string, inStore = store): Promise<void> {
  await t.ok(STORE, { input: { id, store: inStore, content: 'first version' } });
  await t.ok(FORGET, { input: { id, confirmId: id, reason: 'let it go' } });
  await t.app.bus.idle();
}

async function trail(id: string): Promise<{ memories: number; events: string[] }> {
  const rows = await t.cypher<{ memories: number; events: string[] }>(
    'OPTIONAL MATCH (m:Memory {id: $id}) WITH count(m) AS memories ' +
      'OPTIONAL MATCH (e:Event {memoryId: $id}) WITH memories, e ORDER BY e.id ' +
      'RETURN memories, collect(e.type) AS events',
    { id },
  );
  return rows[0]!;
}

describe('a store with the id of a forgotten memory', () => {
  it('refuses a retried store: the memory stays forgotten', async () => {
    const id = `hw-fixed-1-${store}`;
    await storeAndForget(id);
    const before = await t.countNodes(store);
    const res = await t.gql(STORE, { input: { id, store, content: 'first version' } });
    expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res)).toBe('HIPPOCAMPUS.ID_FORGOTTEN');
    expect(res.errors?.[0]?.extensions?.details).toMatchObject({ id });
    expect(await t.countNodes(store)).toBe(before);
    expect(await trail(id)).toEqual({ memories: 0, events: ['MemoryStored', 'MemoryForgotten'] });
  });

  it('refuses a whole storeMany that holds one, naming its index', async () => {
    const id = `hw-fixed-2-${store}`;
    await storeAndForget(id);
    const before = await t.countNodes(store);
    const inputs = [
      { store, content: 'fresh' },
      { id, store, content: 'first version' },
    ];
    const res = await t.gql(MANY, { inputs });
    expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res)).toBe('HIPPOCAMPUS.ID_FORGOTTEN');
    expect(res.errors?.[0]?.extensions?.details).toMatchObject({ id, index: 1 });
    expect(res.errors?.[0]?.message).toMatch(/memory 1/);
    expect(await t.countNodes(store)).toBe(before);
    expect((await trail(id)).memories).toBe(0);
  });

  it('fails only its own call when concurrent single stores are committed together', async () => {
    const id = `hw-fixed-3-${store}`;
    await storeAndForget(id);
    const hippocampus = new Hippocampus({ graph: t.app.graph, bus: new Bus(), limits: t.config });
    const storeOne = (data: { id?: string; content: string }) =>
      hippocampus
        .store(message('StoreCommand', { memories: [{ store, ...data }] }, 'cortex'))
        .then((stored) => stored[0]!);
    const outcomes = await Promise.allSettled([
      storeOne({ content: 'fine one' }),
      storeOne({ id, content: 'first version' }),
      storeOne({ content: 'fine two' }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'HIPPOCAMPUS.ID_FORGOTTEN' });
    expect((await trail(id)).memories).toBe(0);
  });

  it('still makes a retried store of a memory never forgotten a no-op', async () => {
    const id = `hw-kept-${store}`;
    const input = { id, store, content: 'kept' };
    const first = await t.ok<{ store: { createdAt: string } }>(STORE, { input });
    const second = await t.ok<{ store: { createdAt: string } }>(STORE, { input });
    expect(second.store.createdAt).toBe(first.store.createdAt);
    expect(await trail(id)).toEqual({ memories: 1, events: ['MemoryStored'] });
  });

  it('is about the store that forgot it: another store may use the id', async () => {
    const id = `hw-other-${store}`;
    await storeAndForget(id, other);
    await t.ok(STORE, { input: { id, store, content: 'mine' } });
    expect((await trail(id)).memories).toBe(1);
  });
});
