/**
 * One store at 10k, 100k and 1M memories (BENCH_SCALE_LEVELS), grown in place, with vectors and associations:
 * what a client sees at each size (search with every signal and lexically, contextFor, a store with linking,
 * spreading activation), the resident memory of the service and of Neo4j, and decay sweeps (the first, the
 * 15-minute one, and the one a day later under API load).
 *
 * Seeding is the documented bulk path: `storeMany` in batches of 1,000 through the memory port, each memory with
 * a client-computed vector (bench/scale/vectors.ts: the model embeds each distinct turn and sentence of the LoCoMo
 * conversations once), so Hippocampus validates and writes them and Synapse links them, as in service; the bus
 * is drained after every batch so that linking keeps pace. Run: npm run bench:scale (BENCH_KEEP=1 keeps the store).
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import neo4j from 'neo4j-driver';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { deleteKeysWithPrefix } from '../src/adapters/redis.js';
import { createApp } from '../src/app.js';
import { message } from '../src/domain/index.js';
import { graphqlClient, rng } from './lib.js';
import { contentOf, conversationalParts, conversationalQuestions, conversationalTexts } from './corpus.js';
import { DEFAULT_LOCOMO_DIR, loadConversations } from './locomo-data.js';
import { startBench } from './conditions.js';
import { VectorPool } from './scale/vectors.js';
import { LinkPlanner, MERGE_LINKS } from './scale/links.js';
import { during, latency, paced, residentMiB, roundTrip, settle } from './scale/measure.js';
import { type ServiceProcess, startService } from './scale/service.js';
import { type Level, report } from './scale/report.js';

// The machine must be quiet (or BENCH_BUSY_OK=1); the results file records how it was.
await startBench();

const LEVELS = (process.env.BENCH_SCALE_LEVELS ?? '10000,100000,1000000').split(',').map(Number);
const SAMPLES = Number(process.env.BENCH_SCALE_SAMPLES ?? 300);
const WARM_UP = Number(process.env.BENCH_SCALE_WARM_UP ?? 100);
const BATCH = 1000;
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const DATA = process.env.TOTAL_RECALL_DATA || '.data';
const NEO4J_PID = join(DATA, 'neo4j', 'run', 'neo4j.pid');

const conversations = loadConversations(process.env.BENCH_LOCOMO_DIR ?? DEFAULT_LOCOMO_DIR);
const questions = conversationalQuestions(conversations);
const store = process.env.BENCH_SCALE_STORE ?? `bench-scale-${randomUUID()}`;
const base = loadConfig();
// Its own queue keys and its own store: no other store's background work is waited for or counted.
const config = {
  ...base,
  port: 0,
  scopeStores: [store],
  subconscious: { ...base.subconscious, queuePrefix: `bench-scale-${randomUUID().slice(0, 8)}` },
};
const db = { database: config.neo4j.database };
const say = (line: string) => console.log(`[scale ${new Date().toISOString().slice(11, 19)}] ${line}`);

// The benchmark's own app: the model for the vector pool, the sweeps and the in-process activation. The service
// it measures runs in processes of its own (startService), started anew at each size.
const app = await createApp(config, { embeddingWorker: false });
const model = await (app.embedder as { start?: () => Promise<{ state: string }> }).start?.();
if (model?.state !== 'ready') throw new Error(`the embedding model is not ready (${JSON.stringify(model)})`);
// The same store served without the model: recall by words, people, dates and associations only.
const lexicalConfig = { ...config, embeddings: { ...config.embeddings, enabled: false } };

const pool = await VectorPool.build(app.embedder, conversationalTexts(conversations), join(DATA, 'bench'), say);
const noise = rng(3);
const caller = { instanceId: 'bench-scale', sessionId: null };
// Tiers as a lived-in store has them: 2% identity, 8% working memory, 60% long-term, 30% archive.
const tierOf = (i: number) => {
  const h = (i * 2654435761) % 100;
  return h < 2 ? 'IDENTITY_CORE' : h < 10 ? 'ACTIVE_CONTEXT' : h < 70 ? 'LONG_TERM' : 'ARCHIVE';
};

async function count(): Promise<number> {
  const r = await app.driver.executeQuery('MATCH (m:Memory {store: $store}) RETURN count(m) AS n', { store }, db);
  return Number(r.records[0]?.get('n') ?? 0);
}

async function associations(): Promise<number> {
  const r = await app.driver.executeQuery(
    'MATCH (m:Memory {store: $store}) RETURN sum(COUNT { (m)-[:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]->() }) AS n',
    { store },
    db,
  );
  return Number(r.records[0]?.get('n') ?? 0);
}

// The seeder: the same service without linking (the seed writes the links itself, bench/scale/links.ts) or the model.
const seeder = await createApp(
  {
    ...config,
    synapse: { ...config.synapse, mechanicalLinking: false },
    embeddings: { ...config.embeddings, enabled: false },
  },
  { embeddingWorker: false, applySchema: false },
);
const planner = new LinkPlanner();

/** Grows the store to `target` memories; returns the seconds it took. */
async function grow(target: number): Promise<{ seconds: number; added: number }> {
  const start = performance.now();
  let made = await count();
  const from = made;
  while (made < target) {
    const n = Math.min(BATCH, target - made);
    const at = Date.parse('2023-01-01T00:00:00Z') + made * MINUTE;
    const parts = conversationalParts(conversations, n, 1000 + made, at);
    const inputs = parts.map((p, j) => ({
      store,
      content: contentOf(p),
      tags: p.tags,
      people: p.people,
      emotions: p.emotions,
      occurredAt: Date.parse(p.occurredAt),
      sessionId: `scale-s${Math.floor((made + j) / 50)}`,
      tier: tierOf(made + j),
      embedding: pool.vectorOf(p, noise),
    }));
    const stored = await seeder.ports.memory.store(inputs, caller);
    const links = planner.plan(stored.map((s, j) => ({ ...inputs[j]!, id: s.memory.id, turn: parts[j]!.turn })));
    await seeder.driver.executeQuery(MERGE_LINKS, { links, now: neo4j.int(Date.now()), changeId: randomUUID() }, db);
    await seeder.bus.idle();
    made += n;
    if (Math.floor(made / 50_000) > Math.floor((made - n) / 50_000) || made === target)
      say(`${made.toLocaleString('en')} memories, ${((performance.now() - start) / 1000).toFixed(0)} s`);
  }
  await app.driver.executeQuery('CALL db.awaitIndexes(3600)', {}, db);
  return { seconds: (performance.now() - start) / 1000, added: made - from };
}

