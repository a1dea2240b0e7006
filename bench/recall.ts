/**
 * Search latency at scale: a store of 100k memories (configurable), embedded
 * by the service's own embedding job, then `search` through GraphQL over
 * loopback HTTP, and in process with and without meaning.
 * The corpus (BENCH_RECALL_CORPUS): `conversational` (the default when the
 * LoCoMo folder is there) recombines real conversation turns and asks the
 * conversations' own questions; `synthetic` is template sentences over about
 * a hundred words with template questions, a worst case for full-text search.
 * Run: npm run bench:recall   (BENCH_KEEP=1 keeps the store; BENCH_RECALL_STORE=… reuses it,
 * with the BENCH_RECALL_CORPUS it was seeded with)
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { deleteKeysWithPrefix } from '../src/adapters/redis.js';
import { Recall } from '../src/contexts/recall/index.js';
import { createApp } from '../src/app.js';
import { buildGraphQLSchema, startGraphQLServer } from '../src/adapters/graphql/index.js';
import { graphqlClient, markdownTable, rng, summarise, writeResults } from './lib.js';
import { conversationalMemories, conversationalQuestions, syntheticMemories } from './corpus.js';
import { DEFAULT_LOCOMO_DIR, loadConversations } from './locomo-data.js';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startBench } from './conditions.js';

// The machine must be quiet (or BENCH_BUSY_OK=1); the results file records how it was.
await startBench();

const SIZE = Number(process.env.BENCH_RECALL_MEMORIES ?? 100_000);
const SAMPLES = Number(process.env.BENCH_RECALL_SAMPLES ?? 500);
const LOCOMO_DIR = process.env.BENCH_LOCOMO_DIR ?? DEFAULT_LOCOMO_DIR;
const CORPUS = process.env.BENCH_RECALL_CORPUS ?? (existsSync(LOCOMO_DIR) ? 'conversational' : 'synthetic');
if (CORPUS !== 'conversational' && CORPUS !== 'synthetic')
  throw new Error(`BENCH_RECALL_CORPUS must be conversational or synthetic, not ${CORPUS}`);
const conversations = CORPUS === 'conversational' ? loadConversations(LOCOMO_DIR) : [];
const memoriesFor = (count: number, seed: number) =>
  CORPUS === 'conversational' ? conversationalMemories(conversations, count, seed) : syntheticMemories(count, seed);

// BENCH_RECALL_STORE reuses a store kept by an earlier run (BENCH_KEEP=1): no seeding, for quick re-measures.
const reused = process.env.BENCH_RECALL_STORE ?? null;
const store = reused ?? `bench-recall-${randomUUID()}`;
const base = loadConfig();
// Its own queue keys, so a running service's workers never take this benchmark's jobs.
// Its own store only: the embedding backfill never walks other stores' memories while the benchmark waits.
const config = {
  ...base,
  port: 0,
  scopeStores: [store],
  subconscious: { ...base.subconscious, queuePrefix: `bench-recall-${randomUUID().slice(0, 8)}` },
};
const app = await createApp(config, { embeddingWorker: true });
const server = await startGraphQLServer(await buildGraphQLSchema(), app.ports, '127.0.0.1', 0);

const gql = graphqlClient(server.url);

const seedStart = performance.now();
for (let i = 0; i < (reused ? 0 : SIZE); i += 1000) {
  const inputs = memoriesFor(Math.min(1000, SIZE - i), 100 + i).map((m, j) => ({
    ...m,
    store,
    sessionId: `s${Math.floor((i + j) / 50)}`,
  }));
  await gql('mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }', { inputs });
}
await app.bus.idle();
const seedSeconds = (performance.now() - seedStart) / 1000;
console.log(`seeded ${SIZE} memories in ${seedSeconds.toFixed(1)} s`);
// The embedding job runs alongside the stores; wait until every memory has its vector.
const model = await (app.embedder as { start?: () => Promise<{ state: string }> }).start?.();
if (model?.state !== 'ready' || !app.embeddings)
  throw new Error(`the embedding model is not ready (${JSON.stringify(app.embedder.status())})`);
await app.embeddings.idle(3 * 3600_000);
await app.bus.idle();
const embeddedSeconds = (performance.now() - seedStart) / 1000;
const counting = app.driver.session({ database: config.neo4j.database });
const withVectors = Number(
  (
    await counting.run('MATCH (m:Memory) WHERE m.store = $store AND m.embedding IS NOT NULL RETURN count(m) AS n', {
      store,
    })
  ).records[0]?.get('n'),
);
await counting.close();
console.log(`${withVectors} memories with vectors after ${embeddedSeconds.toFixed(1)} s`);

const random = rng(9);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
const PEOPLE = ['Ana', 'Ben', 'Caro', 'Dev', 'Hana', 'Kai', 'Lena', 'Omar', 'Sana', 'Tom'];
const THINGS = [
  'the garden',
  'a new recipe',
  'the release notes',
  'the trip to Lisbon',
  'the budget',
  'a painting',
  'the broken bike',
  'the concert',
  'the school project',
  'the doctor visit',
  'the move',
  'the marathon',
  'a novel',
  'the roof',
  'the database migration',
];
const FORMS = [
  (p: string, t: string) => `What did ${p} and I decide about ${t}?`,
  (p: string, t: string) => `When did ${p} last mention ${t}?`,
  (p: string, t: string) => `What do I remember about ${t} with ${p}?`,
  (p: string, t: string) => `How did ${p} feel about ${t}?`,
  (p: string, t: string) => `Tell me what happened with ${t} and ${p}`,
];
const asked = conversationalQuestions(conversations);
const question = () => (CORPUS === 'conversational' ? pick(asked) : pick(FORMS)(pick(PEOPLE), pick(THINGS)));
const SEARCH =
  'query ($input: SearchInput!) { search(input: $input) { frame hits { confidence activation memory ' +
  '{ id content } } } }';
const results: Record<string, unknown> = {};
async function measure(name: string, run: (query: string) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 20; i++) await run(question()); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const query = question();
    const start = performance.now();
    await run(query);
    samples.push(performance.now() - start);
  }
  results[name] = summarise(samples);
  console.log(name, results[name]);
}
await measure('search (all signals: text, meaning, associations)', (query) =>
  gql(SEARCH, { input: { store, query, limit: 10 } }),
);
await measure('search, no associations', (query) =>
  gql(SEARCH, { input: { store, query, limit: 10, includeAssociations: false } }),
);
// The same store served by a process without the model: recall is lexical (text, people, dates, associations).
const lexicalApp = await createApp(
  { ...config, embeddings: { ...config.embeddings, enabled: false } },
  { embeddingWorker: false },
);
const lexicalServer = await startGraphQLServer(await buildGraphQLSchema(), lexicalApp.ports, '127.0.0.1', 0);
const lexicalGql = graphqlClient(lexicalServer.url);
await measure('search, lexical (the service without the model)', (query) =>
  lexicalGql(SEARCH, { input: { store, query, limit: 10 } }),
);
await lexicalServer.stop();
await lexicalApp.close();

// In process (no HTTP): what meaning costs, against the same ranking without a query vector.
const filters = { tiers: null, from: null, to: null, tags: null, people: null, sessionId: null };
const recallWith = (embed: boolean) =>
  new Recall(embed ? app.recallDeps : { ...app.recallDeps, embedQuery: undefined });
for (const [name, recall] of [
  ['rankOnly, lexical (no model)', recallWith(false)],
  ['rankOnly, with meaning', recallWith(true)],
] as const) {
  await measure(name, (query) =>
    recall.rankOnly({ query, store, limit: 10, includeAssociations: true, minConfidence: null, filters }),
  );
}

if (process.env.BENCH_KEEP) console.log(`kept store ${store} (BENCH_KEEP)`);
else {
  const session = app.driver.session({ database: config.neo4j.database });
  await session.run('MATCH (n) WHERE n.store = $store CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS', {
    store,
  });
  await session.close();
}
await server.stop();
await app.close();
await deleteKeysWithPrefix(config.redisUrl, config.subconscious.queuePrefix);

/** The vector index's Lucene segments (each search walks every one), when this machine runs Neo4j. */
function vectorSegments(): number | null {
  const dir = join(process.env.TOTAL_RECALL_DATA || '.data', 'neo4j', 'data', 'databases', 'neo4j', 'schema', 'index');
  if (process.env.NEO4J_URI || !existsSync(dir)) return null;
  // One folder per index provider: vector-2.0 (Neo4j 5), vector-2026.08 (the store as filter property), …
  const providers = readdirSync(dir).filter((p) => p.startsWith('vector-'));
  return providers.reduce(
    (n, provider) =>
      readdirSync(join(dir, provider)).reduce((m, index) => {
        const segments = join(dir, provider, index, '1');
        return m + (existsSync(segments) ? readdirSync(segments).filter((f) => f.endsWith('.si')).length : 0);
      }, n),
    0,
  );
}
const segments = vectorSegments();

