/**
 * An embedding job while requests run, on the real Neo4j and Redis: its vectors are written a few at a time, each
 * write in a gap between requests of its own, and every memory ends with its vector.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { dropQueues, queuePrefix } from '../background.js';
import { MODEL_NAME } from '../../src/adapters/embeddings/testing.js';
import { EmbeddingQueue, type EmbeddingTarget } from '../../src/adapters/bullmq/embedding-queue.js';
import type { Embedder } from '../../src/adapters/embeddings/index.js';
import type { RequestLoad } from '../../src/domain/index.js';

const STORE_MANY = `mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }`;

/** A model that is always ready and gives every text the same unit-length vector. */
const steadyModel: Embedder = {
  model: MODEL_NAME,
  embed: async (texts) => texts.map(() => Float32Array.from({ length: 384 }, () => 1 / Math.sqrt(384))),
  status: () => ({ state: 'ready', model: MODEL_NAME, dimensions: 384 }),
  onChange: () => undefined,
  close: async () => undefined,
};

let t: TestApp;
const prefix = queuePrefix();
const store = randomStore('emb-busy');

beforeAll(async () => {
  // Stored by an app that embeds nothing, so only the queue below works on these memories.
  t = await startTestApp({}, { ...process.env, TOTAL_RECALL_EMBEDDINGS: 'off' });
});

afterAll(async () => {
  await t.dropStore(store);
  await t.stop();
  await dropQueues(prefix);
});

describe('vector writes while requests run', () => {
  it('writes a job of five as pieces of two, each after a gap, and as one write once requests stop', async () => {
    let busy = true;
    let gaps = 0;
    const load: RequestLoad = {
      busy: () => busy,
      untilGap: async () => {
        gaps++;
      },
    };
    const writes: number[] = [];
    const hippocampus = t.app.hippocampus;
    const target: EmbeddingTarget = {
      memoriesToEmbed: (ids, model) => hippocampus.memoriesToEmbed(ids, model),
      pendingEmbeddings: (after, limit, stores, model) => hippocampus.pendingEmbeddings(after, limit, stores, model),
      attachEmbeddings: (vectors, model) => (writes.push(vectors.length), hippocampus.attachEmbeddings(vectors, model)),
      failEmbeddings: (ids, reason) => hippocampus.failEmbeddings(ids, reason),
      stalledEmbeddings: (before, limit, stores) => hippocampus.stalledEmbeddings(before, limit, stores),
    };
    const queue = new EmbeddingQueue({
      redisUrl: t.config.redisUrl,
      prefix,
      embedder: steadyModel,
      target,
      batchSize: 8,
      stores: [store],
      load,
      busyWriteBatch: 2,
      log: () => undefined,
    });
    const storeFive = async (round: string) => {
      const inputs = Array.from({ length: 5 }, (_, i) => ({ store, content: `Note ${i + 1} of round ${round}.` }));
      const { storeMany } = await t.ok<{ storeMany: { id: string }[] }>(STORE_MANY, { inputs });
      return storeMany.map((m) => m.id);
    };
    const statuses = (ids: readonly string[]) =>
      t.cypher<{ status: string; dims: number }>(
        'MATCH (m:Memory) WHERE m.id IN $ids RETURN m.embeddingStatus AS status, size(m.embedding) AS dims',
        { ids },
      );
    try {
      await queue.idle(); // the start-up backfill of the (empty) store is done
      const busyIds = await storeFive('one');
      queue.request(busyIds);
      await queue.flush();
      await queue.idle(30_000);
      expect(writes).toEqual([2, 2, 1]);
      // One gap before the job reads its memories, then one before each write.
      expect(gaps).toBe(4);
      expect(await statuses(busyIds)).toEqual(Array(5).fill({ status: 'DONE', dims: 384 }));

      busy = false;
      writes.length = 0;
      const quietIds = await storeFive('two');
      queue.request(quietIds);
      await queue.flush();
      await queue.idle(30_000);
      expect(writes).toEqual([5]);
      expect(await statuses(quietIds)).toEqual(Array(5).fill({ status: 'DONE', dims: 384 }));
    } finally {
      await queue.close();
    }
  });
});
