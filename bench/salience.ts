/**
 * Salience decay sweeps: throughput (memories/s) of a sweep of one store at
 * 100k and 1M memories, and store/search latency through GraphQL while a sweep
 * runs. Run: npm run bench:salience (under flock /tmp/total-recall-bench.lock;
 * `npm run bench` takes the lock itself). BENCH_SALIENCE_LEVELS=100000,1000000.
 *
 * The memories are seeded straight into Neo4j with UNWIND (benchmark set-up,
 * not the code under test), spread over tiers and ages the way a lived-in store
 * looks: working memory hours old, long-term weeks, archive years. Sweeps are
 * scoped to the bench store, so other data in the database is never touched.
 */
import 'reflect-metadata';
import neo4j from 'neo4j-driver';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';
import { buildGraphQLSchema, startGraphQLServer } from '../src/adapters/graphql/index.js';
import { message, storeKeyOf } from '../src/domain/index.js';
import { markdownTable, summarise, type LatencySummary, writeResults } from './lib.js';
import { startBench } from './conditions.js';

// The machine must be quiet (or BENCH_BUSY_OK=1); the results file records how it was.
await startBench();

const LEVELS = (process.env.BENCH_SALIENCE_LEVELS ?? '100000,1000000').split(',').map(Number);
const PROBES = Number(process.env.BENCH_SALIENCE_PROBES ?? 200);
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

const config = { ...loadConfig(), port: 0 };
const app = await createApp(config);
const server = await startGraphQLServer(await buildGraphQLSchema(), app.ports, '127.0.0.1', 0);
let store = `bench-salience-${randomUUID()}`;
const db = { database: config.neo4j.database };

const PEOPLE = ['Ana', 'Ben', 'Caro', 'Dev', 'Eli', 'Farah', 'Gus', 'Hana', 'Ivo', 'Jun', 'Kai', 'Lena'];
const VERBS = ['talked about', 'planned', 'finished', 'argued over', 'remembered', 'fixed', 'visited', 'wrote about'];
const OBJECTS = [
  'the garden',
  'a new recipe',
  'the release notes',
  'the trip to Lisbon',
  'the budget',
  'the broken bike',
  'the concert',
  'the roof',
];

// Tiers by a hash of i: 2% IDENTITY_CORE, 8% ACTIVE_CONTEXT (0–3 h old), 60% LONG_TERM (0–60 days),
// 30% ARCHIVE (0–3 years); 10% claimed; 0–3 reads each.
const SEED = `
UNWIND range($from, $to - 1) AS i
WITH i, (i * 2654435761) % 1000 AS h, toFloat((i * 40503) % 100000) / 100000.0 AS u, (i * 48271) % 40 AS k
WITH i, h, k, CASE WHEN h < 20 THEN 'IDENTITY_CORE' WHEN h < 100 THEN 'ACTIVE_CONTEXT'
                   WHEN h < 700 THEN 'LONG_TERM' ELSE 'ARCHIVE' END AS tier, u
WITH i, k, tier, $now - toInteger(u * CASE tier WHEN 'ACTIVE_CONTEXT' THEN 3 * 3600000 WHEN 'LONG_TERM' THEN 60 * $day
                                                WHEN 'ARCHIVE' THEN 1095 * $day ELSE 1095 * $day END) AS created
CREATE (m:Memory {
  id: 'mem_' + randomUUID(), store: $store, storeKey: $storeKey,
  content: $people[i % size($people)] + ' and I ' + $verbs[(i / 7) % size($verbs)] + ' '
           + $objects[(i / 3) % size($objects)] + ' (#' + toString(i) + ')',
  tier: tier, claimed: k % 10 = 0, tags: [], people: [$people[i % size($people)]], emotions: [],
  sessionId: 'bench-session-' + toString(i % 1000),
  occurredAt: datetime({epochMillis: created}), createdAt: datetime({epochMillis: created}),
  claimedAt: CASE WHEN k % 10 = 0 THEN datetime({epochMillis: created}) END,
  accessCount: k % 4,
  lastAccessedAt: CASE WHEN k % 4 > 0 THEN datetime({epochMillis: created + ($now - created) / 2}) END
})`;

