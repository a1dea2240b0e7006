/**
 * Search latency at scale: a synthetic store of 100k memories (configurable),
 * then `search` through GraphQL over loopback HTTP with everyday questions.
 * Run: npm run bench:recall
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';
import { buildGraphQLSchema, startGraphQLServer } from '../src/adapters/graphql/index.js';
import { markdownTable, rng, summarise, writeResults } from './lib.js';
import { syntheticMemories } from './corpus.js';

const SIZE = Number(process.env.BENCH_RECALL_MEMORIES ?? 100_000);
const SAMPLES = Number(process.env.BENCH_RECALL_SAMPLES ?? 500);

const config = { ...loadConfig(), port: 0 };
const app = await createApp(config);
const server = await startGraphQLServer(await buildGraphQLSchema(), app.ports, '127.0.0.1', 0);
const store = `bench-recall-${randomUUID()}`;

async function gql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data: T; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

const seedStart = performance.now();
for (let i = 0; i < SIZE; i += 1000) {
  const inputs = syntheticMemories(Math.min(1000, SIZE - i), 100 + i).map((m, j) => ({ ...m, store, sessionId: `s${Math.floor((i + j) / 50)}` }));
  await gql('mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }', { inputs });
}
await app.bus.idle();
const seedSeconds = (performance.now() - seedStart) / 1000;
console.log(`seeded ${SIZE} memories in ${seedSeconds.toFixed(1)} s`);

const QUESTIONS = [
  'What did Ana cook at dinner?', 'When did we fix the broken bike?', 'Who came to the concert?', 'What happened with the database migration?',
  'Did Ben read a novel on the train?', 'What did I plan for the trip to Lisbon?', 'Which painting did Hana talk about?', 'How did the marathon go?',
  'What do I remember about the roof?', 'When was the doctor visit with Kai?', 'What did Lena and I laugh at over coffee?', 'Tell me about the school project',
];
const SEARCH = 'query ($input: SearchInput!) { search(input: $input) { frame hits { confidence activation memory { id content } } } }';
const random = rng(9);
const variants: Record<string, Record<string, unknown>> = {
  'search (all signals)': {},
  'search, no associations': { includeAssociations: false },
};
const results: Record<string, unknown> = {};
for (const [name, extra] of Object.entries(variants)) {
  for (let i = 0; i < 20; i++) await gql(SEARCH, { input: { store, query: QUESTIONS[i % QUESTIONS.length], ...extra } }); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const query = QUESTIONS[Math.floor(random() * QUESTIONS.length)];
    const start = performance.now();
    await gql(SEARCH, { input: { store, query, limit: 10, ...extra } });
    samples.push(performance.now() - start);
  }
  results[name] = summarise(samples);
  console.log(name, results[name]);
}

const session = app.driver.session({ database: config.neo4j.database });
await session.run('MATCH (n) WHERE n.store = $store CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS', { store });
await session.close();
await server.stop();
await app.close();

writeResults(
  'recall',
  { memories: SIZE, seedSeconds, target: { searchP95Ms: 25 }, results },
  `Synthetic store of ${SIZE.toLocaleString('en')} memories (bench/corpus.ts), ${SAMPLES} searches per row, limit 10, through GraphQL over loopback HTTP (client in the same process).\n\n` +
    markdownTable(['query', 'n', 'p50 ms', 'p95 ms', 'p99 ms'], Object.entries(results).map(([k, v]: [string, any]) => [k, v.n, v.p50, v.p95, v.p99])) +
    '\n\nTarget: search p95 under 25 ms at 100k memories.',
);
