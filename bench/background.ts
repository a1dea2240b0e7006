/**
 * Background work beside requests (issue 24): one store's memories wait for
 * their vectors, and the service embeds them (the backfill, on its model
 * threads) while one client searches and stores at a steady pace. The
 * client's latencies during the backfill are set against the same client's
 * once the backfill is done, in the same process and store: the idle figure.
 *   npm run bench:background    (BENCH_BACKGROUND_MEMORIES, default 10000; BENCH_VARIANTS model threads,
 *                                default "2,2@1", each optionally @ the share of the time memories may take while
 *                                requests run, as in "2@0.2", and @ the longest wait for a gap between requests
 *                                (TOTAL_RECALL_BACKGROUND_GAP_WAIT_MS), as in "2@0.2@0", and @ the memories per
 *                                model run while requests run (TOTAL_RECALL_EMBEDDING_BUSY_BATCH), as in
 *                                "2@0.2@100@16", and @ the vectors per write while they run
 *                                (TOTAL_RECALL_EMBEDDING_BUSY_WRITE), as in "2@0.2@100@16@64";
 *                                BENCH_ROUNDS, default 1; BENCH_BACKGROUND_DURING_S, default 0: how long the
 *                                load runs beside the backfill, 0 until the backfill is done, so that a large
 *                                backfill (100k) is measured for a while and then finishes alone;
 *                                BENCH_CLIENTS, default 1)
 * Variants run interleaved: each round runs every model-thread count.
 * Memories are real conversation turns (../shared/data/locomo, read at run time) and the questions are theirs.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';
import { buildGraphQLSchema, startGraphQLServer } from '../src/adapters/graphql/index.js';
import { conversationalMemories, conversationalQuestions } from './corpus.js';
import { DEFAULT_LOCOMO_DIR, loadConversations } from './locomo-data.js';
import {
  dropBenchStores,
  graphqlClient,
  markdownTable,
  rng,
  summarise,
  writeResults,
  type LatencySummary,
} from './lib.js';
import { startBench } from './conditions.js';

await startBench();

const MEMORIES = Number(process.env.BENCH_BACKGROUND_MEMORIES ?? 10_000);
/**
 * Model threads, the share of the time memories take while requests run (TOTAL_RECALL_EMBEDDING_BUSY_SHARE), and how
 * long background work waits for a gap between requests at most (TOTAL_RECALL_BACKGROUND_GAP_WAIT_MS), and the
 * memories per model run and vectors per write while requests run (TOTAL_RECALL_EMBEDDING_BUSY_BATCH and _WRITE).
 */
interface Variant {
  readonly modelThreads: number;
  readonly busyShare: number;
  readonly gapWaitMs: number;
  readonly busyBatch: number;
  readonly busyWriteBatch: number;
}
const VARIANTS: readonly Variant[] = (process.env.BENCH_VARIANTS ?? '2,2@1').split(',').map((v) => {
  const [threads, share, gapWait, busyBatch, busyWrite] = v.split('@');
  const defaults = loadConfig();
  return {
    modelThreads: Number(threads),
    busyShare: Number(share ?? defaults.embeddings.busyShare),
    gapWaitMs: Number(gapWait ?? defaults.backgroundGapWaitMs),
    busyBatch: Number(busyBatch ?? defaults.embeddings.busyBatch),
    busyWriteBatch: Number(busyWrite ?? defaults.embeddings.busyWriteBatch),
  };
});
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
/** Seconds the client runs beside the backfill (0: until the backfill is done). */
const DURING_S = Number(process.env.BENCH_BACKGROUND_DURING_S ?? 0);
/** Concurrent clients, each as described (one: a light load, as one agent's turns are). */
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1);
/** Requests of the client's mix sent before the model runs, not counted (warm code and plans for both phases). */
const WARM_UP_REQUESTS = 400;
/** The client's pause between two requests (ms): a steady, light load, as an agent's turns are. */
const THINK_MS = 20;
const conversations = loadConversations(DEFAULT_LOCOMO_DIR);
const memories = conversationalMemories(conversations, MEMORIES, 31);
const questions = conversationalQuestions(conversations);
const SEARCH = 'query ($input: SearchInput!) { search(input: $input) { hits { confidence } } }';
const STORE = 'mutation ($input: StoreInput!) { store(input: $input) { id } }';
const STORE_MANY = 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }';

