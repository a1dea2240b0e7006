/**
 * Embedding throughput of the local model (e5-small-v2 int8, onnxruntime-node,
 * CPU): sentences per second in process at 1 and 2 inference threads and
 * several batch sizes, for memory-sized and long texts; then the service's own
 * path (GraphQL storeMany → MemoryStored → `embeddings` job on the worker
 * thread → vectors attached in Neo4j) at the configured settings.
 *
 * Run (the model must be fetched: `node scripts/services/model.mjs`):
 *   flock /tmp/total-recall-bench.lock npm run bench:embeddings
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { deleteKeysWithPrefix } from '../src/adapters/redis.js';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';
import { buildGraphQLSchema, startGraphQLServer } from '../src/adapters/graphql/index.js';
import { MODEL_NAME, OnnxModel, missingModelFiles } from '../src/adapters/embeddings/testing.js';
import { embeddingText } from '../src/contexts/hippocampus/testing.js';
import { markdownTable, summarise, writeResults } from './lib.js';
import { conversationalMemories, syntheticMemories } from './corpus.js';
import { DEFAULT_LOCOMO_DIR, loadConversations } from './locomo-data.js';
import { startBench } from './conditions.js';

// The machine must be quiet (or BENCH_BUSY_OK=1); the results file records how it was.
await startBench();

const SENTENCES = Number(process.env.BENCH_SENTENCES ?? 512);
const PIPELINE = Number(process.env.BENCH_PIPELINE_MEMORIES ?? 2048);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const config = loadConfig({ ...process.env, TOTAL_RECALL_EMBEDDINGS: 'on' });
const dir = config.embeddings.modelDir;
if (missingModelFiles(dir).length > 0) {
  console.error(`error: no model in ${dir}\nfix: node scripts/services/model.mjs`);
  process.exit(1);
}

const memoryTexts = syntheticMemories(SENTENCES, 11).map((m) => m.content);
const longTexts = syntheticMemories(SENTENCES / 4, 12).map((m, i, all) =>
  [m.content, ...all.slice(i + 1, i + 8).map((o) => o.content)].join(' '),
);
// What the service embeds for a memory of a session: the memory before it, then its own content.
const inContext = (texts: readonly string[]) =>
  texts.map((text, i) => embeddingText(text, i > 0 ? (texts[i - 1] as string) : null));
const inContextTexts = inContext(memoryTexts);
// Real conversation turns vary in length far more than the synthetic notes: what padding costs shows there.
const turnTexts = inContext(
  conversationalMemories(loadConversations(DEFAULT_LOCOMO_DIR), SENTENCES, 13).map((m) => m.content),
);

interface Row {
  readonly texts: string;
  /** How a batch is cut into model runs: each text alone (as the service does), where lengths spread, by count. */
  readonly runs: 'alone' | 'by length' | 'by count';
  readonly tokens: number;
  readonly threads: number;
  readonly batch: number;
  readonly sentencesPerSecond: number;
  readonly batchMs: ReturnType<typeof summarise>;
}

async function measure(
  model: OnnxModel,
  texts: readonly string[],
  batch: number,
): Promise<{ perSecond: number; batchMs: number[] }> {
  await model.embed(texts.slice(0, batch)); // warm-up
  const rates: number[] = [];
  const batchMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    for (let i = 0; i < texts.length; i += batch) {
      const t0 = performance.now();
      await model.embed(texts.slice(i, i + batch));
      batchMs.push(performance.now() - t0);
    }
    rates.push(texts.length / ((performance.now() - start) / 1000));
  }
  rates.sort((a, b) => a - b);
  return { perSecond: Math.round(rates[Math.floor(rates.length / 2)] as number), batchMs };
}

