/**
 * The write path under concurrency (issue 24): `store` through GraphQL from 1
 * to 64 concurrent clients, each a closed loop of single stores into one
 * fresh store, with group commit (the default) and without it
 * (TOTAL_RECALL_STORE_GROUP_MAX=1), the two interleaved level by level, each
 * in a serving process of its own (`npm run serve -- --api-only`: linking on,
 * embedding jobs queued for a worker that is not running, tokens off and
 * admission lifted, so that the write path and not the front door is
 * measured). Before each level the store's pending links are waited for; the
 * results file records what was still pending, and (startBench) the idle
 * `RETURN 1` round trip, the load average and queued jobs at the start.
 * Refuses to run on a busy machine unless BENCH_BUSY_OK=1. Run: npm run bench:writes (BENCH_WRITES_SECONDS per level,
 * default 8; BENCH_WRITES_LEVELS, default 1,2,4,8,16,32,64).
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import neo4j from 'neo4j-driver';
import { deleteKeysWithPrefix } from '../src/adapters/redis.js';
import { loadConfig } from '../src/config.js';
import { markdownTable, percentile, serveApiOnly, writeResults } from './lib.js';
import { startBench } from './conditions.js';

// The machine must be quiet (or BENCH_BUSY_OK=1); the results file records how it was.
await startBench();

const SECONDS = Number(process.env.BENCH_WRITES_SECONDS ?? 8);
const LEVELS = (process.env.BENCH_WRITES_LEVELS ?? '1,2,4,8,16,32,64').split(',').map(Number);
const config = loadConfig();
const run = randomUUID().slice(0, 8);
const prefix = `bench-writes-${run}`;
const stores = { grouped: `bench-writes-grouped-${run}`, alone: `bench-writes-alone-${run}` };
const r1 = (x: number) => Math.round(x * 10) / 10;

const driver = neo4j.driver(
  config.neo4j.uri,
  config.neo4j.password ? neo4j.auth.basic(config.neo4j.user, config.neo4j.password) : undefined,
);
const count = async (cypher: string, params: Record<string, unknown>) =>
  Number((await driver.executeQuery(cypher, params, { database: config.neo4j.database })).records[0]?.get('n') ?? 0);
/** Memories of the store still waiting for their links. */
const pendingLinks = (store: string) =>
  count('MATCH (m:Memory {store: $store}) WHERE m.linkPendingAt IS NOT NULL RETURN count(m) AS n', { store });

interface Level {
  clients: number;
  storesPerS: number;
  p50: number;
  p95: number;
  p99: number;
  errors: Record<string, number>;
  /** Links still pending when the level began, and the load average then. */
  pendingBefore: number;
  loadBefore: number;
}

async function level(url: string, store: string, clients: number): Promise<Level> {
  // The links of the level before are made first, so that their work does not run under this one.
  let pendingBefore = await pendingLinks(store);
  for (
    const end = Date.now() + 60_000;
    pendingBefore > 0 && Date.now() < end;
    pendingBefore = await pendingLinks(store)
  ) {
    await new Promise((r) => setTimeout(r, 250));
  }
  const loadBefore = loadavg()[0]!;
  const ms: number[] = [];
  const errors: Record<string, number> = {};
  const end = Date.now() + SECONDS * 1000;
  const loop = async (c: number) => {
    for (let n = 0; Date.now() < end; n++) {
      const body = {
        query: 'mutation ($m: StoreInput!) { store(input: $m) { id } }',
        variables: {
          m: {
            store,
            content: `Client ${c} note ${n}: the ferry to the island left at ${n % 24} o'clock.`,
            tags: ['writes'],
            people: [`P${c % 5}`],
          },
        },
      };
      const started = performance.now();
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        const reply = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
        const code = reply.errors?.[0]?.extensions?.code;
        if (code) errors[code] = (errors[code] ?? 0) + 1;
        else ms.push(performance.now() - started);
      } catch (error) {
        const name = (error as Error).name === 'TimeoutError' ? 'client timeout' : 'connection failed';
        errors[name] = (errors[name] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, c) => loop(c)));
  return {
    clients,
    storesPerS: r1(ms.length / SECONDS),
    p50: r1(percentile(ms, 50)),
    p95: r1(percentile(ms, 95)),
    p99: r1(percentile(ms, 99)),
    errors,
    pendingBefore,
    loadBefore: Math.round(loadBefore * 100) / 100,
  };
}