interface Phase {
  readonly requests: number;
  readonly seconds: number;
  readonly search: LatencySummary;
  readonly store: LatencySummary;
}
interface Result {
  readonly modelThreads: number;
  readonly busyShare: number;
  readonly gapWaitMs: number;
  readonly busyBatch: number;
  readonly busyWriteBatch: number;
  readonly memories: number;
  /** From the model's start until every memory had its vector. */
  readonly backfillSeconds: number;
  /** Memories embedded while the client ran. */
  readonly embeddedDuring: number;
  /** Memories embedded per second while the client ran. */
  readonly backfillPerSecond: number;
  readonly during: Phase;
  readonly after: Phase;
}

async function variant({ modelThreads, busyShare, gapWaitMs, busyBatch, busyWriteBatch }: Variant): Promise<Result> {
  const store = `bench-background-${randomUUID()}`;
  const prefix = `bench-bg-${randomUUID().slice(0, 8)}`;
  const env = {
    ...process.env,
    TOTAL_RECALL_QUEUE_PREFIX: prefix,
    TOTAL_RECALL_SCOPE_STORES: store,
    TOTAL_RECALL_EMBEDDING_WORKERS: String(modelThreads),
    TOTAL_RECALL_EMBEDDING_BUSY_SHARE: String(busyShare),
    TOTAL_RECALL_BACKGROUND_GAP_WAIT_MS: String(gapWaitMs),
    TOTAL_RECALL_EMBEDDING_BUSY_BATCH: String(busyBatch),
    TOTAL_RECALL_EMBEDDING_BUSY_WRITE: String(busyWriteBatch),
    // The backfill is the background work measured: no cold-storage checkpoint beside it.
    TOTAL_RECALL_COLD_STORAGE_CHECKPOINT_MS: '0',
  };
  // The memories arrive while the model is off, so all of them wait for the backfill.
  const loader = await createApp(
    { ...loadConfig({ ...env, TOTAL_RECALL_EMBEDDINGS: 'off' }), port: 0 },
    { log: () => undefined },
  );
  const loaderServer = await startGraphQLServer(await buildGraphQLSchema(), loader.ports, '127.0.0.1', 0);
  const load = graphqlClient(loaderServer.url);
  for (let i = 0; i < memories.length; i += 1000) {
    const inputs = memories.slice(i, i + 1000).map((m, k) => ({
      store,
      content: m.content,
      tags: m.tags,
      people: m.people,
      occurredAt: m.occurredAt,
      sessionId: `${store}:s${Math.floor((i + k) / 50)}`,
    }));
    await load(STORE_MANY, { inputs });
  }
  // The same mix of requests, uncounted, before the model runs: the process's code and Neo4j's plans are then as
  // warm for "during" as they are for "after" (the measured app shares this process's code). Its stores go to a
  // store of their own, so the measured one holds only the memories waiting for the backfill.
  const warmStore = `${store}-warm-up`;
  for (let k = 0; k < WARM_UP_REQUESTS; k++) {
    const question = questions[k % questions.length];
    if (k % 4 === 3) await load(STORE, { input: { store: warmStore, content: `A warm-up note ${k}: ${question}` } });
    else await load(SEARCH, { input: { store, query: question } });
  }
  await loader.settle();
  await loaderServer.stop();
  await loader.close();

  const config = { ...loadConfig(env), port: 0 };
  const app = await createApp(config, { workers: true, log: () => undefined });
  const server = await startGraphQLServer(await buildGraphQLSchema(), app.ports, '127.0.0.1', 0, {
    activity: app.activity,
  });
  const gql = graphqlClient(server.url);
  const random = rng(modelThreads);
  const embeddedCount = async () =>
    Number(
      (
        await app.driver.executeQuery(
          "MATCH (m:Memory {store: $store}) WHERE m.embeddingStatus = 'DONE' RETURN count(m) AS n",
          { store },
          { database: config.neo4j.database },
        )
      ).records[0]!.get('n'),
    );
  /** CLIENTS clients: each a search, and every fourth request a store, THINK_MS apart, until `until` says stop. */
  const client = async (until: (requests: number) => Promise<boolean> | boolean): Promise<Phase> => {
    const search: number[] = [];
    const stored: number[] = [];
    const started = performance.now();
    let n = 0;
    const loop = async () => {
      while (!(await until(n))) {
        const k = n++;
        const t0 = performance.now();
        if (k % 4 === 3) {
          await gql(STORE, {
            input: {
              store,
              content: `A new note ${k}: ${questions[Math.floor(random() * questions.length)]}`,
              sessionId: `${store}:live`,
            },
          });
          stored.push(performance.now() - t0);
        } else {
          await gql(SEARCH, { input: { store, query: questions[Math.floor(random() * questions.length)] } });
          search.push(performance.now() - t0);
        }
        await new Promise((r) => setTimeout(r, THINK_MS));
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, loop));
    return {
      requests: n,
      seconds: Math.round(performance.now() - started) / 1000,
      search: summarise(search),
      store: summarise(stored),
    };
  };
  try {
    const ready = await (app.embedder as { start?: () => Promise<{ state: string }> }).start?.();
    if (ready?.state !== 'ready')
      throw new Error(`the model is not ready: ${JSON.stringify(ready)}; run node scripts/services/model.mjs`);
    const t0 = performance.now();
    let lastCheck = 0;
    let done = false;
    const during = await client(async () => {
      if (DURING_S > 0 && performance.now() - t0 > DURING_S * 1000) return true;
      if (performance.now() - lastCheck > 2000) {
        lastCheck = performance.now();
        done = (await embeddedCount()) >= MEMORIES;
      }
      return done;
    });
    const embeddedDuring = Math.min(MEMORIES, await embeddedCount());
    await app.embeddings!.idle(3_600_000);
    const backfillSeconds = (performance.now() - t0) / 1000;
    await app.settle();
    const after = await client((n) => n >= during.requests);
    const result: Result = {
      modelThreads,
      busyShare,
      gapWaitMs,
      busyBatch,
      busyWriteBatch,
      memories: MEMORIES,
      backfillSeconds: Math.round(backfillSeconds * 10) / 10,
      embeddedDuring,
      backfillPerSecond: Math.round(embeddedDuring / during.seconds),
      during,
      after,
    };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    // The store, the server, the app and the queues under this variant's prefix.
    await dropBenchStores([store, warmStore], app, server, config);
  }
}

