/**
 * Two embedding jobs can compute a vector for the same memory at once (a retried job beside its first run, two
 * workers after a stall). Only one may attach it: the other must see the vector the first attached, or both
 * would announce MemoriesEmbedded and the memory would be linked, and counted, twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { MODEL_NAME } from '../../src/adapters/embeddings/testing.js';

const store = randomStore('attach-race');
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ log: () => undefined }, { ...process.env, TOTAL_RECALL_EMBEDDINGS: 'off' });
});

afterAll(async () => {
  await t.dropStore(store);
  await t.stop();
});

const unit = (seed: number) => {
  const v = Array.from({ length: 384 }, (_, i) => Math.sin(seed * 7.1 + i));
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};

describe('attaching a vector', () => {
  it('succeeds for exactly one of many concurrent attaches of the same memory', async () => {
    for (let round = 0; round < 5; round++) {
      const { store: stored } = await t.ok<{ store: { id: string } }>(
        'mutation ($input: StoreInput!) { store(input: $input) { id } }',
        { input: { store, content: `a memory waiting for its vector, round ${round}` } },
      );
      const id = stored.id;
      const vectors = Array.from({ length: 6 }, (_, k) => unit(round * 10 + k));
      const attached = await Promise.all(
        vectors.map((embedding) =>
          t.app.hippocampus.attachEmbeddings(
            [{ id, embedding: Float32Array.from(embedding), contextId: null }],
            MODEL_NAME,
          ),
        ),
      );
      const winners = attached.flatMap((ids, k) => (ids.length > 0 ? [k] : []));
      expect(winners).toHaveLength(1);
      const [row] = await t.cypher<{ e: number[]; status: string }>(
        'MATCH (m:Memory {id: $id}) RETURN m.embedding AS e, m.embeddingStatus AS status',
        { id },
      );
      expect(row?.status).toBe('DONE');
      const kept = vectors[winners[0] as number] as number[];
      expect(row?.e.every((x, i) => Math.abs(x - Math.fround(kept[i] as number)) < 1e-6)).toBe(true);
    }
  });

  it('never leaves a memory FAILED beside a vector when a job gives up while another attaches', async () => {
    for (let round = 0; round < 5; round++) {
      const { store: stored } = await t.ok<{ store: { id: string } }>(
        'mutation ($input: StoreInput!) { store(input: $input) { id } }',
        { input: { store, content: `a memory two jobs disagree about, round ${round}` } },
      );
      const id = stored.id;
      const [attached] = await Promise.all([
        t.app.hippocampus.attachEmbeddings(
          [{ id, embedding: Float32Array.from(unit(round)), contextId: null }],
          MODEL_NAME,
        ),
        t.app.hippocampus.failEmbeddings([id], 'gave up'),
        t.app.hippocampus.failEmbeddings([id], 'gave up again'),
      ]);
      expect(attached).toEqual([id]);
      const [row] = await t.cypher<{ dims: number | null; status: string; error: string | null }>(
        'MATCH (m:Memory {id: $id}) RETURN size(m.embedding) AS dims, m.embeddingStatus AS status, ' +
          'm.embeddingError AS error',
        { id },
      );
      expect(row).toEqual({ dims: 384, status: 'DONE', error: null });
    }
  });
});
