/**
 * The write path under concurrency (issue 24): `store` through GraphQL from 1
 * to 64 concurrent clients, each a closed loop of single stores into one
 * fresh store: the defaults (group commit, linking paced while requests
 * run), linking unpaced (TOTAL_RECALL_SYNAPSE_BUSY_SHARE=1) and no group
 * commit (TOTAL_RECALL_STORE_GROUP_MAX=1), interleaved level by level, each
 * in a serving process of its own (`npm run serve -- --api-only`: linking on,
 * embedding jobs queued for a worker that is not running, tokens off and
 * admission lifted, so that the write path and not the front door is
 * measured). After each level its store's links are waited for, so that
 * they are not made under the next level: the results file records how long
 * that took (linking catching up), what still waited, and (startBench) the idle
 * `RETURN 1` round trip, the load average and queued jobs at the start.
 * Refuses to run on a busy machine unless BENCH_BUSY_OK=1. Run: npm run bench:writes (BENCH_WRITES_SECONDS per level,
 * default 8; BENCH_WRITES_LEVELS, default 1,2,4,8,16,32,64; BENCH_WRITES_VARIANTS, names, default all).
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import neo4j from 'neo4j-driver';
import { deleteKeysWithPrefix } from '../src/adapters/redis.js';
import { loadConfig } from '../src/config.js';
import { httpPoster, markdownTable, percentile, serveApiOnly, writeResults } from './lib.js';
import { startBench } from './conditions.js';

// The machine must be quiet (or BENCH_BUSY_OK=1); the results file records how it was.
await startBench();

const SECONDS = Number(process.env.BENCH_WRITES_SECONDS ?? 8);
const LEVELS = (process.env.BENCH_WRITES_LEVELS ?? '1,2,4,8,16,32,64').split(',').map(Number);
const config = loadConfig();
const run = randomUUID().slice(0, 8);
const prefix = `bench-writes-${run}`;
const storeOf = (variant: string) => `bench-writes-${variant}-${run}`;
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
  /** Links still pending when the level began (a level waits for its own links after it), and the load average then. */
  pendingBefore: number;
  loadBefore: number;
  /** Seconds from the level's last answer until its links were all made (linking catching up), at most 120. */
  catchUpS: number;
  /** CPU the benchmark's own clients took per answered store (ms): they share the service's cores. */
  clientCpuMs: number;
}

/** Waits (at most `limitMs`) until the store has no memory waiting for its links; returns how many still wait. */
async function linksMade(store: string, limitMs: number): Promise<number> {
  let pending = await pendingLinks(store);
  for (const end = Date.now() + limitMs; pending > 0 && Date.now() < end; pending = await pendingLinks(store))
    await new Promise((r) => setTimeout(r, 100));
  return pending;
}

async function level(url: string, store: string, clients: number): Promise<Level> {
  // Each level waits for its own links after it (below), so that their work does not run under the next one's.
  const pendingBefore = await linksMade(store, 60_000);
  const loadBefore = loadavg()[0]!;
  const ms: number[] = [];
  const errors: Record<string, number> = {};
  const end = Date.now() + SECONDS * 1000;
  const post = httpPoster(url, clients);
  const cpuBefore = process.cpuUsage();
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
        const reply = JSON.parse(await post(JSON.stringify(body))) as { errors?: { extensions?: { code?: string } }[] };
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
  const cpu = process.cpuUsage(cpuBefore);
  const caughtUpFrom = performance.now();
  await linksMade(store, 120_000);
  const catchUpS = Math.round((performance.now() - caughtUpFrom) / 100) / 10;
  return {
    clients,
    storesPerS: r1(ms.length / SECONDS),
    p50: r1(percentile(ms, 50)),
    p95: r1(percentile(ms, 95)),
    p99: r1(percentile(ms, 99)),
    errors,
    pendingBefore,
    loadBefore: Math.round(loadBefore * 100) / 100,
    catchUpS,
    clientCpuMs: Math.round((cpu.user + cpu.system) / 10 / Math.max(1, ms.length)) / 100,
  };
}