const results: Result[] = [];
for (let round = 0; round < ROUNDS; round++) for (const v of VARIANTS) results.push(await variant(v));
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '–');
// A measure of a while beside a large backfill goes to a file of its own, beside the one of whole backfills.
writeResults(
  DURING_S > 0 ? 'background-window' : 'background',
  { memories: MEMORIES, thinkMs: THINK_MS, duringS: DURING_S, rounds: ROUNDS, clients: CLIENTS, results },
  [
    `${MEMORIES} memories (conversation turns, sessions of 50) stored while the model was off, then embedded by the ` +
      `service's backfill (its model threads; while requests run, memories use one of them, for at most the share ` +
      `of the time given, each piece just after a request ends, waiting for that gap as long as given at most) while ` +
      `${CLIENTS === 1 ? 'one client' : `${CLIENTS} clients`} in the benchmark's process ` +
      `${CLIENTS === 1 ? 'sends' : 'each send'} a search and every fourth request a store, ${THINK_MS} ms apart` +
      (DURING_S > 0
        ? ` for ${DURING_S} s at most (the backfill then went on alone). `
        : ', until the backfill is done. ') +
      `"After" is the same load for as many requests once the backfill is done (the idle figure); ` +
      `${WARM_UP_REQUESTS} requests of the same mix ran first, uncounted, before the model did. p50 / p95 in ms. ` +
      `Variants interleaved, ${ROUNDS} round(s), in the order listed.`,
    '',
    markdownTable(
      [
        'model threads',
        'share while busy',
        'gap wait (ms)',
        'memories per run while busy',
        'vectors per write while busy',
        'backfill memories/s while the client ran',
        'embedded while it ran',
        'backfill done after (s)',
        'search during',
        'search after',
        'search p95 ratio',
        'store during',
        'store after',
        'store p95 ratio',
      ],
      results.map((r) => [
        r.modelThreads,
        r.busyShare,
        r.gapWaitMs,
        r.busyBatch,
        r.busyWriteBatch,
        r.backfillPerSecond,
        r.embeddedDuring,
        r.backfillSeconds,
        `${r.during.search.p50} / ${r.during.search.p95}`,
        `${r.after.search.p50} / ${r.after.search.p95}`,
        ratio(r.during.search.p95, r.after.search.p95),
        `${r.during.store.p50} / ${r.during.store.p95}`,
        `${r.after.store.p50} / ${r.after.store.p95}`,
        ratio(r.during.store.p95, r.after.store.p95),
      ]),
    ),
  ].join('\n'),
);
