/**
 * Embeddings end to end on the real Neo4j, Redis and model: stores never wait for the model, the `embeddings` job
 * attaches vectors through Hippocampus, the vector index finds paraphrases, client vectors stay as sent, and the
 * backfill catches up (failures and a missing model: embeddings-failures.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers.js';
import { MODEL_NAME, cosine } from '../../src/adapters/embeddings/testing.js';
import { embeddingText } from '../../src/contexts/hippocampus/testing.js';
import { STORE_MANY, prefixes, rows, stores, t, useEmbeddingApp, type Row } from './embeddings-fixture.js';

async function embeddingOf(t: TestApp, id: string): Promise<number[]> {
  const [row] = await t.cypher<{ e: number[] }>('MATCH (m:Memory {id: $id}) RETURN m.embedding AS e', { id });
  return row?.e ?? [];
}

useEmbeddingApp();

describe('embedding job', () => {
  it(
    'gives memories stored without embeddings a 384-dimensional vector (status DONE) that ' + 'the vector index finds',
    async () => {
      const contents = [
        'A man is playing a guitar on stage.',
        'The stock market fell sharply on Tuesday.',
        'I forgot my login password and need to change it.',
        'We planted tomatoes in the garden this spring.',
        'The cat is sleeping on the sofa.',
      ];
      const { storeMany } = await t.ok<{ storeMany: { id: string }[] }>(STORE_MANY, {
        inputs: contents.map((content) => ({ store: stores.fresh, content })),
      });
      expect(storeMany).toHaveLength(5);

      await t.app.embeddings!.idle();
      const after = await rows(t, stores.fresh);
      expect(after).toHaveLength(5);
      for (const row of after) expect(row).toMatchObject({ dims: 384, status: 'DONE', model: MODEL_NAME });

      // The stored vector is the model's embedding of the content.
      const guitar = after.find((r) => r.content.includes('guitar')) as Row;
      const [own] = await t.app.embedder.embed([guitar.content]);
      // int8 scales follow the batch
      expect(cosine(await embeddingOf(t, guitar.id), own as Float32Array)).toBeGreaterThan(0.99);

      // A paraphrase that shares almost no words finds it through the vector index.
      const [query] = await t.app.embedder.embed(['Someone performs music with a guitar in front of an audience.']);
      const hits = await t.cypher<{ content: string; score: number }>(
        `CYPHER 25 MATCH (node:Memory)
         SEARCH node IN (VECTOR INDEX memory_embedding FOR $vector WHERE node.store = $store LIMIT 100) SCORE AS score
       RETURN node.content AS content, score ORDER BY score DESC`,
        { vector: Array.from(query as Float32Array), store: stores.fresh },
      );
      expect(hits[0]?.content).toBe('A man is playing a guitar on stage.');
      expect((hits[0]?.score ?? 0) - (hits[1]?.score ?? 0)).toBeGreaterThan(0.1);
    },
  );

  it('stores a client-supplied embedding as it is, and no job recomputes it', async () => {
    const vector = Array.from({ length: 384 }, (_, i) => Math.sin(i + 1));
    const norm = Math.hypot(...vector);
    const unit = vector.map((x) => x / norm);
    const { storeMany } = await t.ok<{ storeMany: { id: string }[] }>(STORE_MANY, {
      inputs: [{ store: stores.client, content: 'A man is playing a guitar on stage.', embedding: unit }],
    });
    const id = storeMany[0]!.id;
    expect(await rows(t, stores.client)).toEqual([
      expect.objectContaining({ dims: 384, status: 'DONE', model: 'client' }),
    ]);

    await t.app.embeddings!.idle();
    t.app.embeddings!.request([id]); // even when asked explicitly
    await t.app.embeddings!.idle();

    // Every one of the 384 numbers as sent (an empty or shorter vector fails here).
    expect(await embeddingOf(t, id)).toEqual(unit);
    expect(await rows(t, stores.client)).toEqual([expect.objectContaining({ status: 'DONE', model: 'client' })]);
  });

  it('backfills memories stored while embeddings were off or before they existed, page by page', async () => {
    const off = await startTestApp({}, { ...process.env, TOTAL_RECALL_EMBEDDINGS: 'off' });
    try {
      const inputs = Array.from({ length: 10 }, (_, i) => ({
        store: stores.backfill,
        content: `Old memory number ${i} about the lake house.`,
      }));
      await off.ok(STORE_MANY, { inputs });
      await off.app.bus.idle();
      expect((await off.ok<{ health: { embeddings: string } }>('{ health { embeddings } }')).health.embeddings).toBe(
        'disabled',
      );
    } finally {
      await off.stop();
    }
    // Half of them as if stored before embeddingStatus existed.
    await t.cypher('MATCH (m:Memory {store: $store}) WITH m ORDER BY m.id LIMIT 5 REMOVE m.embeddingStatus', {
      store: stores.backfill,
    });
    const before = await rows(t, stores.backfill);
    expect(before.map((r) => r.status).sort()).toEqual([...Array(5).fill('PENDING'), ...Array(5).fill(null)]);
    expect(before.every((r) => r.dims === null)).toBe(true);
    // One whose content someone removed by hand (Neo4j Browser): nothing to embed, and its page goes on without it.
    const [edited] = await t.cypher<{ id: string }>(
      'MATCH (m:Memory {store: $store}) WITH m ORDER BY m.id SKIP 2 LIMIT 1 REMOVE m.content RETURN m.id AS id',
      { store: stores.backfill },
    );

    await t.app.embeddings!.backfill(); // 10 memories in pages of 4: three chained jobs
    await t.app.embeddings!.idle();
    const after = await rows(t, stores.backfill);
    expect(after.filter((r) => r.dims === null).map((r) => r.id)).toEqual([edited!.id]);
    for (const row of after.filter((r) => r.id !== edited!.id))
      expect(row).toMatchObject({ dims: 384, status: 'DONE', model: MODEL_NAME });
    const pages = (await t.app.embeddings!.queue.getJobs(['completed'])).filter(
      (j) => j.name === 'backfill' && j.data.kind === 'backfill' && j.data.after > '',
    );
    expect(pages.length).toBeGreaterThanOrEqual(2); // pages 2 and 3 were enqueued by the pages before them
  });
});

describe('embedding in context', () => {
  it(
    'embeds a memory after the one before it in its session; forgetting that one re-embeds it ' +
      'without the forgotten words',
    async () => {
      const session = `${stores.context}:chat`;
      const turns = [
        'Did you ever finish the pottery class?',
        'I signed up for a trip to Norway instead.',
        'Yes! I made a blue vase last week.',
      ];
      const { storeMany } = await t.ok<{ storeMany: { id: string }[] }>(STORE_MANY, {
        inputs: [
          ...turns.map((content, i) => ({
            store: stores.context,
            content,
            sessionId: session,
            occurredAt: new Date(Date.UTC(2025, 0, 1, 10, i)).toISOString(),
          })),
          { store: stores.context, content: 'A note with no session.' },
        ],
      });
      const [question, norway, vase, alone] = storeMany.map((m) => m.id) as [string, string, string, string];
      await t.app.bus.idle();
      await t.app.embeddings!.idle();
      const similarity = async (id: string, text: string) =>
        cosine(await embeddingOf(t, id), (await t.app.embedder.embed([text]))[0] as Float32Array);
      expect(await similarity(question, turns[0]!)).toBeGreaterThan(0.99); // first of its session: no context
      expect(await similarity(norway, embeddingText(turns[1]!, turns[0]!))).toBeGreaterThan(0.99);
      expect(await similarity(vase, embeddingText(turns[2]!, turns[1]!))).toBeGreaterThan(0.99);
      expect(await similarity(alone, 'A note with no session.')).toBeGreaterThan(0.99);

      await t.ok('mutation ($input: ForgetInput!) { forget(input: $input) { id } }', {
        input: { id: norway, confirmId: norway, reason: 'test of forgetting a context' },
      });
      await t.app.bus.idle();
      await t.app.embeddings!.flush();
      await t.app.embeddings!.idle();
      const [row] = await t.cypher<{ status: string; model: string }>(
        'MATCH (m:Memory {id: $id}) RETURN m.embeddingStatus AS status, m.embeddingModel AS model',
        { id: vase },
      );
      expect(row).toEqual({ status: 'DONE', model: MODEL_NAME });
      // now after the question
      expect(await similarity(vase, embeddingText(turns[2]!, turns[0]!))).toBeGreaterThan(0.99);
      expect(await similarity(vase, embeddingText(turns[2]!, turns[1]!))).toBeLessThan(0.98);
      expect(await similarity(question, turns[0]!)).toBeGreaterThan(0.99); // before it in time: untouched

      // A vector computed before the forget, with the forgotten memory as context, is not attached after it.
      await t.cypher(
        "MATCH (m:Memory {id: $id}) SET m.embedding = null, m.embeddingStatus = 'PENDING', m.embeddingModel = null",
        { id: vase },
      );
      const [work] = await t.app.hippocampus.memoriesToEmbed([vase], MODEL_NAME);
      expect(work).toMatchObject({ id: vase, contextId: question, text: embeddingText(turns[2]!, turns[0]!) });
      const vector = (await t.app.embedder.embed([work!.text]))[0] as Float32Array;
      expect(
        await t.app.hippocampus.attachEmbeddings([{ id: vase, embedding: vector, contextId: norway }], MODEL_NAME),
      ).toEqual([]);
      expect(
        await t.app.hippocampus.attachEmbeddings([{ id: vase, embedding: vector, contextId: question }], MODEL_NAME),
      ).toEqual([vase]);
    },
  );
});

describe('scaled out', () => {
  it('an API-only process enqueues; a worker process embeds', async () => {
    const api = await startTestApp(
      { workers: false, log: () => undefined },
      {
        ...process.env,
        TOTAL_RECALL_EMBEDDINGS: 'on',
        TOTAL_RECALL_QUEUE_PREFIX: prefixes[0] as string,
        TOTAL_RECALL_SCOPE_STORES: stores.api,
      },
    );
    try {
      await api.ok(STORE_MANY, { inputs: [{ store: stores.api, content: 'Written through the API-only process.' }] });
      await api.app.bus.idle();
      await api.app.embeddings!.flush();
      await t.app.embeddings!.idle(); // the worker app shares the queue
      expect(await rows(t, stores.api)).toEqual([
        expect.objectContaining({ dims: 384, status: 'DONE', model: MODEL_NAME }),
      ]);
    } finally {
      await api.stop();
    }
  });
});