/** The serving processes compared, each with its own store; every level runs them in this order. */
const ALL_VARIANTS = [
  { name: 'grouped', what: 'group commit and paced linking (the defaults)', env: {} },
  {
    name: 'unpaced',
    what: 'group commit, linking at full pace while requests run (TOTAL_RECALL_SYNAPSE_BUSY_SHARE=1)',
    env: { TOTAL_RECALL_SYNAPSE_BUSY_SHARE: '1' },
  },
  {
    name: 'no gap waits',
    what: 'the defaults, linking not waiting for a gap between requests (TOTAL_RECALL_BACKGROUND_GAP_WAIT_MS=0)',
    env: { TOTAL_RECALL_BACKGROUND_GAP_WAIT_MS: '0' },
  },
  {
    name: 'alone',
    what: 'every store its own commit (TOTAL_RECALL_STORE_GROUP_MAX=1)',
    env: { TOTAL_RECALL_STORE_GROUP_MAX: '1' },
  },
] as const;
type Variant = (typeof ALL_VARIANTS)[number]['name'];
/** BENCH_WRITES_VARIANTS: the variants' names, comma-separated (default: all). */
const VARIANTS = ((wanted) => ALL_VARIANTS.filter((v) => !wanted || wanted.split(',').includes(v.name)))(
  process.env.BENCH_WRITES_VARIANTS,
);

async function main(): Promise<void> {
  const loadStart = loadavg();
  const env = {
    ...process.env,
    TOTAL_RECALL_QUEUE_PREFIX: prefix,
    TOTAL_RECALL_AUTH: 'off',
    TOTAL_RECALL_MAX_CONCURRENT: '100000',
    TOTAL_RECALL_MAX_QUEUED: '100000',
  };
  const servers = new Map<Variant, { url: string; stop: () => Promise<void> }>();
  const results = Object.fromEntries(VARIANTS.map((v) => [v.name, [] as Level[]])) as Record<Variant, Level[]>;
  try {
    for (const v of VARIANTS) servers.set(v.name, await serveApiOnly({ ...env, ...v.env }));
    for (const v of VARIANTS) await level(servers.get(v.name)!.url, storeOf(v.name), 2); // warm-up, not recorded
    for (const clients of LEVELS) {
      for (const v of VARIANTS) {
        const l = await level(servers.get(v.name)!.url, storeOf(v.name), clients);
        console.log(
          `${v.name}: ${clients} clients: ${l.storesPerS} stores/s, p50 ${l.p50} ms, p95 ${l.p95} ms (pending links ` +
            `before ${l.pendingBefore}, load ${l.loadBefore})`,
        );
        results[v.name].push(l);
      }
    }
  } finally {
    for (const server of servers.values()) await server.stop();
  }
  const loadEnd = loadavg();
  const memories = Object.fromEntries(
    await Promise.all(
      VARIANTS.map(
        async (v) =>
          [
            v.name,
            await count('MATCH (m:Memory {store: $store}) RETURN count(m) AS n', { store: storeOf(v.name) }),
          ] as const,
      ),
    ),
  ) as Record<Variant, number>;
  for (const v of VARIANTS) {
    for (;;) {
      const r = await driver.executeQuery(
        'MATCH (n) WHERE n.store = $store WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS n',
        { store: storeOf(v.name) },
        { database: config.neo4j.database },
      );
      if (Number(r.records[0]?.get('n') ?? 0) === 0) break;
    }
  }
  await driver.close();
  await deleteKeysWithPrefix(config.redisUrl, prefix);

  const la = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const errs = (l: Level) =>
    Object.entries(l.errors)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || 'none';
  const rows = LEVELS.flatMap((clients, i) =>
    VARIANTS.map((v) => {
      const l = results[v.name][i]!;
      return [
        clients,
        v.name,
        l.storesPerS,
        l.p50,
        l.p95,
        l.p99,
        l.catchUpS,
        l.pendingBefore,
        l.loadBefore,
        l.clientCpuMs,
        errs(l),
      ];
    }),
  );
  const md = [
    `Each client is a closed loop of single \`store\` calls through GraphQL into one fresh store, ${SECONDS} s per ` +
      `level, levels interleaved: at each level every variant in turn, each in a serving process of its own ` +
      `(\`npm run serve -- --api-only\`): ${VARIANTS.map((v) => `**${v.name}**, ${v.what}`).join('; ')}. ` +
      `Mechanical linking on; embedding jobs wait in Redis (no worker runs); tokens off and admission lifted, so ` +
      `that the write path, not the front door, is measured. The clients are one process on the same two cores, ` +
      `posting over node:http with kept-alive connections ("client CPU" is what they took per store). After each ` +
      `level its store's links were waited for (at most 120 s), so that they are not made under the next ` +
      `variant's level: "links made within" is how long that took once the clients stopped (linking catching ` +
      `up), "links pending before" what still waited when the level began.`,
    `Load average before the servers started: ${la(loadStart)}; at the end: ${la(loadEnd)} (the run's own load). ` +
      `Memories stored: ${VARIANTS.map((v) => `${memories[v.name]} ${v.name}`).join(', ')}.`,
    '',
    markdownTable(
      [
        'clients',
        'variant',
        'stores/s',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'links made within (s)',
        'links pending before',
        'load before',
        'client CPU ms/store',
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