async function main(): Promise<void> {
  const loadStart = loadavg();
  const env = {
    ...process.env,
    TOTAL_RECALL_QUEUE_PREFIX: prefix,
    TOTAL_RECALL_AUTH: 'off',
    TOTAL_RECALL_MAX_CONCURRENT: '100000',
    TOTAL_RECALL_MAX_QUEUED: '100000',
  };
  const grouped = await serveApiOnly(env);
  const alone = await serveApiOnly({ ...env, TOTAL_RECALL_STORE_GROUP_MAX: '1' });
  const results = { grouped: [] as Level[], alone: [] as Level[] };
  try {
    await level(grouped.url, stores.grouped, 2); // warm-up, not recorded
    await level(alone.url, stores.alone, 2);
    for (const clients of LEVELS) {
      for (const kind of ['grouped', 'alone'] as const) {
        const l = await level(kind === 'grouped' ? grouped.url : alone.url, stores[kind], clients);
        console.log(
          `${kind}: ${clients} clients: ${l.storesPerS} stores/s, p50 ${l.p50} ms, p95 ${l.p95} ms (pending links ` +
            `before ${l.pendingBefore}, load ${l.loadBefore})`,
        );
        results[kind].push(l);
      }
    }
  } finally {
    await grouped.stop();
    await alone.stop();
  }
  const loadEnd = loadavg();
  const memories = {
    grouped: await count('MATCH (m:Memory {store: $store}) RETURN count(m) AS n', { store: stores.grouped }),
    alone: await count('MATCH (m:Memory {store: $store}) RETURN count(m) AS n', { store: stores.alone }),
  };
  for (const store of Object.values(stores)) {
    for (;;) {
      const r = await driver.executeQuery(
        'MATCH (n) WHERE n.store = $store WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS n',
        { store },
        { database: config.neo4j.database },
      );
      if (Number(r.records[0]?.get('n') ?? 0) === 0) break;
    }
  }
  await driver.close();
  await deleteKeysWithPrefix(config.redisUrl, prefix);

  const la = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const rows = LEVELS.map((clients, i) => {
    const g = results.grouped[i]!;
    const a = results.alone[i]!;
    const errs = (l: Level) =>
      Object.entries(l.errors)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none';
    return [
      clients,
      g.storesPerS,
      g.p50,
      g.p95,
      g.p99,
      a.storesPerS,
      a.p50,
      a.p95,
      a.p99,
      `${g.pendingBefore} / ${a.pendingBefore}`,
      `${g.loadBefore} / ${a.loadBefore}`,
      `${errs(g)} / ${errs(a)}`,
    ];
  });
  const md = [
    `Each client is a closed loop of single \`store\` calls through GraphQL into one fresh store, ${SECONDS} s per ` +
      `level, levels interleaved: grouped, then alone, at each level. Two serving processes (\`npm run serve -- ` +
      `--api-only\`), one with group commit (TOTAL_RECALL_STORE_GROUP_MAX=${config.storeGroupMax}, the default) ` +
      `and one without (=1). Mechanical linking on; embedding jobs wait in Redis (no worker runs); tokens off and ` +
      `admission lifted, so that the write path, not the front door, is measured. Before each level the store's ` +
      `pending links were waited for (at most 60 s): the "links pending" column says how many were still waiting.`,
    `Load average before the servers started: ${la(loadStart)}; at the end: ${la(loadEnd)} (the run's own load). ` +
      `Memories stored: ${memories.grouped} grouped, ${memories.alone} alone.`,
    '',
    markdownTable(
      [
        'clients',
        'grouped stores/s',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'alone stores/s',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'links pending before (grouped / alone)',
        'load before',
        'errors',
      ],
      rows,
    ),
    '',
    'Targets (issue 24, with linking and embeddings on): single store p95 < 10 ms paced at 20/s; ≥ 1,000 stores/s ' +
      'with 32 clients at p95 < 50 ms.',
  ].join('\n');
  writeResults(
    'writes',
    { settings: { SECONDS, LEVELS, storeGroupMax: config.storeGroupMax }, loadStart, loadEnd, memories, ...results },
    md,
  );
}

await main();
process.exit(0);
