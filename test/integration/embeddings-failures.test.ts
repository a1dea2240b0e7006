/**
 * Embeddings when things go wrong, on the real Neo4j, Redis and model: a model that keeps failing, and a missing
 * model that leaves the service running and saying so.
 */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { randomStore, startTestApp } from '../helpers.js';
import { queuePrefix } from '../background.js';
import type { ThreadedEmbedder, Embedder } from '../../src/adapters/embeddings/index.js';
import { MODEL_FILE, MODEL_NAME, TOKENIZER_FILE } from '../../src/adapters/embeddings/testing.js';
import { EmbeddingQueue } from '../../src/adapters/bullmq/embedding-queue.js';
import {
  MODEL_DIR,
  STORE_MANY,
  prefixes,
  rows,
  startEmbeddingApp,
  stores,
  t,
  useEmbeddingApp,
} from './embeddings-fixture.js';

async function waitFor<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

useEmbeddingApp();

describe('a model that keeps failing', () => {
  it('marks the memories FAILED after three attempts, and not before; the reconciliation retries them', async () => {
    const store = randomStore('emb-failing');
    const prefix = queuePrefix();
    prefixes.push(prefix);
    // The real queue, Redis and Hippocampus; only the model is replaced, by one that is ready but fails every
    // inference.
    const calls: (string | null)[] = [];
    const statusOf = async (id: string) =>
      (await t.cypher<{ s: string }>('MATCH (m:Memory {id: $id}) RETURN m.embeddingStatus AS s', { id }))[0]?.s ?? null;
    let watched: string | null = null;
    let healed = false;
    const failing: Embedder = {
      model: MODEL_NAME,
      async embed(texts) {
        if (healed) return texts.map(() => new Float32Array(384).fill(0.05));
        calls.push(watched ? await statusOf(watched) : null);
        throw new Error('inference failed (test)');
      },
      status: () => ({ state: 'ready', model: MODEL_NAME, dimensions: 384 }),
      onChange: () => undefined,
      close: async () => undefined,
    };
    // Stored by an app that embeds nothing, so only this queue works on the memory.
    const off = await startTestApp({}, { ...process.env, TOTAL_RECALL_EMBEDDINGS: 'off' });
    const queue = new EmbeddingQueue({
      redisUrl: t.config.redisUrl,
      prefix,
      embedder: failing,
      target: t.app.hippocampus,
      batchSize: 4,
      stores: [store],
      log: () => undefined,
    });
    try {
      await queue.idle(); // the start-up backfill of the (empty) store is done
      const { storeMany } = await off.ok<{ storeMany: { id: string }[] }>(STORE_MANY, {
        inputs: [
          { store, content: 'This one the model cannot embed.' },
          { store, content: 'This one waits: no job is asked for it.' },
          {
            store,
            content: 'This one brings its own vector.',
            embedding: Array.from({ length: 384 }, (_, i) => (i % 7) / 7 + 0.01),
          },
        ],
      });
      await off.app.bus.idle();
      const id = storeMany[0]!.id;
      // Health tells how far embedding has come: two waiting, the client's vector done.
      const progress = async () =>
        (
          await off.ok<{ health: { embeddingProgress: { store: string }[] } }>(
            '{ health { embeddingProgress { store pending failed done total } } }',
          )
        ).health.embeddingProgress.find((p) => p.store === store);
      expect(await progress()).toEqual({ store, pending: 2, failed: 0, done: 1, total: 3 });
      // A caller bound to stores gets exactly those, each listed, with or without work waiting.
      const bound = await off.app.ports.embeddingProgress({
        scope: 'reader',
        stores: [store, stores.client],
        instanceId: null,
        tokenId: null,
      });
      expect(bound.map((p) => p.store)).toEqual([store, stores.client].sort());
      watched = id;
      queue.request([id]);
      await queue.flush();
      const [job] = await waitFor(
        () => queue.queue.getJobs(['failed']),
        (jobs) => jobs.length > 0,
        60_000,
      );
      expect(job?.attemptsMade).toBe(3);
      // PENDING while it was tried (the first two failures leave it waiting), FAILED once the third gave up.
      expect(calls).toEqual(['PENDING', 'PENDING', 'PENDING']);
      const [row] = await t.cypher<{ status: string; error: string; dims: number | null }>(
        'MATCH (m:Memory {id: $id}) RETURN m.embeddingStatus AS status, m.embeddingError AS error, ' +
          'size(m.embedding) AS dims',
        { id },
      );
      expect(row).toEqual({ status: 'FAILED', error: 'inference failed (test)', dims: null });
      expect(await progress()).toEqual({ store, pending: 1, failed: 1, done: 1, total: 3 });

      // The model works again. The reconciliation queues the PENDING memory at once, the FAILED one an hour after it
      // failed (the backfill runs only when the model becomes ready, so nothing else would try it again).
      healed = true;
      expect(await queue.requeueStalled(Date.now())).toBe(1);
      await queue.idle();
      expect(await progress()).toEqual({ store, pending: 0, failed: 1, done: 2, total: 3 });
      expect(await queue.requeueStalled(Date.now() + 3_700_000)).toBe(1);
      await queue.idle();
      expect(await statusOf(id)).toBe('DONE');
    } finally {
      await queue.close();
      await off.stop();
      await t.dropStore(store);
    }
  });
});