const loadBefore = loadavg().map((x) => Math.round(x * 100) / 100);
const rows: Row[] = [];
for (const threads of [1, 2]) {
  const models = {
    alone: await OnnxModel.load(dir, { threads }),
    'by length': await OnnxModel.load(dir, { threads, runs: 'by length', subBatch: 16 }),
    'by count': await OnnxModel.load(dir, { threads, runs: 'by count', subBatch: 16 }),
  } as const;
  const meanTokens = (texts: readonly string[]) =>
    Math.round(texts.reduce((n, t) => n + models.alone.tokenizer.encode(t).ids.length, 0) / texts.length);
  for (const [name, texts, batches, runs] of [
    ['memory-sized', memoryTexts, [1, 8, 32], ['alone', 'by length']],
    ['memory in context', inContextTexts, [32], ['alone', 'by length']],
    ['conversation turn in context', turnTexts, [64], ['alone', 'by count', 'by length']],
    ['long', longTexts, [32], ['alone', 'by length']],
  ] as const) {
    const tokens = meanTokens(texts);
    for (const batch of batches)
      for (const cut of runs) {
        if (batch === 1 && cut !== 'alone') continue;
        const model = models[cut];
        const { perSecond, batchMs } = await measure(model, texts, batch);
        const row: Row = {
          texts: name,
          runs: cut,
          tokens,
          threads,
          batch,
          sentencesPerSecond: perSecond,
          batchMs: summarise(batchMs),
        };
        rows.push(row);
        console.log(
          `${name} (${row.tokens} tokens) threads ${threads} batch ${batch} runs ${cut}: ${perSecond} sentences/s, ` +
            `batch p50 ${row.batchMs.p50} ms p95 ${row.batchMs.p95} ms`,
        );
      }
  }
  await Promise.all(Object.values(models).map((m) => m.close()));
}

// The service path (worker threads, a BullMQ job per batch, vectors attached in Neo4j), for each variant of the
// model threads, interleaved over rounds so that every variant sees the same machine.
interface Variant {
  readonly workers: number;
  readonly batch: number;
}
const VARIANTS: readonly Variant[] = (process.env.BENCH_VARIANTS ?? '1x32,2x32,2x64').split(',').map((v) => {
  const [workers, batch] = v.split('x').map(Number);
  return { workers: workers!, batch: batch! };
});
const PIPELINE_ROUNDS = Number(process.env.BENCH_PIPELINE_ROUNDS ?? 2);

async function servicePath(
  variant: Variant,
): Promise<{ storeManyP50Ms: number; storeSeconds: number; embeddedPerSecond: number }> {
  const store = `bench-embeddings-${randomUUID()}`;
  const prefix = `bench-${randomUUID().slice(0, 8)}`;
  const app = await createApp(
    {
      ...loadConfig({
        ...process.env,
        TOTAL_RECALL_EMBEDDINGS: 'on',
        TOTAL_RECALL_EMBEDDING_WORKERS: String(variant.workers),
        TOTAL_RECALL_EMBEDDING_BATCH: String(variant.batch),
        TOTAL_RECALL_QUEUE_PREFIX: prefix,
        TOTAL_RECALL_SCOPE_STORES: store,
        // Only the embedding pipeline is measured: no cold-storage checkpoint beside it.
        TOTAL_RECALL_COLD_STORAGE_CHECKPOINT_MS: '0',
      }),
      port: 0,
    },
    { workers: true, log: () => undefined },
  );
  // Requests mark the process busy, as in the service: memories then embed on one model thread.
  const server = await startGraphQLServer(await buildGraphQLSchema(), app.ports, '127.0.0.1', 0, {
    activity: app.activity,
  });
  try {
    const ready = await (app.embedder as { start?: () => Promise<{ state: string }> }).start?.();
    if (ready?.state !== 'ready') throw new Error(`the embedder is not ready: ${JSON.stringify(ready)}`);
    await app.embeddings!.idle();
    // Sessions of 20, one memory a minute: each is embedded after the one before it (embeddingText).
    const inputs = syntheticMemories(PIPELINE, 13).map((m, i) => ({
      ...m,
      store,
      sessionId: `${store}:s${Math.floor(i / 20)}`,
      occurredAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    }));
    const storeMs: number[] = [];
    const start = performance.now();
    for (let i = 0; i < inputs.length; i += 100) {
      const t0 = performance.now();
      const res = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }',
          variables: { inputs: inputs.slice(i, i + 100) },
        }),
      });
      const body = (await res.json()) as { errors?: unknown[] };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      storeMs.push(performance.now() - t0);
    }
    const stored = performance.now();
    await app.embeddings!.idle(600_000);
    const done = performance.now();
    const [count] = (
      await app.driver.executeQuery(
        "MATCH (m:Memory {store: $store}) WHERE m.embeddingStatus = 'DONE' AND size(m.embedding) = 384 " +
          'RETURN count(m) AS n',
        { store },
        { database: config.neo4j.database },
      )
    ).records.map((r) => Number(r.get('n')));
    if (count !== PIPELINE) throw new Error(`only ${count} of ${PIPELINE} memories were embedded`);
    return {
      storeManyP50Ms: summarise(storeMs).p50,
      storeSeconds: Math.round((stored - start) / 10) / 100,
      embeddedPerSecond: Math.round(PIPELINE / ((done - start) / 1000)),
    };
  } finally {
    await app.driver.executeQuery(
      'MATCH (n) WHERE n.store = $store DETACH DELETE n',
      { store },
      { database: config.neo4j.database },
    );
    await server.stop();
    await app.close();
    // Every queue key this run made (embeddings and the Subconscious's) goes too.
    await deleteKeysWithPrefix(config.redisUrl, prefix);
  }
}

