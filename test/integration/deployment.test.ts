/**
 * Past one machine, on engines the service did not start (docs/deployment.md).
 * A second Neo4j and Redis, started once for this file by the project's
 * scripts on other ports (test/own-instance.ts), stand in for external ones:
 * the service reaches them only through NEO4J_URI (a routing neo4j:// URI),
 * NEO4J_USER / NEO4J_PASSWORD of a user of its own, NEO4J_DATABASE and a
 * REDIS_URL with a password, from a data folder with nothing local in it.
 *
 * - it serves there, and a write is seen by the next read (bookmarks);
 * - a database the server does not have stops the start at once, typed;
 * - two API processes and two worker processes share one Neo4j and one
 *   Redis: every store is embedded once, no job runs twice, and each
 *   scheduled job (the decay sweep among them) has one scheduler, not one
 *   per process.
 *
 * Slow by nature: starting the second Neo4j (a JVM) takes about half a minute.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Queue, type Job } from 'bullmq';
import neo4j, { type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, queuePrefix, startTestApp } from '../helpers.js';
import { eventually } from '../background.js';
import { alive, instanceDir, ownInstance } from '../own-instance.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/domain/index.js';
import { EMBEDDINGS_QUEUE } from '../../src/adapters/bullmq/testing.js';
import { deleteKeysWithPrefix, pingRedis, redisConnection } from '../../src/adapters/redis.js';
import { JOB_KINDS, SCHEDULED_KINDS } from '../../src/contexts/subconscious/index.js';

const DATA = instanceDir('deployment');
const SERVICE_USER = 'total_recall_service';
const cleanups: (() => Promise<void>)[] = [];
const clean = (work: () => Promise<unknown>) => cleanups.push(async () => void (await work()));

/** The external servers, as an operator would hand them to the service. */
let external: { bolt: number; redisUrl: string; admin: Driver; env: NodeJS.ProcessEnv };

