/**
 * Hippocampus write path: `store` latency through GraphQL over HTTP, and
 * `storeMany` throughput at batch sizes 1, 100 and 1000, with 10k and then
 * 100k memories already in the store. Run: npm run bench:hippocampus
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';
import { buildGraphQLSchema, startGraphQLServer } from '../src/adapters/graphql/index.js';
import { graphqlClient, markdownTable, summarise, timed, writeResults } from './lib.js';
import { syntheticMemories } from './corpus.js';
import { startBench } from './conditions.js';

// The machine must be quiet (or BENCH_BUSY_OK=1); the results file records how it was.
await startBench();

// The write path alone: Synapse's linking and the embedding job have their own
// benchmarks (bench/synapse.ts, bench/embeddings.ts); set these to on to include them.
process.env.TOTAL_RECALL_SYNAPSE_MECHANICAL ??= 'off';
process.env.TOTAL_RECALL_EMBEDDINGS ??= 'off';

const STORE_SAMPLES = Number(process.env.BENCH_STORE_SAMPLES ?? 500);
const LEVELS = (process.env.BENCH_LEVELS ?? '10000,100000').split(',').map(Number);

const config = { ...loadConfig(), port: 0 };
const app = await createApp(config);
const server = await startGraphQLServer(await buildGraphQLSchema(), app.ports, '127.0.0.1', 0);
const store = `bench-hippocampus-${randomUUID()}`;

// Over node:http with a kept-alive connection (bench/lib.ts): the client shares this process with the service.
const client = graphqlClient(server.url);
async function gql(query: string, variables: Record<string, unknown>): Promise<void> {
  await client(query, variables);
}

const STORE = 'mutation ($input: StoreInput!) { store(input: $input) { id } }';
const STORE_MANY = 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }';

let seeded = 0;
let seed = 1;
async function growTo(count: number): Promise<void> {
  while (seeded < count) {
    const batch = syntheticMemories(Math.min(1000, count - seeded), seed++).map((m) => ({ ...m, store }));
    await gql(STORE_MANY, { inputs: batch });
    seeded += batch.length;
  }
  await app.bus.idle();
}

const results: Record<string, unknown>[] = [];
for (const level of LEVELS) {
  const t0 = performance.now();
  await growTo(level);
  console.log(`store has ${level} memories (seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);

  const latencies: number[] = [];
  for (const m of syntheticMemories(STORE_SAMPLES, seed++)) {
    const [, ms] = await timed(() => gql(STORE, { input: { ...m, store } }));
    latencies.push(ms);
  }
  seeded += STORE_SAMPLES;
  await app.bus.idle();
  const store1 = summarise(latencies);
  console.log(`store: p50 ${store1.p50} ms, p95 ${store1.p95} ms`);

  const throughput: Record<string, number> = {};
  for (const batchSize of [1, 100, 1000]) {
    const total = batchSize === 1 ? 500 : batchSize === 100 ? 5000 : 10000;
    const memories = syntheticMemories(total, seed++).map((m) => ({ ...m, store }));
    const start = performance.now();
    for (let i = 0; i < total; i += batchSize) await gql(STORE_MANY, { inputs: memories.slice(i, i + batchSize) });
    await app.bus.idle();
    const seconds = (performance.now() - start) / 1000;
    seeded += total;
    throughput[`batch${batchSize}`] = Math.round(total / seconds);
    console.log(`storeMany batch ${batchSize}: ${throughput[`batch${batchSize}`]} memories/s`);
  }
  results.push({ memoriesInStore: level, store: store1, storeManyPerSecond: throughput });
}

await app.driver
  .executeQuery(
    'MATCH (n) WHERE n.store = $store CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS',
    { store },
    { database: config.neo4j.database },
  )
  .catch(async () => {
    // Older planners refuse IN TRANSACTIONS inside executeQuery's implicit transaction: use a session.
    const session = app.driver.session({ database: config.neo4j.database });
    await session.run(
      'MATCH (n) WHERE n.store = $store CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS',
      { store },
    );
    await session.close();
  });
await server.stop();
await app.close();

const rows = results.map((r: any) => [
  r.memoriesInStore,
  r.store.p50,
  r.store.p95,
  r.storeManyPerSecond.batch1,
  r.storeManyPerSecond.batch100,
  r.storeManyPerSecond.batch1000,
]);
writeResults(
  'hippocampus',
  { targets: { storeP95Ms: 10, storeManyPerSecond: 5000 }, results },
  `Client and server in one Node process over loopback HTTP (node:http, a kept-alive connection); each \`store\` ` +
    `is one GraphQL request, sequential. ` +
    `Mechanical linking ${process.env.TOTAL_RECALL_SYNAPSE_MECHANICAL}, embeddings ` +
    `${process.env.TOTAL_RECALL_EMBEDDINGS} (see bench/results/synapse.md for linking).\n\n` +
    markdownTable(
      ['memories in store', 'store p50 ms', 'store p95 ms', 'storeMany/s batch 1', 'batch 100', 'batch 1000'],
      rows,
    ) +
    `\n\nTargets: store p95 < 10 ms; storeMany ≥ 5,000 memories/s.`,
);