let seeded = 0;
/** Seeds a fresh store with `count` memories (each level starts clean). */
async function seed(count: number): Promise<number> {
  await cleanUp();
  store = `bench-salience-${randomUUID()}`;
  seeded = 0;
  const start = performance.now();
  const params = {
    store,
    storeKey: storeKeyOf(store),
    now: neo4j.int(Date.now()),
    day: neo4j.int(DAY),
    people: PEOPLE,
    verbs: VERBS,
    objects: OBJECTS,
  };
  for (; seeded < count; seeded = Math.min(count, seeded + 20_000)) {
    await app.driver.executeQuery(
      SEED,
      { ...params, from: neo4j.int(seeded), to: neo4j.int(Math.min(count, seeded + 20_000)) },
      db,
    );
  }
  await app.driver.executeQuery('CALL db.awaitIndexes(600)', {}, db);
  return (performance.now() - start) / 1000;
}

/** Batched clean-up of the bench store: memories, their events, the sweep cursor. */
async function cleanUp(): Promise<void> {
  const session = app.driver.session(db);
  try {
    await session.run(
      'MATCH (m:Memory {store: $store}) CALL { WITH m DETACH DELETE m } IN TRANSACTIONS OF 10000 ROWS',
      { store },
    );
    await session.run('MATCH (e:Event {store: $store}) CALL { WITH e DETACH DELETE e } IN TRANSACTIONS OF 10000 ROWS', {
      store,
    });
    await session.run('MATCH (c:SweepCursor {key: $store}) DELETE c', { store });
  } finally {
    await session.close();
  }
}

async function gql(query: string, variables: Record<string, unknown>): Promise<void> {
  const res = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
}

const STORE = 'mutation ($input: StoreInput!) { store(input: $input) { id salience } }';
const SEARCH = 'query ($input: SearchInput!) { search(input: $input) { hits { salience confidence } } }';
let probeSeq = 0;

/** Sequential store and search requests until `until` resolves (or `count` of each). */
async function probe(
  until: Promise<unknown> | null,
  count = PROBES,
): Promise<{ store: LatencySummary; search: LatencySummary | null }> {
  let running = true;
  void until?.finally(() => (running = false));
  const stores: number[] = [];
  const searches: number[] = [];
  let searchWorks = true;
  while (until ? running : stores.length < count) {
    const n = probeSeq++;
    let start = performance.now();
    await gql(STORE, {
      input: { store, content: `probe ${n}: ${PEOPLE[n % PEOPLE.length]} planned the roof`, tier: 'LONG_TERM' },
    });
    stores.push(performance.now() - start);
    if (!searchWorks) continue;
    start = performance.now();
    try {
      await gql(SEARCH, {
        input: { store, query: `${PEOPLE[n % PEOPLE.length]} ${OBJECTS[n % OBJECTS.length]}`, limit: 10 },
      });
      searches.push(performance.now() - start);
    } catch (error) {
      console.warn(`search unavailable, measuring store only: ${String(error).slice(0, 200)}`);
      searchWorks = false;
    }
  }
  await app.bus.idle();
  return { store: summarise(stores), search: searches.length ? summarise(searches) : null };
}

const sweep = async (now: number) => {
  const report = await app.bus.ask(message('SweepDecay', { store, now }, 'subconscious'));
  await app.bus.idle();
  return { ...report, perSecond: Math.round(report.scanned / (report.ms / 1000)) };
};

