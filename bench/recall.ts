/**
 * Search latency at scale: a synthetic store of 100k memories (configurable),
 * embedded by the service's own embedding job, then `search` through GraphQL
 * over loopback HTTP with everyday questions (750 distinct ones), and in
 * process with and without meaning.
 * Run: npm run bench:recall   (BENCH_KEEP=1 keeps the store; BENCH_RECALL_STORE=… reuses it)
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { deleteKeysWithPrefix } from '../src/adapters/redis.js';
import { Recall } from '../src/contexts/recall/index.js';
import { createApp } from '../src/app.js';
import { buildGraphQLSchema, startGraphQLServer } from '../src/adapters/graphql/index.js';
import { markdownTable, rng, summarise, writeResults } from './lib.js';
import { syntheticMemories } from './corpus.js';

const SIZE = Number(process.env.BENCH_RECALL_MEMORIES ?? 100_000);
const SAMPLES = Number(process.env.BENCH_RECALL_SAMPLES ?? 500);

const base = loadConfig();
// Its own queue keys, so a running service's workers never take this benchmark's jobs.
const config = { ...base, port: 0, subconscious: { ...base.subconscious, queuePrefix: `bench-recall-${randomUUID().slice(0, 8)}` } };
const app = await createApp(config, { embeddingWorker: true });
const server = await startGraphQLServer(await buildGraphQLSchema(), app.ports, '127.0.0.1', 0);
// BENCH_RECALL_STORE reuses a store kept by an earlier run (BENCH_KEEP=1): no seeding, for quick re-measures.
const reused = process.env.BENCH_RECALL_STORE ?? null;
const store = reused ?? `bench-recall-${randomUUID()}`;

async function gql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data: T; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

const seedStart = performance.now();
for (let i = 0; i < (reused ? 0 : SIZE); i += 1000) {
  const inputs = syntheticMemories(Math.min(1000, SIZE - i), 100 + i).map((m, j) => ({ ...m, store, sessionId: `s${Math.floor((i + j) / 50)}` }));
  await gql('mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }', { inputs });
}
await app.bus.idle();
const seedSeconds = (performance.now() - seedStart) / 1000;
console.log(`seeded ${SIZE} memories in ${seedSeconds.toFixed(1)} s`);
// The embedding job runs alongside the stores; wait until every memory has its vector.
const model = await (app.embedder as { start?: () => Promise<{ state: string }> }).start?.();
if (model?.state !== 'ready' || !app.embeddings) throw new Error(`the embedding model is not ready (${JSON.stringify(app.embedder.status())})`);
await app.embeddings.idle(3 * 3600_000);
await app.bus.idle();
const embeddedSeconds = (performance.now() - seedStart) / 1000;
const counting = app.driver.session({ database: config.neo4j.database });
const withVectors = Number((await counting.run('MATCH (m:Memory) WHERE m.store = $store AND m.embedding IS NOT NULL RETURN count(m) AS n', { store })).records[0]?.get('n'));
await counting.close();
console.log(`${withVectors} memories with vectors after ${embeddedSeconds.toFixed(1)} s`);

const random = rng(9);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
const PEOPLE = ['Ana', 'Ben', 'Caro', 'Dev', 'Hana', 'Kai', 'Lena', 'Omar', 'Sana', 'Tom'];
const THINGS = ['the garden', 'a new recipe', 'the release notes', 'the trip to Lisbon', 'the budget', 'a painting', 'the broken bike', 'the concert', 'the school project', 'the doctor visit', 'the move', 'the marathon', 'a novel', 'the roof', 'the database migration'];
const FORMS = [
  (p: string, t: string) => `What did ${p} and I decide about ${t}?`,
  (p: string, t: string) => `When did ${p} last mention ${t}?`,
  (p: string, t: string) => `What do I remember about ${t} with ${p}?`,
  (p: string, t: string) => `How did ${p} feel about ${t}?`,
  (p: string, t: string) => `Tell me what happened with ${t} and ${p}`,
];
const question = () => pick(FORMS)(pick(PEOPLE), pick(THINGS));
const SEARCH = 'query ($input: SearchInput!) { search(input: $input) { frame hits { confidence activation memory { id content } } } }';
const variants: Record<string, Record<string, unknown>> = {
  'search (all signals: text, meaning, associations)': {},
  'search, no associations': { includeAssociations: false },
};
const results: Record<string, unknown> = {};
for (const [name, extra] of Object.entries(variants)) {
  for (let i = 0; i < 20; i++) await gql(SEARCH, { input: { store, query: question(), ...extra } }); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const query = question();
    const start = performance.now();
    await gql(SEARCH, { input: { store, query, limit: 10, ...extra } });
    samples.push(performance.now() - start);
  }
  results[name] = summarise(samples);
  console.log(name, results[name]);
}

// In process (no HTTP): what meaning costs, against the same ranking without a query vector.
const filters = { tiers: null, from: null, to: null, tags: null, people: null, sessionId: null };
const recallWith = (embed: boolean) => new Recall(embed ? app.recallDeps : { ...app.recallDeps, embedQuery: undefined });
for (const [name, recall] of [['rankOnly, lexical (no model)', recallWith(false)], ['rankOnly, with meaning', recallWith(true)]] as const) {
  for (let i = 0; i < 20; i++) await recall.rankOnly({ query: question(), store, limit: 10, includeAssociations: true, minConfidence: null, filters });
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const query = question();
    const start = performance.now();
    await recall.rankOnly({ query, store, limit: 10, includeAssociations: true, minConfidence: null, filters });
    samples.push(performance.now() - start);
  }
  results[name] = summarise(samples);
  console.log(name, results[name]);
}

if (process.env.BENCH_KEEP) console.log(`kept store ${store} (BENCH_KEEP)`);
else {
  const session = app.driver.session({ database: config.neo4j.database });
  await session.run('MATCH (n) WHERE n.store = $store CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS', { store });
  await session.close();
}
await server.stop();
await app.close();
await deleteKeysWithPrefix(config.redisUrl, config.subconscious.queuePrefix);

writeResults(
  'recall',
  { memories: SIZE, seedSeconds, embeddedSeconds, withVectors, target: { searchP95Ms: 30 }, results },
  `Synthetic store of ${SIZE.toLocaleString('en')} memories (bench/corpus.ts), every one embedded by the service's embedding job ` +
    `(${withVectors.toLocaleString('en')} vectors; ${reused ? 'seeded and embedded by an earlier run and reused (BENCH_RECALL_STORE)' : `stored in ${seedSeconds.toFixed(0)} s, all embedded after ${embeddedSeconds.toFixed(0)} s`}). ` +
    `A store this large is searched through the Neo4j vector index (docs/recall.md). ${SAMPLES} searches per row, limit 10, ` +
    'questions generated from 5 forms × 10 people × 15 topics (750 distinct: a repeat hits the query-vector cache, as a repeated question would in service); GraphQL rows over loopback HTTP with the client in the same process.\n\n' +
    markdownTable(['query', 'n', 'p50 ms', 'p95 ms', 'p99 ms'], Object.entries(results).map(([k, v]: [string, any]) => [k, v.n, v.p50, v.p95, v.p99])) +
    '\n\nTarget: search p95 under 30 ms at 100k memories with vectors.',
);
