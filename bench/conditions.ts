/**
 * What the machine was doing when a benchmark began (issue 24's hygiene): the
 * load average, the idle Neo4j round trip (`RETURN 1`, 200 in a row after 100 uncounted) and the
 * background jobs waiting or running in Redis under any prefix. A benchmark
 * calls startBench() first: on a busy machine (load average above 1.5 on 2
 * cores, or jobs waiting) it refuses to run unless BENCH_BUSY_OK=1, and
 * writeResults puts these facts in every results file.
 */
import { loadavg } from 'node:os';
import neo4j from 'neo4j-driver';
import { Redis } from 'ioredis';
import { loadConfig } from '../src/config.js';

export interface BenchConditions {
  readonly at: string;
  readonly loadAverage: readonly number[];
  /** The idle round trip, ms. */
  readonly roundTrip: { readonly p50: number; readonly p95: number };
  /** BullMQ jobs waiting or running (wait, active, prioritized), all prefixes. */
  readonly queuedJobs: number;
  /** Jobs left by an interrupted benchmark: under its own `bench-` prefix, which no worker serves any more. */
  readonly abandonedJobs: number;
  readonly busy: boolean;
  /** Run anyway on a busy machine (BENCH_BUSY_OK=1). */
  readonly busyAllowed: boolean;
}

const BUSY_LOAD = 1.5;
let recorded: BenchConditions | null = null;

/** The conditions startBench() recorded (null: it was not called). */
export function benchConditions(): BenchConditions | null {
  return recorded;
}

async function roundTrip(): Promise<{ p50: number; p95: number }> {
  const config = loadConfig();
  const driver = neo4j.driver(
    config.neo4j.uri,
    config.neo4j.password ? neo4j.auth.basic(config.neo4j.user, config.neo4j.password) : undefined,
  );
  try {
    const ms: number[] = [];
    // The first 100 are not counted: a server just started (and a new driver) answers its first few hundred
    // round trips several times slower while the JVM compiles (measured: p50 8 ms cold, 1.4 ms warm).
    for (let i = 0; i < 300; i++) {
      const started = performance.now();
      await driver.executeQuery('RETURN 1', {}, { database: config.neo4j.database });
      if (i >= 100) ms.push(performance.now() - started);
    }
    ms.sort((a, b) => a - b);
    const at = (p: number) =>
      Math.round((ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))] as number) * 100) / 100;
    return { p50: at(50), p95: at(95) };
  } finally {
    await driver.close();
  }
}

/**
 * Jobs waiting or running in the BullMQ queues of this Redis. A benchmark's queues have a prefix of their own
 * (`bench-` and a random id); when it is interrupted, its jobs stay and no worker will ever run them, so they
 * are counted apart and do not make the machine busy. Every other queue counts: the service's workers may be
 * down now and still take its jobs when a benchmark starts them.
 */
async function queuedJobs(): Promise<{ queued: number; abandoned: number }> {
  const redis = new Redis(loadConfig().redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    // A BullMQ worker names its connection "<prefix>:<queue name in base64>", with ":w:<name>" when named.
    const clients = String(await redis.call('CLIENT', 'LIST'));
    const workers = [...clients.matchAll(/\bname=(\S+)/g)].map((m) => m[1] as string);
    const served = (prefix: string, queue: string) => {
      const name = `${prefix}:${Buffer.from(queue).toString('base64')}`;
      return workers.some((w) => w === name || w.startsWith(`${name}:w:`));
    };
    let queued = 0;
    let abandoned = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', '*:*', 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const jobs = await jobsIn(redis, key);
        if (jobs === 0) continue;
        const parts = key.split(':'); // <prefix>:<queue>:<list>
        const [prefix, queue] = [parts.slice(0, -2).join(':'), parts.at(-2) as string];
        if (prefix.startsWith('bench-') && !served(prefix, queue)) abandoned += jobs;
        else queued += jobs;
      }
    } while (cursor !== '0');
    return { queued, abandoned };
  } finally {
    redis.disconnect();
  }
}

/** The jobs a BullMQ key holds, if it is a wait, active or prioritized list. */
async function jobsIn(redis: Redis, key: string): Promise<number> {
  if (key.endsWith(':wait') || key.endsWith(':active')) return redis.llen(key);
  if (key.endsWith(':prioritized')) return redis.zcard(key);
  return 0;
}

/** Measures the conditions, prints them, and exits on a busy machine unless BENCH_BUSY_OK=1. */
export async function startBench(): Promise<BenchConditions> {
  const loadAverage = loadavg().map((x) => Math.round(x * 100) / 100);
  const [rt, jobs] = await Promise.all([roundTrip(), queuedJobs()]);
  const busy = (loadAverage[0] as number) > BUSY_LOAD || jobs.queued > 0;
  const busyAllowed = process.env.BENCH_BUSY_OK === '1';
  recorded = {
    at: new Date().toISOString(),
    loadAverage,
    roundTrip: rt,
    queuedJobs: jobs.queued,
    abandonedJobs: jobs.abandoned,
    busy,
    busyAllowed,
  };
  console.log(`conditions: ${describeConditions(recorded)}`);
  if (busy && !busyAllowed) {
    console.error(
      'the machine is busy (load average above 1.5, or background jobs waiting): wait until it is quiet, or set ' +
        'BENCH_BUSY_OK=1 to measure anyway',
    );
    process.exit(2);
  }
  return recorded;
}

/** One line for a results file. */
export function describeConditions(c: BenchConditions): string {
  const state = !c.busy
    ? 'quiet'
    : c.busyAllowed
      ? '**busy** (measured anyway, BENCH_BUSY_OK=1: the figures are noisy)'
      : '**busy**';
  return (
    `at the start (${c.at}) the machine was ${state}: load average ${c.loadAverage.join(' ')}, ` +
    `idle \`RETURN 1\` p50 ${c.roundTrip.p50} ms and p95 ${c.roundTrip.p95} ms (200 in a row after 100 uncounted), ` +
    `${c.queuedJobs} background jobs waiting or running` +
    (c.abandonedJobs > 0 ? ` (and ${c.abandonedJobs} left by an interrupted benchmark, which no worker runs).` : '.')
  );
}
