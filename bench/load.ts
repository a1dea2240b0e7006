/**
 * Load: throughput and p95 latency against 1 to 64 concurrent clients, each a
 * closed loop of stores (70 %) and searches (30 %), on a serving process of
 * its own (`npm run serve -- --api-only`), once with the default admission
 * control and once without it (limits far above the load). Work that admission
 * refuses (BUSY) is counted apart; its latency is not in the p95 of admitted
 * work. Writes bench/results/load.{json,md} and load.svg.
 * Run: flock /tmp/total-recall-bench.lock npm run bench:load
 * (BENCH_LOAD_SECONDS per level, default 10; BENCH_LOAD_LEVELS, default 1,2,4,8,16,32,64).
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import neo4j from 'neo4j-driver';
import { deleteKeysWithPrefix } from '../src/adapters/redis.js';
import { loadConfig } from '../src/config.js';
import { httpPoster, markdownTable, percentile, serveApiOnly, writeResults } from './lib.js';
import { startBench } from './conditions.js';

// The machine must be quiet (or BENCH_BUSY_OK=1); the results file records how it was.
await startBench();

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const LEVELS = (process.env.BENCH_LOAD_LEVELS ?? '1,2,4,8,16,32,64').split(',').map(Number);
const config = loadConfig();
const run = randomUUID().slice(0, 8);
const store = `bench-load-${run}`;
const prefix = `bench-load-${run}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The serving process of a curve: tokens off (loopback), so the clients share the process-wide limits only; the
 * per-token share is bench:fuzz's subject.
 */
const serve = (extra: Record<string, string>) =>
  serveApiOnly({ ...process.env, TOTAL_RECALL_QUEUE_PREFIX: prefix, TOTAL_RECALL_AUTH: 'off', ...extra });

interface Level {
  clients: number;
  opsPerS: number;
  p50: number;
  p95: number;
  p99: number;
  busy: number;
  busyShare: number;
  errors: Record<string, number>;
}

async function level(url: string, clients: number): Promise<Level> {
  const ms: number[] = [];
  const errors: Record<string, number> = {};
  let busy = 0;
  const end = Date.now() + SECONDS * 1000;
  const post = httpPoster(url, clients);
  const loop = async (c: number) => {
    for (let n = 0; Date.now() < end; n++) {
      const search = n % 10 < 3;
      const body = search
        ? {
            query: 'query ($q: SearchInput!) { search(input: $q) { hits { memory { id } } } }',
            variables: { q: { query: `harbour ${n % 7}`, store, limit: 5 } },
          }
        : {
            query: 'mutation ($m: StoreInput!) { store(input: $m) { id } }',
            variables: {
              m: {
                store,
                content: `Client ${c} note ${n}: boats left the harbour ${n % 7}.`,
                tags: ['load'],
                people: ['Ana'],
              },
            },
          };
      const started = performance.now();
      try {
        const reply = JSON.parse(await post(JSON.stringify(body))) as {
          errors?: { extensions?: { code?: string; retryAfterMs?: number } }[];
        };
        const code = reply.errors?.[0]?.extensions?.code;
        if (code === 'BUSY') {
          busy++;
          // A well-behaved client waits as it is told before trying again.
          await sleep(Math.min(1000, reply.errors?.[0]?.extensions?.retryAfterMs ?? 100));
        } else if (code) errors[code] = (errors[code] ?? 0) + 1;
        else ms.push(performance.now() - started);
      } catch (error) {
        const name = (error as Error).name === 'TimeoutError' ? 'client timeout' : 'connection failed';
        errors[name] = (errors[name] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, c) => loop(c)));
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    clients,
    opsPerS: r(ms.length / SECONDS),
    p50: r(percentile(ms, 50)),
    p95: r(percentile(ms, 95)),
    p99: r(percentile(ms, 99)),
    busy,
    busyShare: r((100 * busy) / Math.max(1, busy + ms.length)),
    errors,
  };
}

async function curve(name: string, extra: Record<string, string>): Promise<Level[]> {
  const { url, stop } = await serve(extra);
  const levels: Level[] = [];
  try {
    await level(url, 2); // warm-up, not recorded
    for (const clients of LEVELS) {
      const l = await level(url, clients);
      console.log(`${name}: ${clients} clients: ${l.opsPerS} ops/s, p95 ${l.p95} ms, BUSY ${l.busy}`);
      levels.push(l);
    }
  } finally {
    await stop();
  }
  return levels;
}