beforeAll(async () => {
  const { own, bolt, services } = await ownInstance(DATA);
  clean(() => services('down').catch(() => undefined)); // also after a failed or timed-out up
  const up = await services('up');
  expect(up).toMatchObject({ ok: true, neo4j: { started: true, auth: true }, redis: { started: true } });
  const ownConfig = loadConfig(own);
  const { user, password: adminPassword } = ownConfig.neo4j;
  const auth = neo4j.auth.basic(user, adminPassword);
  const admin = neo4j.driver(`bolt://127.0.0.1:${bolt}`, auth, { disableLosslessIntegers: true });
  clean(() => admin.close());
  // A user of the service's own, as on a managed server (Community has users, not roles).
  const password = randomUUID();
  const createUser = 'CREATE OR REPLACE USER $user SET PLAINTEXT PASSWORD $password CHANGE NOT REQUIRED';
  await admin.executeQuery(createUser, { user: SERVICE_USER, password }, { database: 'system' });
  const empty = await mkdtemp(join(tmpdir(), 'total-recall-external-'));
  clean(() => rm(empty, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEO4J_URI: `neo4j://127.0.0.1:${bolt}`,
    NEO4J_USER: SERVICE_USER,
    NEO4J_PASSWORD: password,
    NEO4J_DATABASE: 'neo4j',
    REDIS_URL: ownConfig.redisUrl,
    // Nothing local: no password files to fall back on, no local server ports.
    TOTAL_RECALL_DATA: empty,
    // The model the rest of the suite uses (the empty folder has none).
    TOTAL_RECALL_MODEL_DIR: loadConfig().embeddings.modelDir,
  };
  for (const local of ['NEO4J_BOLT_PORT', 'NEO4J_HTTP_PORT', 'REDIS_PORT', 'QUEUE_PREFIX', 'SCOPE_STORES']) {
    delete env[`TOTAL_RECALL_${local}`];
  }
  external = { bolt, redisUrl: ownConfig.redisUrl, admin, env };
}, 600_000);

afterAll(async () => {
  for (const work of cleanups.reverse()) await work().catch((error) => console.error(error));
}, 300_000);

/** Raw Cypher on the external database as its administrator, for checks and clean-up (never the code under test). */
async function cypher(text: string, params: Record<string, unknown>): Promise<Record<string, any>[]> {
  const result = await external.admin.executeQuery(text, params);
  return result.records.map((r) => r.toObject());
}
const inExternal = async (store: string) => {
  return (await cypher('MATCH (n) WHERE n.store = $store RETURN count(n) AS n', { store }))[0]!.n as number;
};
const dropExternal = (store: string) => cypher('MATCH (n) WHERE n.store = $store DETACH DELETE n', { store });
const STORE = 'mutation ($input: StoreInput!) { store(input: $input) { id } }';

/** A BullMQ queue of the test's prefix on the external Redis, closed after the file. */
function queueOf(name: string, prefix: string): Queue {
  const connection = redisConnection(external.redisUrl);
  const queue = new Queue(name, { connection, prefix });
  clean(async () => {
    await queue.close();
    connection.disconnect();
  });
  return queue;
}

describe('a Neo4j and a Redis the service did not start', () => {
  it('serves over a routing URI as its own user, with a password Redis; a read sees the write before it', async () => {
    const store = randomStore('external');
    const prefix = queuePrefix();
    const env = {
      ...external.env,
      TOTAL_RECALL_QUEUE_PREFIX: prefix,
      TOTAL_RECALL_SCOPE_STORES: store,
      // Its checkpoints would go to the default folder: not this test's subject.
      TOTAL_RECALL_COLD_STORAGE_CHECKPOINT_MS: '0',
    };
    clean(() => dropExternal(store));
    clean(() => deleteKeysWithPrefix(external.redisUrl, prefix));
    // The Redis takes its password only: an anonymous client is refused.
    expect(new URL(external.redisUrl).password).not.toBe('');
    expect(await pingRedis(external.redisUrl.replace(/\/\/[^@]*@/, '//'))).toBe(false);

    const t = await startTestApp({ workers: true, log: () => undefined }, env);
    clean(() => t.stop());
    const uri = `neo4j://127.0.0.1:${external.bolt}`;
    expect(t.config.neo4j).toMatchObject({ uri, user: SERVICE_USER, database: 'neo4j' });
    // Health gives each server about a second; the external Neo4j's JVM is still cold on its first queries.
    const health = await eventually(
      async () => {
        const { health } = await t.ok<{ health: { neo4j: boolean; redis: boolean } }>('{ health { neo4j redis } }');
        return health.neo4j ? health : undefined;
      },
      30_000,
      200,
    );
    expect(health).toEqual({ neo4j: true, redis: true });

    // Read-your-writes: the store's commit advances the process's bookmarks, and the reads after it
    // (READ sessions, routed to any member on a cluster) start from them.
    const bookmarks = t.app.driver.executeQueryBookmarkManager;
    const before = [...(await bookmarks.getBookmarks())];
    const content = 'The lighthouse keeper logs every ship that passes the northern cape.';
    const stored = await t.ok<{ store: { id: string } }>(STORE, { input: { store, content } });
    const after = [...(await bookmarks.getBookmarks())];
    expect(after.length).toBeGreaterThan(0);
    expect(after).not.toEqual(before);
    const id = stored.store.id;
    const read = await t.ok<{ memory: { id: string } | null }>('query ($id: ID!) { memory(id: $id) { id } }', { id });
    expect(read.memory?.id).toBe(id);
    const search = 'query ($q: SearchInput!) { search(input: $q) { hits { memory { id } } } }';
    const q = { store, query: 'lighthouse keeper northern cape' };
    const found = await t.ok<{ search: { hits: { memory: { id: string } }[] } }>(search, { q });
    expect(found.search.hits.map((h) => h.memory.id)).toContain(id);

    // It all landed on the external servers: the memory in its Neo4j, the job schedulers in its Redis.
    expect(await inExternal(store)).toBeGreaterThan(0);
    expect((await queueOf('decay-sweep', prefix).getJobSchedulers()).map((s) => s.key)).toEqual(['decay-sweep']);
  }, 120_000);

  it('a database the server does not have stops the start at once with a typed error, not a wait', async () => {
    const wrong = { ...external.env, NEO4J_DATABASE: 'memories', TOTAL_RECALL_QUEUE_PREFIX: queuePrefix() };
    for (const uri of [`neo4j://127.0.0.1:${external.bolt}`, `bolt://127.0.0.1:${external.bolt}`]) {
      const config = loadConfig({ ...wrong, NEO4J_URI: uri });
      expect(config.connectWaitMs).toBe(120_000); // an outage would be waited out this long
      const started = Date.now();
      const failure = await createApp(config, { log: () => undefined }).then(
        (app) => app.close().then(() => null),
        (error: unknown) => error,
      );
      expect(failure, uri).toBeInstanceOf(ConfigError);
      expect(failure).toMatchObject({
        code: 'CONFIG.NEO4J_DATABASE_NOT_FOUND',
        details: { database: 'memories', databases: ['neo4j'] },
      });
      expect((failure as Error).message).toMatch(/Community has one user database, "neo4j"/);
      expect(Date.now() - started, uri).toBeLessThan(15_000);
    }

    // `npm run serve` says so in one line and exits.
    const args = ['--import', 'tsx', 'src/main.ts'];
    const child = spawn(process.execPath, args, { env: { ...wrong, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    clean(async () => void (child.exitCode === null && child.kill('SIGKILL')));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += String(chunk)));
    child.stderr.on('data', (chunk: Buffer) => void (output += String(chunk)));
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    expect(code).toBe(1);
    expect(output).toMatch(/^error: CONFIG\.NEO4J_DATABASE_NOT_FOUND: NEO4J_DATABASE "memories" does not exist/m);
  }, 120_000);

  it('two API and two worker processes share them: stores embedded once, no job run twice, one scheduler', async () => {
    const store = randomStore('deploy');
    const prefix = queuePrefix();
    const cold = await mkdtemp(join(tmpdir(), 'total-recall-deploy-cold-'));
    clean(() => rm(cold, { recursive: true, force: true }));
    clean(() => dropExternal(store));
    clean(() => deleteKeysWithPrefix(external.redisUrl, prefix));
    const env: NodeJS.ProcessEnv = {
      ...external.env,
      PORT: '0',
      TOTAL_RECALL_QUEUE_PREFIX: prefix,
      TOTAL_RECALL_SCOPE_STORES: store,
      TOTAL_RECALL_COLD_STORAGE_DIR: cold,
      TOTAL_RECALL_EMBEDDINGS: 'on',
      // Every scheduled kind fires each second, so a duplicate scheduler would show within seconds.
      TOTAL_RECALL_DECAY_SWEEP_MS: '1000',
      TOTAL_RECALL_CONSOLIDATION_MS: '1000',
      TOTAL_RECALL_SESSION_SWEEP_MS: '1000',
      TOTAL_RECALL_RECONCILE_MS: '1000',
      TOTAL_RECALL_COLD_STORAGE_FULL_MS: '1000',
      TOTAL_RECALL_COLD_STORAGE_CHECKPOINT_MS: '1000',
      // The reconciliation would queue a slow embedding again; here every embedding must come from its store.
      TOTAL_RECALL_RECONCILE_GRACE_MS: '600000',
    };
    const workers = [serve(['--worker-only'], env), serve(['--worker-only'], env)];
    const apis = [serve(['--api-only'], env), serve(['--api-only'], env)];
    for (const p of [...workers, ...apis]) clean(() => p.stop());
    const ready = /Background worker ready \(.*, worker (\S+)\)/;
    const names = await Promise.all(workers.map(async (w) => (await w.line(ready))[1]!));
    expect(names.map((n) => Number(n.split(':').at(-1)))).toEqual(workers.map((w) => w.pid));
    const urls = await Promise.all(apis.map(async (a) => (await a.line(/GraphQL ready at (\S+)/))[1]!));
    // Every process has its model before anything is stored, so no start-up backfill overlaps a store.
    await Promise.all([...workers, ...apis].map((p) => p.line(/Embedding model ready/)));
    const embeddings = queueOf(EMBEDDINGS_QUEUE, prefix);
    await eventually(async () => ((await idle(embeddings)) ? true : undefined), 60_000);
    const startedBefore = new Set((await embeddings.getJobs(['completed'])).map((j) => j.id));

    // 20 stores through each API process, both at once (one after another in each: one caller's share).
    const perApi = await Promise.all(
      urls.map(async (url, a) => {
        const stored: string[] = [];
        for (let i = 0; i < 20; i++) {
          const input = { store, content: `API ${a} stored note ${i}: the tide tables for harbour ${i} changed.` };
          stored.push((await graphql(url, STORE, { input })).store.id);
        }
        return stored;
      }),
    );
    const ids = perApi.flat().sort();
    expect(new Set(ids).size).toBe(40);

    // Embedded, each by one worker, once.
    await eventually(
      async () => {
        const done = "MATCH (m:Memory {store: $store}) WHERE m.embeddingStatus = 'DONE' RETURN count(m) AS n";
        return (await cypher(done, { store }))[0]!.n === 40 ? true : undefined;
      },
      120_000,
      250,
    );
    await eventually(async () => ((await idle(embeddings)) ? true : undefined), 30_000);
    const embedJobs = (await embeddings.getJobs(['completed', 'failed'])).filter((j) => !startedBefore.has(j.id));
    expect(embedJobs.filter((j) => j.failedReason)).toEqual([]);
    const queued = embedJobs.flatMap((j) => (j.data.kind === 'embed' ? [...j.data.ids] : [])).sort();
    expect(queued, 'each stored memory in exactly one embedding job').toEqual(ids);
    const attached = embedJobs.reduce((n, j) => n + ((j.returnvalue as { embedded: number } | null)?.embedded ?? 0), 0);
    expect(attached, 'vectors attached').toBe(40);
    expectRanOnce(embedJobs, names);

    // The scheduled jobs: a few more seconds of sweeps, then one scheduler per kind and one run per slot.
    const queues = new Map(JOB_KINDS.map((kind) => [kind, queueOf(kind, prefix)]));
    const decay = queues.get('decay-sweep')!;
    await eventually(async () => ((await decay.getJobs(['completed'])).length >= 6 ? true : undefined), 60_000, 250);
    const all: Job[] = [];
    for (const kind of SCHEDULED_KINDS) {
      const queue = queues.get(kind)!;
      const schedulers = (await queue.getJobSchedulers()).map((x) => ({ key: x.key, every: x.every }));
      expect(schedulers, kind).toEqual([{ key: kind, every: 1000 }]);
      const jobs = await queue.getJobs(['completed', 'failed', 'active']);
      // A scheduler's job id is repeat:<scheduler id>:<due time>.
      const slotOf = (j: Job) => Number(new RegExp(`^repeat:${kind}:(\\d+)$`).exec(String(j.id))?.[1]);
      const slots = jobs.map(slotOf).sort((x, y) => x - y);
      expect(slots.every(Number.isFinite), `${kind} job ids: ${jobs.map((j) => j.id)}`).toBe(true);
      // One scheduler fires once per period: slots a period apart, never two in one.
      const gaps = slots.slice(1).map((slot, i) => slot - slots[i]!);
      expect(Math.min(...gaps), `${kind} slots ${slots}`).toBeGreaterThanOrEqual(1000);
      all.push(...jobs.filter((j) => j.finishedOn));
    }
    expect(all.filter((j) => j.failedReason)).toEqual([]);
    expectRanOnce(all, names);
    // The work was shared: each worker process ran some of it.
    const ranBy = new Set([...embedJobs, ...all].map((j) => j.processedBy));
    expect([...ranBy].sort()).toEqual([...names].sort());
    // The decay sweeps did their work on the external database: the store's one cursor.
    const cursors = await cypher('MATCH (c:SweepCursor {store: $store}) RETURN c.key AS key', { store });
    expect(cursors.map((c) => c.key)).toEqual([store]);
  }, 300_000);
});

/** No job was started twice (BullMQ counts starts: a stalled, retaken job shows 2); only our workers ran them. */
function expectRanOnce(jobs: Job[], workerNames: string[]): void {
  expect(jobs.length).toBeGreaterThan(0);
  for (const job of jobs) {
    expect(job.attemptsStarted, `${job.queueName} ${job.id}`).toBe(1);
    expect(workerNames, `${job.queueName} ${job.id} processed by`).toContain(job.processedBy);
  }
}

/** Nothing waiting, running or delayed in the queue. */
async function idle(queue: Queue): Promise<boolean> {
  const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
  return Object.values(counts).every((n) => n === 0);
}

async function graphql(url: string, query: string, variables: Record<string, unknown>): Promise<Record<string, any>> {
  const headers = { 'content-type': 'application/json' };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  const body = (await response.json()) as { data?: Record<string, any>; errors?: unknown[] };
  if (body.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  return body.data!;
}

/** `npm run serve -- <flags>` (what the script runs), its output read line by line. */
function serve(flags: string[], env: NodeJS.ProcessEnv) {
  const args = ['--import', 'tsx', 'src/main.ts', ...flags];
  const child: ChildProcess = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => lines.push(line));
  }
  return {
    pid: child.pid!,
    /** The first line matching `pattern` (waits up to 180 s: four processes load a model on two cores). */
    async line(pattern: RegExp, timeoutMs = 180_000): Promise<RegExpExecArray> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = lines.map((line) => pattern.exec(line)).find((m) => m !== null);
        if (match) return match;
        const output = lines.join('\n');
        if (child.exitCode !== null) throw new Error(`${flags} exited (${child.exitCode}):\n${output}`);
        if (Date.now() > deadline) throw new Error(`${flags}: no ${pattern} within ${timeoutMs} ms:\n${output}`);
        await new Promise((wake) => setTimeout(wake, 100));
      }
    },
    /** Kill -9 (the test's store and queues are removed after it), and wait until it is gone. */
    async stop(): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((done) => child.once('exit', done));
        child.kill('SIGKILL');
        await gone;
      }
      if (alive(child.pid!)) throw new Error(`${flags} (pid ${child.pid}) still runs after kill -9`);
    },
  };
}
