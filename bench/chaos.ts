/**
 * Chaos: kill -9 under write load, one part at a time and then all at once,
 * restarted through the project's own scripts, and check that no acknowledged
 * store was lost. A benchmark, not a CI test: it starts and kills its own
 * Neo4j, Redis, API and worker processes, so it refuses the default ports
 * (other servers may live there) unless BENCH_CHAOS_DEFAULT_PORTS=1.
 *
 * Run, e.g.:
 *   TOTAL_RECALL_DATA=$PWD/.data-chaos TOTAL_RECALL_NEO4J_BOLT_PORT=27687 TOTAL_RECALL_NEO4J_HTTP_PORT=27474 \
 *   TOTAL_RECALL_REDIS_PORT=26380 PORT=27400 flock /tmp/total-recall-bench.lock npm run bench:chaos
 * BENCH_CHAOS_RUNS (default 3), BENCH_CHAOS_CLIENTS (6), BENCH_CHAOS_RATE (stores/s in all, 100),
 * BENCH_CHAOS_LOAD_S (seconds of load before each fault, 15).
 *
 * Processes and how each comes back (what an operator or a supervisor runs):
 *   Neo4j, Redis    npm run services:up
 *   API             npm start -- --api-only        (scripts/start.mjs; it also brings the services up)
 *   worker          npm run serve -- --worker-only
 *   all at once     npm start -- --api-only, then the worker as above: no pid file, lock or store file is touched by hand
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import neo4j, { type Driver } from 'neo4j-driver';
import { loadConfig } from '../src/config.js';
import { markdownTable, percentile, writeResults } from './lib.js';

const env = process.env;
const BOLT = Number(env.TOTAL_RECALL_NEO4J_BOLT_PORT || 7687);
const REDIS = Number(env.TOTAL_RECALL_REDIS_PORT || 6380);
const PORT = Number(env.PORT || 4000);
if ((BOLT === 7687 || REDIS === 6380) && env.BENCH_CHAOS_DEFAULT_PORTS !== '1') {
  console.error(
    'bench:chaos kills Neo4j and Redis: give it its own (TOTAL_RECALL_NEO4J_BOLT_PORT, TOTAL_RECALL_REDIS_PORT, TOTAL_RECALL_DATA) or set BENCH_CHAOS_DEFAULT_PORTS=1',
  );
  process.exit(2);
}
if (env.NEO4J_URI || env.REDIS_URL) {
  console.error('bench:chaos runs its own local servers: unset NEO4J_URI and REDIS_URL');
  process.exit(2);
}
const RUNS = Number(env.BENCH_CHAOS_RUNS || 3);
const CLIENTS = Number(env.BENCH_CHAOS_CLIENTS || 6);
const RATE = Number(env.BENCH_CHAOS_RATE || 100);
const LOAD_MS = Number(env.BENCH_CHAOS_LOAD_S || 15) * 1000;
const ROOT = resolve(new URL('..', import.meta.url).pathname);
const DATA = resolve(env.TOTAL_RECALL_DATA || join(ROOT, '.data'));
const URL_ = `http://127.0.0.1:${PORT}/graphql`;
const LOG = openSync(join(DATA, 'chaos.log'), 'a');
/** Short periods, so a fault's effects on the background work show within the run. */
const SERVICE_ENV: NodeJS.ProcessEnv = {
  ...env,
  TOTAL_RECALL_QUEUE_PREFIX: 'chaos',
  // Neo4j recovering after kill -9 on a busy 2-core machine has taken more than the default 120 s.
  NEO4J_START_TIMEOUT: env.NEO4J_START_TIMEOUT || '600',
  TOTAL_RECALL_RECONCILE_MS: env.TOTAL_RECALL_RECONCILE_MS || '15000',
  TOTAL_RECALL_RECONCILE_GRACE_MS: env.TOTAL_RECALL_RECONCILE_GRACE_MS || '15000',
  TOTAL_RECALL_SESSION_SWEEP_MS: env.TOTAL_RECALL_SESSION_SWEEP_MS || '5000',
  // A job whose worker was killed is taken over after 5 s, not 30.
  TOTAL_RECALL_JOB_LOCK_MS: env.TOTAL_RECALL_JOB_LOCK_MS || '5000',
  TOTAL_RECALL_STALLED_INTERVAL_MS: env.TOTAL_RECALL_STALLED_INTERVAL_MS || '5000',
};