writeResults(
  CORPUS === 'conversational' ? 'recall' : 'recall-synthetic',
  {
    memories: SIZE,
    corpus: CORPUS,
    seedSeconds,
    embeddedSeconds,
    withVectors,
    vectorIndexSegments: segments,
    target: { searchP95Ms: 30 },
    results,
  },
  `Store of ${SIZE.toLocaleString('en')} memories, corpus ${CORPUS} (bench/corpus.ts), every one embedded by the ` +
    `service's embedding job (${withVectors.toLocaleString('en')} vectors; ` +
    (reused
      ? 'seeded and embedded by an earlier run and reused (BENCH_RECALL_STORE)'
      : `stored in ${seedSeconds.toFixed(0)} s, all embedded after ${embeddedSeconds.toFixed(0)} s`) +
    '). A store this large is searched through the Neo4j vector index ' +
    `(docs/recall.md)${segments === null ? '' : `, here in ${segments} Lucene segments`}. ` +
    `${SAMPLES} searches per row, limit 10, ` +
    (CORPUS === 'conversational'
      ? `memories recombined from the ${conversations.length} LoCoMo conversations' turns (one turn each, four in ` +
        `ten with a sentence of another turn), questions drawn from their ${asked.length} non-adversarial questions`
      : 'questions generated from 5 forms × 10 people × 15 topics (750 distinct)') +
    ' (a repeat hits the query-vector cache, as a repeated question would in service); GraphQL rows over loopback ' +
    'HTTP with the client (node:http, connections kept alive) in the same process.\n\n' +
    markdownTable(
      ['query', 'n', 'p50 ms', 'p95 ms', 'p99 ms'],
      Object.entries(results).map(([k, v]: [string, any]) => [k, v.n, v.p50, v.p95, v.p99]),
    ) +
    '\n\nTargets: search p95 under 30 ms at 100k memories with vectors (issue 7); under 25 ms lexically (issue 6).',
);