const runs = new Map<string, { storeManyP50Ms: number; storeSeconds: number; embeddedPerSecond: number }[]>();
for (let round = 0; round < PIPELINE_ROUNDS; round++) {
  for (const variant of VARIANTS) {
    const key = `${variant.workers}x${variant.batch}`;
    const result = await servicePath(variant);
    runs.set(key, [...(runs.get(key) ?? []), result]);
    console.log(
      `service path, ${variant.workers} model thread(s), jobs of ${variant.batch}: ${PIPELINE} memories stored in ` +
        `${result.storeSeconds} s, all embedded at ${result.embeddedPerSecond} memories/s`,
    );
  }
}
const pipeline = VARIANTS.map((v) => {
  const results = runs.get(`${v.workers}x${v.batch}`)!;
  const rates = results.map((r) => r.embeddedPerSecond).sort((a, b) => a - b);
  return {
    ...v,
    memories: PIPELINE,
    threadsEach: config.embeddings.threads,
    rates,
    median: rates[Math.floor(rates.length / 2)]!,
    storeManyP50Ms: results.map((r) => r.storeManyP50Ms),
  };
});

writeResults(
  'embeddings',
  {
    model: `${MODEL_NAME} (e5-small-v2, int8 ONNX, onnxruntime-node 1.30 CPU)`,
    loadAverageAtStart: loadBefore,
    sentencesPerConfig: SENTENCES,
    rounds: ROUNDS,
    inProcess: rows,
    servicePath: pipeline,
  },
  [
    'e5-small-v2 (int8 ONNX, "passage: " prefix) with onnxruntime-node on the CPU. Each text runs alone, as the ' +
      'service runs it (the int8 model scales activations by the whole run, so texts run together move one ' +
      "another's vectors); to compare, texts sorted by length and run together in runs of up to 16, cut where " +
      'lengths spread (src/adapters/embeddings/length-runs.ts) or by count alone, each run padded to its longest ' +
      'text. Conversation turns are LoCoMo’s (read at run ' +
      'time), each with the end of the turn before it, as the service embeds a memory of a session. Sentences/s is ' +
      `the median of ${ROUNDS} rounds over ${SENTENCES} memory-sized texts or conversation turns (or ` +
      `${SENTENCES / 4} long ones); batch times over all rounds. Load average at start: ${loadBefore.join(', ')} ` +
      `(the two cores are shared with Neo4j and anything else running).`,
    '',
    markdownTable(
      ['texts', 'mean tokens', 'threads', 'batch', 'runs', 'sentences/s', 'batch p50 ms', 'batch p95 ms'],
      rows.map((r) => [
        r.texts,
        r.tokens,
        r.threads,
        r.batch,
        r.runs,
        r.sentencesPerSecond,
        r.batchMs.p50,
        r.batchMs.p95,
      ]),
    ),
    '',
    `Service path: GraphQL storeMany of 100 (${PIPELINE} memories, sessions of 20, each memory embedded in context) ` +
      `→ MemoryStored → one \`embeddings\` job per batch → model threads (${config.embeddings.threads} inference ` +
      `thread each; while requests run, memories use one model thread) → vectors attached in Neo4j. Memories/s ` +
      `from the first store to the last vector attached; variants interleaved over ${PIPELINE_ROUNDS} rounds.`,
    '',
    markdownTable(
      [
        'model threads',
        'memories per job',
        'memories/s (each round)',
        'median memories/s',
        'storeMany p50 ms (each round)',
      ],
      pipeline.map((p) => [p.workers, p.batch, p.rates.join(', '), `**${p.median}**`, p.storeManyP50Ms.join(', ')]),
    ),
  ].join('\n'),
);