const FAULTS = ['neo4j', 'redis', 'api', 'worker', 'all'] as const;
type Fault = (typeof FAULTS)[number];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => console.log(`[chaos ${new Date().toISOString().slice(11, 19)}] ${line}`);

// ── processes ───────────────────────────────────────────────────────────────

function readPid(file: string): number | null {
  try {
    const n = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

function kill9(pid: number | null | undefined, what: string): void {
  if (!pid) throw new Error(`no pid for ${what}`);
  try {
    process.kill(pid, 'SIGKILL');
    log(`kill -9 ${what} (pid ${pid})`);
  } catch (error) {
    log(`kill -9 ${what} (pid ${pid}): ${(error as Error).message}`);
  }
}

/** The children of a process (the server that npm start spawned). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Runs an npm script to its end without blocking the clients (they share this process). */
const npm = (args: string[]) =>
  new Promise<void>((resolve) =>
    spawn('npm', args, { cwd: ROOT, env: SERVICE_ENV, stdio: ['ignore', LOG, LOG] }).once('exit', () => resolve()),
  );

let api: ChildProcess | null = null;
let worker: ChildProcess | null = null;

/** How often `npm start` exited before it served (then it is run again, as a supervisor would). */
let startFailures = 0;

/** npm start -- --api-only: resolves once GraphQL answers. */
async function startApi(): Promise<void> {
  for (;;) {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs'), '--api-only'], {
      cwd: ROOT,
      env: SERVICE_ENV,
      stdio: ['ignore', LOG, LOG],
      detached: true,
    });
    api = child;
    await until(async () => (await health()) !== null || child.exitCode !== null, 900_000, 'the API');
    if (child.exitCode === null) return;
    startFailures++;
    log(`npm start exited (${child.exitCode}) before it served; running it again`);
  }
}