describe('without the model', () => {
  it(
    'still stores, says "missing" in health and one log line, and embeds what waited ' + 'once the model is there',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'total-recall-model-'));
      const logged: string[] = [];
      const late = await startEmbeddingApp(
        { TOTAL_RECALL_MODEL_DIR: dir, TOTAL_RECALL_MODEL_RETRY_MS: '100' },
        (line) => logged.push(line),
      );
      try {
        await (late.app.embedder as ThreadedEmbedder).start();
        const health = async () =>
          (await late.ok<{ health: { embeddings: string; neo4j: boolean } }>('{ health { neo4j embeddings } }')).health;
        expect((await health()).embeddings).toMatch(/^missing: no model files .*scripts\/services\/model\.mjs/);

        const { storeMany } = await late.ok<{ storeMany: { id: string }[] }>(STORE_MANY, {
          inputs: [
            { store: stores.late, content: 'Stored while the model was missing.' },
            { store: stores.late, content: 'Another one, also waiting.' },
          ],
        });
        expect(storeMany).toHaveLength(2);
        await late.app.bus.idle();
        // The files were looked for again a few times (every 100 ms), and are still missing.
        const embedder = late.app.embedder as ThreadedEmbedder;
        const seen = embedder.loadAttempts;
        await waitFor(
          async () => embedder.loadAttempts,
          (n) => n >= seen + 3,
          10_000,
        );
        expect(embedder.loadAttempts).toBeGreaterThanOrEqual(seen + 3);
        expect(embedder.status().state).toBe('missing');
        expect((await rows(late, stores.late)).map((r) => [r.status, r.dims])).toEqual([
          ['PENDING', null],
          ['PENDING', null],
        ]);

        // The model arrives (as `node scripts/services/model.mjs` would put it there).
        for (const file of [MODEL_FILE, TOKENIZER_FILE]) symlinkSync(join(MODEL_DIR, file), join(dir, file));
        expect((await waitFor(health, (h) => h.embeddings === 'ready')).embeddings).toBe('ready');
        await late.app.embeddings!.idle();
        for (const row of await rows(late, stores.late))
          expect(row).toMatchObject({ dims: 384, status: 'DONE', model: MODEL_NAME });

        expect(logged.filter((l) => l.includes('embeddings: model missing'))).toHaveLength(1);
        expect(logged.filter((l) => l.includes('is ready now'))).toHaveLength(1);
      } finally {
        await late.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