const SEARCH = 'query ($input: SearchInput!) { search(input: $input) { hits { confidence memory { id } } } }';
const CONTEXT = 'query ($input: ContextInput!) { contextFor(input: $input) { estimatedTokens hits { confidence } } }';
const STORE = 'mutation ($input: StoreInput!) { store(input: $input) { id } }';
const ask = (i: number) => questions[Math.abs(i * 7919 + 13) % questions.length] as string;
let probes = 0;
type Client = ReturnType<typeof graphqlClient>;
const storeOne = (gql: Client) =>
  gql(STORE, {
    input: { store, content: `probe ${probes++}: we talked about the garden and the move again`, tier: 'LONG_TERM' },
  });

/**
 * Uncounted requests of every kind: the first ones after a store grows load its statistics, and a Neo4j
 * started for this run is still compiling its hot code (a fresh one answered `RETURN 1` at p50 7.6–13.7 ms,
 * 2.7 ms after 10,000 of them).
 */
async function warmUp(gql: Client, lexicalGql: Client, idle: () => Promise<void>): Promise<void> {
  for (let i = 0; i < WARM_UP; i++) {
    await gql(SEARCH, { input: { store, query: ask(-1 - i), limit: 10 } });
    await lexicalGql(SEARCH, { input: { store, query: ask(-1 - i), limit: 10 } });
    await gql(CONTEXT, { input: { store, query: ask(-2 - i), maxTokens: 400 } });
    await storeOne(gql);
  }
  await idle();
}

let sweepNow = Date.now();
const sweep = async (now: number) => {
  const r = await app.bus.ask(message('SweepDecay', { store, now }, 'subconscious'));
  await app.bus.idle();
  return { ...r, perSecond: Math.round(r.scanned / (r.ms / 1000)) };
};

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return Number((performance.now() - start).toFixed(1));
}