/** npm run serve -- --worker-only (node --import tsx src/main.ts, the script's command): resolves once its worker runs. */
async function startWorker(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main.ts'), '--worker-only'], {
    cwd: ROOT,
    env: SERVICE_ENV,
    stdio: ['ignore', 'pipe', LOG],
    detached: true,
  });
  worker = child;
  let ready = false;
  child.stdout?.on('data', (chunk: Buffer) => {
    writeSync(LOG, chunk);
    if (String(chunk).includes('Background worker ready')) ready = true;
  });
  await until(async () => ready || child.exitCode !== null, 300_000, 'the worker');
  if (!ready)
    throw new Error(`the worker exited (${child.exitCode}) before it was ready; see ${join(DATA, 'chaos.log')}`);
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  while (!(await check().catch(() => false))) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} did not come back within ${timeoutMs / 1000} s`);
    await sleep(200);
  }
  return Date.now() - started;
}

// ── GraphQL ─────────────────────────────────────────────────────────────────

interface Reply {
  data?: any;
  errors?: { message: string; extensions?: { code?: string; retryAfterMs?: number } }[];
}

/** The operator token `npm start` created on its first start (the clients are trusted load, not the subject here). */
let bearer: string | null = null;
function operatorToken(): string | null {
  try {
    bearer ??= readFileSync(join(DATA, 'operator.token'), 'utf8').trim();
  } catch {
    // Not created yet: the first start writes it.
  }
  return bearer;
}

async function gql(
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  timeoutMs = 10_000,
): Promise<Reply> {
  const token = operatorToken();
  const res = await fetch(URL_, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return (await res.json()) as Reply;
}

async function health(): Promise<{ neo4j: boolean; redis: boolean; degraded: string[] } | null> {
  const r = await gql('{ health { neo4j redis degraded } }', {}, {}, 2000).catch(() => null);
  return r?.data?.health ?? null;
}

// ── the load ────────────────────────────────────────────────────────────────

interface Phase {
  readonly fault: Fault;
  acknowledged: number;
  retriedAcks: number;
  errors: Record<string, number>;
  killedAt: number;
  /** Restart command finished (component up again). */
  restartedMs: number;
  /** Health reports Neo4j and Redis up again. */
  healthyMs: number | null;
  /** First acknowledged store after the kill. */
  firstAckMs: number | null;
  /** Scheduled jobs ran again after the kill. */
  jobsMs: number | null;
  storeMs: number[];
}

class Load {
  readonly acked = new Map<string, string>();
  phase: Phase | null = null;
  private stopped = false;
  private readonly loops: Promise<void>[] = [];

  constructor(readonly store: string) {}

  start(): void {
    for (let c = 0; c < CLIENTS; c++) this.loops.push(this.client(c));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  private count(code: string): void {
    if (this.phase) this.phase.errors[code] = (this.phase.errors[code] ?? 0) + 1;
  }

  private async client(c: number): Promise<void> {
    const instanceId = `${this.store}-client-${c}`;
    const headers = { 'x-instance-id': instanceId };
    await this.retrying(() =>
      gql(
        'mutation ($i: StartSessionInput!) { startSession(input: $i) { id } }',
        { i: { instanceId, mindType: 'bench', store: this.store } },
        headers,
      ),
    );
    const every = (1000 * CLIENTS) / RATE;
    for (let n = 0; !this.stopped; n++) {
      const due = Date.now() + every;
      const id = `${this.store}-${c}-${n}`;
      const content = `Client ${c} note ${n}: the ${['harbour', 'lighthouse', 'orchard', 'station'][n % 4]} at ${['dawn', 'noon', 'dusk'][n % 3]} with ${['Ana', 'Ben', 'Chen'][c % 3]}.`;
      const input = {
        id,
        store: this.store,
        content,
        tags: ['chaos', `client-${c}`],
        people: [['Ana', 'Ben', 'Chen'][c % 3]],
      };
      // A client retries with the same id until the store is acknowledged (a retry is a no-op).
      const started = Date.now();
      const attempts = await this.retrying(() =>
        gql('mutation ($m: StoreInput!) { store(input: $m) { id content } }', { m: input }, headers),
      );
      this.acked.set(id, content);
      if (this.phase) {
        this.phase.acknowledged++;
        if (attempts > 1) this.phase.retriedAcks++;
        this.phase.storeMs.push(Date.now() - started);
        if (this.phase.firstAckMs === null && this.phase.killedAt > 0 && started >= this.phase.killedAt)
          this.phase.firstAckMs = Date.now() - this.phase.killedAt;
      }
      if (n % 10 === 5) {
        const r = await gql(
          'query ($q: SearchInput!) { search(input: $q) { hits { memory { id } } } }',
          { q: { query: 'harbour at dawn', store: this.store, limit: 5 } },
          headers,
        ).catch(
          (e: Error) =>
            ({
              errors: [
                {
                  message: e.message,
                  extensions: { code: e.name === 'TimeoutError' ? 'client timeout (10 s)' : 'connection failed' },
                },
              ],
            }) as Reply,
        );
        if (r.errors) this.count(`search ${r.errors[0]?.extensions?.code ?? 'no code'}`);
      }
      await sleep(Math.max(0, due - Date.now()));
    }
  }

  /** Sends until it gets data; returns the attempts it took. */
  private async retrying(send: () => Promise<Reply>): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      let reply: Reply;
      try {
        reply = await send();
      } catch (error) {
        this.count((error as Error).name === 'TimeoutError' ? 'client timeout (10 s)' : 'connection failed');
        await sleep(250);
        continue;
      }
      if (!reply.errors) return attempt;
      const e = reply.errors[0];
      this.count(e?.extensions?.code ?? 'no code');
      await sleep(Math.min(2000, e?.extensions?.retryAfterMs ?? 250));
    }
  }
}

// ── checks in Neo4j ─────────────────────────────────────────────────────────

/** Made once `services:up` ran: the local server's password is read from the data folder, as the service reads it. */
let checker: Driver | null = null;
function driverFor(): Driver {
  if (!checker) {
    const { uri, user, password } = loadConfig(SERVICE_ENV).neo4j;
    checker = neo4j.driver(uri, password ? neo4j.auth.basic(user, password) : undefined, {
      disableLosslessIntegers: true,
    });
  }
  return checker;
}

async function cypher<T>(text: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const r = await driverFor().executeQuery(text, params);
  return r.records.map((rec) => rec.toObject() as T);
}

interface Verdict {
  acknowledged: number;
  lost: number;
  wrongContent: number;
  duplicateMemories: number;
  missingStoredEvent: number;
  duplicateStoredEvent: number;
  pendingLinks: number;
  pendingEmbeddings: number;
  convergedMs: number;
}

async function verify(load: Load, since: number): Promise<Verdict> {
  const ids = [...load.acked.keys()];
  const check = async () =>
    (
      await cypher<{
        found: number;
        wrong: number;
        dup: number;
        noEvent: number;
        dupEvent: number;
        links: number;
        emb: number;
      }>(
        `UNWIND $rows AS row
         OPTIONAL MATCH (m:Memory {id: row.id})
         WITH row, collect(m) AS ms
         WITH row, ms, head(ms) AS m
         OPTIONAL MATCH (e:Event {type: 'MemoryStored'})-[:ABOUT]->(m)
         WITH row, ms, m, count(e) AS events
         RETURN count(m) AS found,
                sum(CASE WHEN m IS NOT NULL AND m.content <> row.content THEN 1 ELSE 0 END) AS wrong,
                sum(CASE WHEN size(ms) > 1 THEN 1 ELSE 0 END) AS dup,
                sum(CASE WHEN m IS NOT NULL AND events = 0 THEN 1 ELSE 0 END) AS noEvent,
                sum(CASE WHEN events > 1 THEN 1 ELSE 0 END) AS dupEvent,
                sum(CASE WHEN m.linkPendingAt IS NOT NULL THEN 1 ELSE 0 END) AS links,
                sum(CASE WHEN m.embeddingStatus <> 'DONE' THEN 1 ELSE 0 END) AS emb`,
        { rows: ids.map((id) => ({ id, content: load.acked.get(id) })) },
      )
    )[0]!;
  let last = await check();
  const deadline = Date.now() + 600_000;
  while ((last.links > 0 || last.emb > 0) && Date.now() < deadline) {
    await sleep(2000);
    last = await check();
  }
  return {
    acknowledged: ids.length,
    lost: ids.length - last.found,
    wrongContent: last.wrong,
    duplicateMemories: last.dup,
    missingStoredEvent: last.noEvent,
    duplicateStoredEvent: last.dupEvent,
    pendingLinks: last.links,
    pendingEmbeddings: last.emb,
    convergedMs: Date.now() - since,
  };
}

/** When scheduled jobs last ran (the worker records each run in Redis; health shows it). */
async function lastJobRun(): Promise<number> {
  const r = await gql('{ health { queues { name lastRun { at } } } }', {}, {}, 3000).catch(() => null);
  const runs = (r?.data?.health?.queues ?? []) as { name: string; lastRun: { at: string } | null }[];
  return Math.max(
    0,
    ...runs
      .filter((q) => q.name === 'session-sweep' || q.name === 'reconcile')
      .map((q) => (q.lastRun ? Date.parse(q.lastRun.at) : 0)),
  );
}

async function sessionsOpen(load: Load): Promise<{ open: number; of: number }> {
  const rows = await cypher<{ open: number; of: number }>(
    `MATCH (s:Session {store: $store}) RETURN count(s) AS of, sum(CASE WHEN s.endedAt IS NULL THEN 1 ELSE 0 END) AS open`,
    { store: load.store },
  );
  return rows[0] ?? { open: 0, of: 0 };
}

// ── one fault ───────────────────────────────────────────────────────────────

async function inject(fault: Fault): Promise<void> {
  const neo4jPid = () => readPid(join(DATA, 'neo4j', 'run', 'neo4j.pid'));
  const redisPid = () => readPid(join(DATA, 'redis', 'redis.pid'));
  const apiServer = () => (api?.pid ? (childrenOf(api.pid)[0] ?? null) : null);
  switch (fault) {
    case 'neo4j':
      kill9(neo4jPid(), 'Neo4j');
      await sleep(500);
      await npm(['run', 'services:up']);
      return;
    case 'redis':
      kill9(redisPid(), 'Redis');
      await sleep(500);
      await npm(['run', 'services:up']);
      return;
    case 'api':
      kill9(apiServer(), 'the API process');
      await sleep(500);
      await startApi();
      return;
    case 'worker':
      kill9(worker?.pid, 'the worker process');
      await sleep(500);
      await startWorker();
      return;
    case 'all': {
      const pids = [neo4jPid(), redisPid(), apiServer(), api?.pid, worker?.pid];
      for (const [i, pid] of pids.entries())
        kill9(pid, ['Neo4j', 'Redis', 'the API process', 'npm start', 'the worker process'][i] as string);
      await sleep(500);
      await startApi();
      await startWorker();
      return;
    }
  }
}

interface RunResult {
  readonly phases: Phase[];
  readonly verdict: Verdict;
  readonly sessions: { open: number; of: number };
}

async function runOnce(run: number): Promise<RunResult> {
  const store = `chaos-${Date.now().toString(36)}-${run}`;
  log(`run ${run}: store ${store}`);
  const load = new Load(store);
  load.start();
  const phases: Phase[] = [];
  for (const fault of FAULTS) {
    const phase: Phase = {
      fault,
      acknowledged: 0,
      retriedAcks: 0,
      errors: {},
      killedAt: 0,
      restartedMs: 0,
      healthyMs: null,
      firstAckMs: null,
      jobsMs: null,
      storeMs: [],
    };
    load.phase = phase;
    phases.push(phase);
    await sleep(LOAD_MS);
    phase.killedAt = Date.now();
    await inject(fault);
    phase.restartedMs = Date.now() - phase.killedAt;
    log(`${fault}: restarted after ${(phase.restartedMs / 1000).toFixed(1)} s`);
    phase.healthyMs = await until(
      async () => Boolean((await health())?.neo4j && (await health())?.redis),
      300_000,
      'health',
    )
      .then(() => Date.now() - phase.killedAt)
      .catch(() => null);
    await until(async () => phase.firstAckMs !== null, 300_000, 'an acknowledged store');
    phase.jobsMs = await until(async () => (await lastJobRun()) > phase.killedAt, 120_000, 'scheduled jobs')
      .then(() => Date.now() - phase.killedAt)
      .catch(() => null);
    log(
      `${fault}: first store acknowledged ${(phase.firstAckMs! / 1000).toFixed(1)} s after the kill; jobs ran again after ${phase.jobsMs === null ? 'never' : `${(phase.jobsMs / 1000).toFixed(1)} s`}`,
    );
    await sleep(LOAD_MS / 2);
  }
  load.phase = null;
  await load.stop();
  const stoppedAt = Date.now();
  log(`run ${run}: load stopped; ${load.acked.size} acknowledged; waiting for links and embeddings`);
  const verdict = await verify(load, stoppedAt);
  const sessions = await sessionsOpen(load);
  log(`run ${run}: ${JSON.stringify(verdict)} sessions ${JSON.stringify(sessions)}`);
  return { phases, verdict, sessions };
}

// ── main ────────────────────────────────────────────────────────────────────

async function idleRoundTripMs(): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    await driverFor().executeQuery('RETURN 1');
    samples.push(performance.now() - t);
  }
  return Math.round(percentile(samples, 50) * 100) / 100;
}

async function main(): Promise<void> {
  log(
    `data ${DATA}, bolt ${BOLT}, redis ${REDIS}, GraphQL ${URL_}; ${RUNS} runs, ${CLIENTS} clients, ${RATE} stores/s`,
  );
  await npm(['run', 'services:up']);
  await startApi();
  await startWorker();
  const roundTrip = await idleRoundTripMs();
  const loadBefore = loadavg();
  const runs: RunResult[] = [];
  for (let run = 1; run <= RUNS; run++) {
    runs.push(await runOnce(run));
    report(runs, roundTrip, loadBefore, loadavg());
  }
  await checker?.close();
  // Leave the servers running for inspection; `npm run services:down` (same env) stops them.
  for (const p of [api, worker])
    if (p?.pid)
      try {
        process.kill(-p.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
}

/** Writes bench/results/chaos.{json,md} for the runs so far (after each run, so a long session keeps what it measured). */
function report(runs: RunResult[], roundTrip: number, loadBefore: number[], loadAfter: number[]): void {
  const rows = FAULTS.map((fault) => {
    const ps = runs.map((r) => r.phases.find((p) => p.fault === fault) as Phase);
    const codes: Record<string, number> = {};
    for (const p of ps) for (const [code, n] of Object.entries(p.errors)) codes[code] = (codes[code] ?? 0) + n;
    const s = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)}`);
    return [
      fault,
      ps.map((p) => p.acknowledged).join(' / '),
      ps.map((p) => p.retriedAcks).join(' / '),
      ps.map((p) => s(p.restartedMs)).join(' / '),
      ps.map((p) => s(p.healthyMs)).join(' / '),
      ps.map((p) => s(p.firstAckMs)).join(' / '),
      ps.map((p) => s(p.jobsMs)).join(' / '),
      ps.map((p) => Math.round(percentile(p.storeMs, 95))).join(' / '),
      Object.entries(codes)
        .sort((a, b) => b[1] - a[1])
        .map(([c, n]) => `${c} ${n}`)
        .join(', ') || 'none',
    ];
  });
  const verdicts = runs.map((r, i) => [
    i + 1,
    r.verdict.acknowledged,
    r.verdict.lost,
    r.verdict.wrongContent,
    r.verdict.duplicateMemories,
    r.verdict.missingStoredEvent,
    r.verdict.duplicateStoredEvent,
    r.verdict.pendingLinks,
    r.verdict.pendingEmbeddings,
    (r.verdict.convergedMs / 1000).toFixed(1),
    `${r.sessions.open} of ${r.sessions.of}`,
  ]);
  const la = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const md = [
    `Load: ${CLIENTS} clients storing with client-chosen ids, paced at ${RATE} stores/s in all (each retries with the same id until acknowledged; a client waits for each answer, so a slow service gets fewer), plus a search every tenth store; linking and embeddings on. ${LOAD_MS / 1000} s of load before each fault, half that after recovery. ${runs.length} of ${RUNS} runs done. \`npm start\` exited before serving ${startFailures} times and was run again.`,
    `Idle \`RETURN 1\` round trip (median of 50): ${roundTrip} ms. Load average before: ${la(loadBefore)}; after: ${la(loadAfter)}.${loadBefore[0]! > 1.5 ? ' **The machine was busy before the run (load average above 1.5 on 2 cores): times below are noisy.**' : " The machine was quiet before the run; the load after is the benchmark's own (the load, the restarts, the catching up)."} The round trip is taken right after the servers started, before their caches are warm.`,
    '',
    "Restarts, through the project's own scripts: Neo4j and Redis `npm run services:up`; the API `npm start -- --api-only`; the worker `npm run serve -- --worker-only`; all at once `npm start -- --api-only` then the worker (nothing cleaned by hand).",
    '',
    '## Per fault (run 1 / run 2 / …)',
    '',
    markdownTable(
      [
        'fault',
        'acknowledged stores in the phase',
        'acknowledged after a retry',
        'restart done (s)',
        'health all up (s)',
        'first store acknowledged after the kill (s)',
        'scheduled jobs ran again (s)',
        'store p95 incl. retries (ms)',
        'errors seen by clients, by code (all runs)',
      ],
      rows,
    ),
    '',
    '## Every acknowledged store, checked in Neo4j after the load stopped',
    '',
    markdownTable(
      [
        'run',
        'acknowledged',
        'lost',
        'wrong content',
        'duplicate memories',
        'no MemoryStored event',
        'MemoryStored twice',
        'still unlinked',
        'not embedded (not DONE)',
        'linked and embedded after (s)',
        'client sessions still open',
      ],
      verdicts,
    ),
    '',
    'Lost = acknowledged (the store returned its id) but no Memory with that id in Neo4j. A retry with the same id must change nothing: one memory and one MemoryStored event per id. Sessions: a restart keeps sessions open (they live in Neo4j); the session sweep ends idle ones (TIMEOUT) and a new `startSession` of the same instance ends the old one (CRASH).',
  ].join('\n');
  writeResults(
    'chaos',
    { settings: { RUNS, CLIENTS, RATE, LOAD_MS }, roundTripMs: roundTrip, loadBefore, loadAfter, startFailures, runs },
    md,
  );
}

main().catch(async (error: unknown) => {
  console.error(`error: ${(error as Error).message}`);
  for (const p of [api, worker])
    if (p?.pid)
      try {
        process.kill(-p.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
  process.exit(1);
});
