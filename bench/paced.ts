/**
 * One client storing at a steady pace (issue 24's single-store target: p95 < 10 ms at 20 stores/s, with linking
 * and embeddings on). Each variant is the whole service as `npm start` runs it (requests, the model and the
 * background workers in one process), started on its own, warmed with uncounted stores, then:
 *   - `{ __typename }` at the same pace: the HTTP and GraphQL floor of the same process;
 *   - single `store` calls through GraphQL into a fresh store, one every 1/rate s (not a closed loop: a slow
 *     answer does not delay the next store);
 *   - how long after the last store its memories all had vectors and links (background work catching up).
 * Variants interleaved over rounds; everything a variant stored is deleted before the next starts, so no
 * backfill of another variant's memories runs under it. Refuses to run on a busy machine unless BENCH_BUSY_OK=1.
 * Run: npm run bench:paced (BENCH_PACED_RATE stores/s, default 20; BENCH_PACED_STORES, default 600;
 * BENCH_PACED_ROUNDS, default 3, after an unrecorded warm-up round with a third as many stores).
 */
import { randomUUID } from 'node:crypto';
import neo4j from 'neo4j-driver';
import { deleteKeysWithPrefix } from '../src/adapters/redis.js';
import { loadConfig } from '../src/config.js';
import { startBench } from './conditions.js';
import { deleteStores, httpPoster, markdownTable, percentile, serveWithWorkers, writeResults } from './lib.js';

await startBench();

const RATE = Number(process.env.BENCH_PACED_RATE ?? 20);
const STORES = Number(process.env.BENCH_PACED_STORES ?? 600);
const ROUNDS = Number(process.env.BENCH_PACED_ROUNDS ?? 3);
const WARM_UP = 150;
const PINGS = 200;
const config = loadConfig();
const run = randomUUID().slice(0, 8);
const r1 = (x: number) => Math.round(x * 10) / 10;

const VARIANTS = [
  { name: 'defaults', what: 'linking and embeddings on, as `npm start` runs', env: {} },
  {
    name: 'no gap waits',
    what: 'the defaults with TOTAL_RECALL_BACKGROUND_GAP_WAIT_MS=0 (background work starts whenever it is due)',
    env: { TOTAL_RECALL_BACKGROUND_GAP_WAIT_MS: '0' },
  },
  {
    name: 'no linking',
    what: 'TOTAL_RECALL_SYNAPSE_MECHANICAL=off',
    env: { TOTAL_RECALL_SYNAPSE_MECHANICAL: 'off' },
  },
  { name: 'no embeddings', what: 'TOTAL_RECALL_EMBEDDINGS=off', env: { TOTAL_RECALL_EMBEDDINGS: 'off' } },
  {
    name: 'neither',
    what: 'embeddings and mechanical linking off: the store path alone',
    env: { TOTAL_RECALL_EMBEDDINGS: 'off', TOTAL_RECALL_SYNAPSE_MECHANICAL: 'off' },
  },
] as const;

const driver = neo4j.driver(
  config.neo4j.uri,
  config.neo4j.password ? neo4j.auth.basic(config.neo4j.user, config.neo4j.password) : undefined,
);
const count = async (cypher: string, params: Record<string, unknown>) =>
  Number((await driver.executeQuery(cypher, params, { database: config.neo4j.database })).records[0]?.get('n') ?? 0);
/** Memories of the store still waiting for a vector (when the variant embeds) or for their links. */
const waiting = (store: string, embeds: boolean) =>
  count(
    `MATCH (m:Memory {store: $store}) WHERE ($embeds AND m.embeddingStatus = 'PENDING') OR m.linkPendingAt IS NOT NULL
     RETURN count(m) AS n`,
    { store, embeds },
  );

/** `n` requests, one every 1/RATE s from the start; the latency of each. */
async function paced(post: (body: string) => Promise<string>, n: number, body: (i: number) => string) {
  const ms: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const wait = t0 + (i * 1000) / RATE - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const started = performance.now();
    const reply = await post(body(i));
    ms.push(performance.now() - started);
    if (reply.includes('"errors"')) throw new Error(`the service refused a request: ${reply.slice(0, 300)}`);
  }
  return ms;
}

