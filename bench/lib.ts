/**
 * Shared benchmark helpers: percentiles, the machine description, writing
 * results as JSON plus a markdown table to bench/results/, and a serving
 * process of the benchmark's own.
 */
import { cpus, totalmem } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { execSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Agent, request } from 'node:http';
import type { Driver } from 'neo4j-driver';
import { deleteKeysWithPrefix } from '../src/adapters/redis.js';
import { benchConditions, describeConditions } from './conditions.js';

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export interface LatencySummary {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

export function summarise(samplesMs: readonly number[]): LatencySummary {
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    n: samplesMs.length,
    p50: round(percentile(samplesMs, 50)),
    p95: round(percentile(samplesMs, 95)),
    p99: round(percentile(samplesMs, 99)),
    // A loop, not Math.max(...samples): spreading a few hundred thousand samples overflows the stack.
    max: round(samplesMs.reduce((max, x) => Math.max(x, max), Number.NEGATIVE_INFINITY)),
  };
}

/** Times an async function once, in milliseconds. */
export async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
}

/**
 * How fast this machine runs plain JavaScript right now: seconds for 10⁹ steps
 * of an empty loop (timed over a quarter of that). The same 2-core machine
 * kind has run two to four times slower on some days than on others, so
 * results from different runs compare only alongside this number.
 */
export function loopSecondsPerBillion(): number {
  const start = performance.now();
  let sum = 0;
  for (let i = 0; i < 250_000_000; i++) sum += i;
  if (sum < 0) console.log(sum); // keeps the loop from being optimised away
  return Math.round(((performance.now() - start) * 4) / 100) / 10;
}

export function machine(): Record<string, unknown> {
  let neo4j = 'unknown';
  try {
    neo4j =
      execSync("grep -o 'NEO4J_VERSION = .[0-9.]*' scripts/services/neo4j.mjs", { encoding: 'utf8' })
        .trim()
        .split("'")[1] ?? neo4j;
  } catch {
    /* informative only */
  }
  return {
    date: new Date().toISOString(),
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    neo4j,
    loopSecondsPerBillion: loopSecondsPerBillion(),
  };
}

export function markdownTable(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  return [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** Writes bench/results/<name>.json and <name>.md. */
export function writeResults(name: string, json: Record<string, unknown>, markdownBody: string): void {
  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const info = machine();
  const conditions = benchConditions();
  writeFileSync(new URL(`${name}.json`, dir), `${JSON.stringify({ machine: info, conditions, ...json }, null, 2)}\n`);
  const started = conditions ? ` Conditions: ${describeConditions(conditions)}` : '';
  const header =
    `# ${name}\n\nMachine: ${info.cores} cores (${info.cpu}), ${info.memoryGiB} GiB, Node ${info.node}, ` +
    `Neo4j ${info.neo4j}. Date: ${info.date}. Speed: an empty JavaScript loop of 10⁹ steps took ` +
    `${info.loopSecondsPerBillion} s when the results were written.${started}\n\n`;
  writeFileSync(new URL(`${name}.md`, dir), `${header + markdownBody}\n`);
  console.log(`results written to bench/results/${name}.{json,md}`);
}

/** Deterministic pseudo-random numbers, so runs compare. */
export function rng(seed = 42): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Zipf-like pick from a list: early entries are much more common. */
export function zipfPick<T>(items: readonly T[], random: () => number, s = 1.1): T {
  const index = Math.min(items.length - 1, Math.floor(items.length ** (random() ** s)) - 1);
  return items[Math.max(0, index)] as T;
}

/** A request that took longer than the poster's timeout (its name is what the benchmarks count). */
export class ClientTimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * POSTs JSON over node:http with kept-alive connections (up to `maxSockets`),
 * as an agent's client would hold them, and resolves with the reply's text.
 * Load benchmarks run their clients on the service's own two cores, so the
 * client must be light: fetch's WHATWG streams cost this process about 0.5 ms
 * of CPU a request against 0.15 ms here (measured at 32 clients storing), a
 * quarter of a core at 1,000 requests/s taken from the service measured.
 */
export function httpPoster(url: string, maxSockets: number): (body: string, timeoutMs?: number) => Promise<string> {
  const agent = new Agent({ keepAlive: true, maxSockets });
  return (body, timeoutMs = 30_000) =>
    new Promise<string>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
          res.on('error', reject);
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new ClientTimeoutError(`no answer within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
}

/**
 * A GraphQL client over `httpPoster`. (fetch's WHATWG streams cost the same
 * process about 1 ms a request more at p50, 3 ms at p95: measured on the recall
 * benchmark, where client and service share the two cores.)
 */
export function graphqlClient(url: string): <T>(query: string, variables: Record<string, unknown>) => Promise<T> {
  const post = httpPoster(url, 8);
  return async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
    const body = JSON.parse(await post(JSON.stringify({ query, variables }))) as { data: T; errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
}

/** Deletes every node of the stores, in batches, so a large one does not fill Neo4j's transaction memory. */
export async function deleteStores(stores: Iterable<string>, driver: Driver, database: string): Promise<void> {
  for (const store of stores) {
    const session = driver.session({ database });
    await session.run('MATCH (n) WHERE n.store = $store CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS', {
      store,
    });
    await session.close();
  }
}

/**
 * The end of a benchmark that ran its own service: its stores deleted (in
 * batches, so a large one does not fill Neo4j's transaction memory), the
 * GraphQL server and the app closed, and its queues dropped from Redis.
 */
export async function dropBenchStores(
  stores: Iterable<string>,
  app: { readonly driver: Driver; close(): Promise<void> },
  server: { stop(): Promise<void> },
  config: {
    readonly neo4j: { readonly database: string };
    readonly redisUrl: string;
    readonly subconscious: { readonly queuePrefix: string };
  },
): Promise<void> {
  await deleteStores(stores, app.driver, config.neo4j.database);
  await server.stop();
  await app.close();
  await deleteKeysWithPrefix(config.redisUrl, config.subconscious.queuePrefix);
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => ok(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * `npm run serve -- --api-only` (node --import tsx src/main.ts, the script's command) on a free port with `env`,
 * once GraphQL answers. `stop` kills it (-9: an API-only process loses nothing acknowledged, and a graceful stop
 * would export the whole database).
 */
export function serveApiOnly(env: NodeJS.ProcessEnv): Promise<{ url: string; stop: () => Promise<void> }> {
  return serveProcess(env, ['--api-only']);
}

/**
 * The service as `npm start` runs it (requests and background workers in one process) on a free port with `env`.
 * `stop` kills it (-9, so no shutdown export): what it leaves in Redis and Neo4j is the benchmark's to remove.
 */
export function serveWithWorkers(env: NodeJS.ProcessEnv): Promise<{ url: string; stop: () => Promise<void> }> {
  return serveProcess(env, []);
}

async function serveProcess(
  env: NodeJS.ProcessEnv,
  args: readonly string[],
): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const root = resolve(new URL('..', import.meta.url).pathname);
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src', 'main.ts'), ...args], {
    cwd: root,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += String(chunk)));
  for (const end = Date.now() + 180_000; !out.includes('GraphQL ready'); await new Promise((r) => setTimeout(r, 100))) {
    if (Date.now() > end || child.exitCode !== null) throw new Error(`the service did not start:\n${out}`);
  }
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    stop: () =>
      new Promise<void>((done) =>
        child.exitCode !== null ? done() : (child.once('exit', () => done()), child.kill('SIGKILL')),
      ),
  };
}