const results: Record<string, unknown>[] = [];
try {
  for (const level of LEVELS) {
    const seedSeconds = await seed(level);
    console.log(`store has ${level} memories (seeded in ${seedSeconds.toFixed(1)} s)`);
    const idle = await probe(null);
    console.log(`idle: store p95 ${idle.store.p95} ms, search p95 ${idle.search?.p95 ?? '–'} ms`);
    const loadBefore = loadavg()[0] ?? 0;
    const now = Date.now();
    const first = await sweep(now);
    console.log(
      `first sweep: ${first.scanned} in ${first.ms} ms = ${first.perSecond}/s (${first.updated} written, ` +
        `${first.promoted}↑ ${first.demoted}↓)`,
    );
    const cadence = await sweep(now + 15 * MINUTE);
    console.log(
      `15 minutes later: ${cadence.perSecond}/s (${cadence.updated} written, ${cadence.promoted}↑ ${cadence.demoted}↓)`,
    );
    const running = sweep(now + DAY);
    const during = await probe(running);
    const later = await running;
    console.log(
      `a day later, under load: ${later.perSecond}/s (${later.updated} written, ${later.promoted}↑ ` +
        `${later.demoted}↓); store p95 ${during.store.p95} ms, search p95 ${during.search?.p95 ?? '–'} ms`,
    );
    const again = await sweep(now + DAY);
    console.log(`same sweep again (idempotent, writes ${again.updated}): ${again.perSecond}/s`);
    // The machine is shared: other work on its two cores shows up here.
    const load = [Math.round(loadBefore * 100) / 100, Math.round((loadavg()[0] ?? 0) * 100) / 100];
    results.push({ memories: level, seedSeconds, loadAverage1m: load, idle, first, cadence, later, during, again });
  }
} finally {
  await cleanUp();
  await server.stop();
  await app.close();
}

const ms = (s: LatencySummary | null | undefined, key: 'p50' | 'p95') => (s ? s[key] : '–');
const sweepCell = (r: any) =>
  `${r.perSecond.toLocaleString('en')}/s, ${(r.ms / 1000).toFixed(1)} s (${r.updated.toLocaleString('en')} written, ` +
  `${(r.promoted + r.demoted).toLocaleString('en')} moves)`;
const sweepRows = results.flatMap((r: any) => [
  [
    r.memories.toLocaleString('en'),
    'first sweep (every score written)',
    sweepCell(r.first),
    r.loadAverage1m.join(' → '),
  ],
  [r.memories.toLocaleString('en'), '15 minutes later (the default cadence)', sweepCell(r.cadence), ''],
  [r.memories.toLocaleString('en'), 'a day later, under store/search load', sweepCell(r.later), ''],
  [r.memories.toLocaleString('en'), 'the same sweep again (idempotent)', sweepCell(r.again), ''],
]);
const latencyRows = results.map((r: any) => [
  r.memories.toLocaleString('en'),
  `${ms(r.idle.store, 'p50')} / ${ms(r.idle.store, 'p95')}`,
  `${ms(r.during.store, 'p50')} / ${ms(r.during.store, 'p95')}`,
  `${ms(r.idle.search, 'p50')} / ${ms(r.idle.search, 'p95')}`,
  `${ms(r.during.search, 'p50')} / ${ms(r.during.search, 'p95')}`,
  `${r.idle.store.n} / ${r.during.store.n}`,
]);
writeResults(
  'salience',
  { target: { sweepSecondsAt1M: 60 }, batch: config.salience.sweepBatch, results },
  `Sweeps of one store (SweepDecay through the bus, batches of ${config.salience.sweepBatch.toLocaleString('en')}), ` +
    'memories seeded over tiers and ages (2% IDENTITY_CORE, 8% ACTIVE_CONTEXT hours old, 60% LONG_TERM weeks, ' +
    '30% ARCHIVE years; 10% claimed; 75% read 1–3 times). The seeded memories were never scored, so the first ' +
    'sweep writes every score (and asks for the promotions their claims and reads call for); a sweep 15 minutes ' +
    'later rewrites only the scores that moved by at least 0.001; a day later most scores moved and the ' +
    "day's working memory falls to LONG_TERM and ARCHIVE; the same sweep again folds the previous run's tier " +
    'changes into anchors and changes no score.\n\n' +
    markdownTable(['memories', 'sweep', 'throughput, time', 'load average (1 min) before → after'], sweepRows) +
    '\n\nLatency of sequential GraphQL requests (client, API and sweep share one Node process, as `serve` runs ' +
    'them), idle and while the "a day later" sweep runs:\n\n' +
    markdownTable(
      [
        'memories',
        'store p50/p95 ms idle',
        'store p50/p95 ms during sweep',
        'search p50/p95 ms idle',
        'search p50/p95 ms during sweep',
        'samples idle / during',
      ],
      latencyRows,
    ) +
    '\n\nTarget: 1M memories swept in under 60 s.',
);