const storeBody = (store: string) => (i: number) =>
  JSON.stringify({
    query: 'mutation ($m: StoreInput!) { store(input: $m) { id } }',
    variables: {
      m: {
        store,
        content: `Note ${i}: the ferry to island ${i % 37} left at ${i % 24} o'clock with ${i % 11} people aboard.`,
        tags: ['paced'],
        people: [`P${i % 5}`],
      },
    },
  });

const summary = (ms: number[]) => ({
  p50: r1(percentile(ms, 50)),
  p95: r1(percentile(ms, 95)),
  p99: r1(percentile(ms, 99)),
});

async function variant(v: (typeof VARIANTS)[number], round: number, stores = STORES) {
  const prefix = `bench-paced-${run}-${round}-${v.name.replace(/ /g, '-')}`;
  const store = `${prefix}-store`;
  const warmStore = `${prefix}-warm-up`;
  const server = await serveWithWorkers({
    ...process.env,
    ...v.env,
    TOTAL_RECALL_QUEUE_PREFIX: prefix,
    TOTAL_RECALL_AUTH: 'off',
  });
  try {
    const post = httpPoster(server.url, 2);
    await paced(post, WARM_UP, storeBody(warmStore));
    const ping = await paced(post, PINGS, () => JSON.stringify({ query: '{ __typename }' }));
    const latencies = await paced(post, stores, storeBody(store));
    const last = performance.now();
    const embeds = (v.env as Record<string, string>).TOTAL_RECALL_EMBEDDINGS !== 'off';
    let left = await waiting(store, embeds);
    for (const end = Date.now() + 120_000; left > 0 && Date.now() < end; left = await waiting(store, embeds))
      await new Promise((r) => setTimeout(r, 50));
    const result = {
      variant: v.name,
      round,
      ping: summary(ping),
      store: summary(latencies),
      caughtUpS: left > 0 ? null : r1((performance.now() - last) / 1000),
    };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    await server.stop();
    await deleteStores([store, warmStore], driver, config.neo4j.database);
    await deleteKeysWithPrefix(config.redisUrl, prefix);
  }
}

// A round of every variant first, not recorded: on a freshly started database the JVM compiles the statements
// during the first minutes (a first variant measured then had p95 twice that of its later rounds).
for (const v of VARIANTS) await variant(v, 0, Math.ceil(STORES / 3));
const results = [];
for (let round = 1; round <= ROUNDS; round++) for (const v of VARIANTS) results.push(await variant(v, round));
await driver.close();

writeResults(
  'paced',
  { rate: RATE, stores: STORES, rounds: ROUNDS, warmUp: WARM_UP, pings: PINGS, results },
  [
    `One client, one request every ${1000 / RATE} ms (${RATE}/s, paced from the start, not a closed loop), posting ` +
      `over node:http with a kept-alive connection to the whole service as \`npm start\` runs it (requests, the ` +
      `model and the background workers in one process; tokens off). Per variant, a process of its own: ` +
      `${WARM_UP} stores uncounted, then ${PINGS} \`{ __typename }\` (the HTTP and GraphQL floor), then ` +
      `${STORES} single \`store\` calls into a fresh store. "Caught up" is how long after the last store every ` +
      `memory had its vector and links. Variants: ${VARIANTS.map((v) => `**${v.name}**, ${v.what}`).join('; ')}. ` +
      `Interleaved over ${ROUNDS} rounds, after a round of every variant with a third as many stores, not ` +
      `recorded (the JVM of a freshly started database compiles the statements in its first minutes); ms.`,
    '',
    markdownTable(
      ['round', 'variant', 'store p50', 'store p95', 'store p99', '`__typename` p50 / p95', 'caught up (s)'],
      results.map((r) => [
        r.round,
        r.variant,
        r.store.p50,
        r.store.p95,
        r.store.p99,
        `${r.ping.p50} / ${r.ping.p95}`,
        r.caughtUpS ?? 'not within 120 s',
      ]),
    ),
    '',
    'Target (issue 24, with linking and embeddings on): single store p95 < 10 ms paced at 20/s.',
  ].join('\n'),
);
process.exit(0);