/** Everything measured at one size, through the service's processes (`gql` with the model, `lexicalGql` without). */
async function measure(
  seeded: Level['seeded'],
  service: ServiceProcess,
  gql: Client,
  lexicalGql: Client,
): Promise<Level> {
  // The first search of each kind after the service starts: it loads the store's term statistics (and, all
  // signals, reaches the vector index), as the first question after a restart does. (The lexical one runs while
  // the other process may still be counting the store behind its first search.)
  const firstSearch = {
    search: await timed(() => gql(SEARCH, { input: { store, query: ask(-1000), limit: 10 } })),
    lexical: await timed(() => lexicalGql(SEARCH, { input: { store, query: ask(-1001), limit: 10 } })),
  };
  await warmUp(gql, lexicalGql, () => service.idle());
  const memories = await count();
  say(`store holds ${memories.toLocaleString('en')} memories; measuring`);
  const ids = (
    await app.driver.executeQuery(
      'MATCH (m:Memory {store: $store}) WITH m, rand() AS r ORDER BY r LIMIT 2000 RETURN m.id AS id',
      { store },
      db,
    )
  ).records.map((r) => r.get('id') as string);
  const seeds = (i: number) =>
    Array.from({ length: 10 }, (_, k) => ({
      id: ids[(i * 31 + k * 197) % ids.length] as string,
      weight: 1 - k * 0.09,
    }));
  const idle = await roundTrip(app.driver, config.neo4j.database);
  const search = await latency(SAMPLES, (i) => gql(SEARCH, { input: { store, query: ask(i), limit: 10 } }));
  const lexical = await latency(SAMPLES, (i) => lexicalGql(SEARCH, { input: { store, query: ask(i), limit: 10 } }));
  const context = await latency(SAMPLES, (i) => gql(CONTEXT, { input: { store, query: ask(i + 1), maxTokens: 400 } }));
  const stores = await paced(SAMPLES, 20, () => storeOne(gql));
  await service.idle();
  const resident = residentMiB(service.residentMiB(), NEO4J_PID);
  const activation = await latency(SAMPLES, (i) => app.synapse.activate(store, seeds(i), { maxHops: 2 }));
  say(`search p95 ${search.p95}, lexical ${lexical.p95}, contextFor ${context.p95}, store ${stores.p95} ms`);
  // Sweeps on a clock of their own that only moves forward: each level's first sweep is after the last one.
  sweepNow = Math.max(Date.now(), sweepNow + DAY + MINUTE);
  const first = await sweep(sweepNow);
  const cadence = await sweep(sweepNow + 15 * MINUTE);
  sweepNow += DAY;
  const running = sweep(sweepNow);
  const underLoad = await during(running, (i) =>
    i % 2 === 0 ? storeOne(gql) : gql(SEARCH, { input: { store, query: ask(i), limit: 10 } }),
  );
  const dayLater = await running;
  say(`sweeps: first ${first.ms} ms, 15 min ${cadence.ms} ms, a day later ${dayLater.ms} ms`);
  await service.idle();
  return {
    memories,
    associations: await associations(),
    seeded,
    firstSearch,
    idle,
    search,
    lexical,
    context,
    store: stores,
    activation,
    resident,
    sweeps: { first, cadence, dayLater, underLoad },
  };
}

const levels: Level[] = [];
try {
  for (const size of LEVELS) {
    const grown = await grow(size);
    const seeded = { ...grown, settled: await settle(NEO4J_PID) };
    const { quiet, seconds, cores } = seeded.settled;
    say(`Neo4j ${quiet ? 'quiet' : 'still busy'} ${seconds} s after growing (${cores} cores)`);
    // Started after the store grew, so they read it afresh, as a service does after an import.
    const service = await startService(config);
    const lexicalService = await startService(lexicalConfig);
    const gql = graphqlClient(service.url);
    const lexicalGql = graphqlClient(lexicalService.url);
    try {
      levels.push(await measure(seeded, service, gql, lexicalGql));
    } finally {
      await service.stop();
      await lexicalService.stop();
    }
  }
} finally {
  // Results first: removing a million memories takes minutes, and a level measured is worth keeping.
  if (levels.length > 0)
    report(levels, { samples: SAMPLES, batch: BATCH, poolTexts: conversationalTexts(conversations).length });
  if (process.env.BENCH_KEEP) say(`kept store ${store} (BENCH_KEEP)`);
  else {
    say('removing the store');
    const session = app.driver.session(db);
    // Every node of the store (memories, events, recalls, uses), 5,000 a transaction.
    await session.run('MATCH (n) WHERE n.store = $store CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS', {
      store,
    });
    await session.close();
  }
  await seeder.close();
  await app.close();
  await deleteKeysWithPrefix(config.redisUrl, config.subconscious.queuePrefix);
}