/** Throughput and p95 against clients (log scale), both curves. */
function svg(curves: { name: string; colour: string; levels: Level[] }[]): string {
  const W = 720;
  const H = 300;
  const pad = { l: 60, r: 60, t: 30, b: 40 };
  const xs = (c: number) => pad.l + ((W - pad.l - pad.r) * Math.log2(c)) / Math.log2(Math.max(...LEVELS));
  const maxOps = Math.max(1, ...curves.flatMap((c) => c.levels.map((l) => l.opsPerS)));
  const maxP95 = Math.max(1, ...curves.flatMap((c) => c.levels.map((l) => l.p95)));
  const yOps = (v: number) => H - pad.b - ((H - pad.t - pad.b) * v) / maxOps;
  const yP95 = (v: number) => H - pad.b - ((H - pad.t - pad.b) * v) / maxP95;
  const line = (pts: [number, number][], colour: string, dash: string) =>
    `<polyline fill="none" stroke="${colour}" stroke-width="2" ${dash ? `stroke-dasharray="${dash}"` : ''} ` +
    `points="${pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')}"/>`;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<line x1="${pad.l}" y1="${H - pad.b}" x2="${W - pad.r}" y2="${H - pad.b}" stroke="#333"/>`,
    `<line x1="${pad.l}" y1="${pad.t}" x2="${pad.l}" y2="${H - pad.b}" stroke="#333"/>`,
    `<line x1="${W - pad.r}" y1="${pad.t}" x2="${W - pad.r}" y2="${H - pad.b}" stroke="#333"/>`,
    ...LEVELS.map((c) => `<text x="${xs(c)}" y="${H - pad.b + 15}" text-anchor="middle">${c}</text>`),
    `<text x="${W / 2}" y="${H - 8}" text-anchor="middle">concurrent clients</text>`,
    `<text x="${pad.l - 8}" y="${pad.t - 10}" text-anchor="middle">ops/s (solid)</text>`,
    `<text x="${W - pad.r + 8}" y="${pad.t - 10}" text-anchor="middle">p95 ms (dashed)</text>`,
    `<text x="${pad.l - 5}" y="${pad.t + 4}" text-anchor="end">${Math.round(maxOps)}</text>`,
    `<text x="${W - pad.r + 5}" y="${pad.t + 4}">${Math.round(maxP95)}</text>`,
    ...curves.flatMap((c, i) => [
      line(
        c.levels.map((l) => [xs(l.clients), yOps(l.opsPerS)]),
        c.colour,
        '',
      ),
      line(
        c.levels.map((l) => [xs(l.clients), yP95(l.p95)]),
        c.colour,
        '5,4',
      ),
      `<text x="${pad.l + 10}" y="${pad.t + 14 + 14 * i}" fill="${c.colour}">${c.name}</text>`,
    ]),
    '</svg>',
  ];
  return `${parts.join('\n')}\n`;
}

async function main(): Promise<void> {
  const driver = neo4j.driver(
    config.neo4j.uri,
    config.neo4j.password ? neo4j.auth.basic(config.neo4j.user, config.neo4j.password) : undefined,
  );
  const rt: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    await driver.executeQuery('RETURN 1');
    rt.push(performance.now() - t);
  }
  const roundTripMs = Math.round(percentile(rt, 50) * 100) / 100;
  const loadBefore = loadavg();
  const a = config.admission;
  const on = await curve('admission on', {});
  const off = await curve('admission off', {
    TOTAL_RECALL_MAX_CONCURRENT: '100000',
    TOTAL_RECALL_MAX_QUEUED: '100000',
  });
  const loadAfter = loadavg();
  // Clean up what the benchmark stored (in batches) and its queue keys.
  for (;;) {
    const r = await driver.executeQuery(
      'MATCH (n) WHERE n.store = $store WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS n',
      { store },
    );
    if (Number(r.records[0]?.get('n') ?? 0) === 0) break;
  }
  await driver.close();
  await deleteKeysWithPrefix(config.redisUrl, prefix);

  writeFileSync(
    new URL('./results/load.svg', import.meta.url),
    svg([
      {
        name: `admission on (${a.maxConcurrent} at once, ${a.maxQueued} waiting, ${a.maxWaitMs} ms wait)`,
        colour: '#1f77b4',
        levels: on,
      },
      { name: 'admission off', colour: '#d62728', levels: off },
    ]),
  );
  const table = (levels: Level[]) =>
    markdownTable(
      ['clients', 'admitted ops/s', 'p50 ms', 'p95 ms', 'p99 ms', 'BUSY', 'BUSY share %', 'other errors'],
      levels.map((l) => [
        l.clients,
        l.opsPerS,
        l.p50,
        l.p95,
        l.p99,
        l.busy,
        l.busyShare,
        Object.entries(l.errors)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ') || 'none',
      ]),
    );
  const la = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const md = [
    `Each client is a closed loop of stores (70 %) and searches (30 %) in one store, ${SECONDS} s per level, against ` +
      `one \`npm run serve -- --api-only\` process (tokens off, so the clients share only the process-wide limits; ` +
      `embeddings on for queries; the store's embedding jobs wait in Redis, no worker). A BUSY answer is counted ` +
      `apart and the client waits its retry-after hint (at most 1 s); latencies are of admitted work only.`,
    `Idle \`RETURN 1\` round trip (median of 50): ${roundTripMs} ms. Load average before: ${la(loadBefore)}; after: ` +
      `${la(loadAfter)}.${
        loadBefore[0]! > 1.5
          ? ' **The machine was busy before the run (load average above 1.5 on 2 cores): the figures are noisy.**'
          : ' The machine was quiet before the run.'
      }`,
    '',
    '![throughput and p95 against clients](load.svg)',
    '',
    `## Admission on (defaults: TOTAL_RECALL_MAX_CONCURRENT=${a.maxConcurrent}, ` +
      `TOTAL_RECALL_MAX_QUEUED=${a.maxQueued}, TOTAL_RECALL_MAX_QUEUE_WAIT_MS=${a.maxWaitMs})`,
    '',
    table(on),
    '',
    '## Admission off (limits far above the load)',
    '',
    table(off),
  ].join('\n');
  writeResults(
    'load',
    { settings: { SECONDS, LEVELS, admission: a }, roundTripMs, loadBefore, loadAfter, on, off },
    md,
  );
}

main().catch((error: unknown) => {
  console.error(`error: ${(error as Error).message}`);
  process.exit(1);
});
