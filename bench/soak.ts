/**
 * Soak: several concurrent sessions store and recall for a few minutes while
 * the Subconscious's decay sweeps, consolidation, session sweeps, break checks
 * and session audits run on BullMQ (short periods, so each fires many times).
 * Records p50/p95/p99 per operation, job lag per job kind, and every error.
 * Run: flock /tmp/total-recall-bench.lock npm run bench:soak
 * (BENCH_SOAK_SECONDS, default 180; BENCH_SOAK_SESSIONS, default 6).
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { deleteKeysWithPrefix } from '../src/adapters/redis.js';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';
import { buildGraphQLSchema, startGraphQLServer } from '../src/adapters/graphql/index.js';
import type { JobKind, LastRun } from '../src/contexts/subconscious/index.js';
import { markdownTable, rng, summarise, writeResults } from './lib.js';
import { syntheticMemories } from './corpus.js';
import { startBench } from './conditions.js';

// The machine must be quiet (or BENCH_BUSY_OK=1); the results file records how it was.
await startBench();

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 180);
const SESSIONS = Number(process.env.BENCH_SOAK_SESSIONS ?? 6);
const STORES = Math.max(1, Math.ceil(SESSIONS / 2));
/**
 * Each store works for ACTIVE_MS, then rests for REST_MS (consolidation waits for quiet stores); stores are staggered.
 */
const ACTIVE_MS = 20_000;
const REST_MS = 10_000;

const run = randomUUID().slice(0, 8);
const stores = Array.from({ length: STORES }, (_, i) => `bench-soak-${run}-${i}`);
const prefix = `bench-soak-${run}`;
const settings = {
  TOTAL_RECALL_QUEUE_PREFIX: prefix,
  TOTAL_RECALL_SCOPE_STORES: stores.join(','),
  TOTAL_RECALL_DECAY_SWEEP_MS: '10000',
  TOTAL_RECALL_CONSOLIDATION_MS: '15000',
  TOTAL_RECALL_QUIET_MS: '5000',
  TOTAL_RECALL_BREAK_AFTER_MS: '30000',
  TOTAL_RECALL_SESSION_SWEEP_MS: '5000',
  TOTAL_RECALL_SESSION_IDLE_MS: '600000',
  TOTAL_RECALL_EMBEDDINGS: process.env.TOTAL_RECALL_EMBEDDINGS ?? 'off',
  // Cold storage is the shutdown's and its own bench's (bench:cold-storage), not the soak's.
  TOTAL_RECALL_COLD_STORAGE_CHECKPOINT_MS: '0',
};
const config = { ...loadConfig({ ...process.env, ...settings }), port: 0 };
const logged: string[] = [];
const app = await createApp(config, { workers: true, log: (line) => logged.push(line) });
const schema = await buildGraphQLSchema();
const server = await startGraphQLServer(schema, app.ports, '127.0.0.1', 0);
const hasSearch = Boolean(schema.getQueryType()?.getFields().search);

const latencies = new Map<string, number[]>();
const errors: string[] = [];
const lags = new Map<JobKind, number[]>();
const jobRuns = new Map<JobKind, { ok: number; failed: number }>();
app.jobs.onRun((kind: JobKind, last: LastRun) => {
  lags.set(kind, [...(lags.get(kind) ?? []), last.lagMs]);
  const count = jobRuns.get(kind) ?? { ok: 0, failed: 0 };
  if (last.ok) count.ok++;
  else {
    count.failed++;
    errors.push(`job ${kind} ${last.jobId}: ${last.error}`);
  }
  jobRuns.set(kind, count);
});
app.bus.onFailure((error, message, actor) => errors.push(`bus ${actor} ${message.type}: ${(error as Error).message}`));

async function gql<T>(
  op: string,
  query: string,
  variables: Record<string, unknown>,
  instanceId: string,
): Promise<T | null> {
  const start = performance.now();
  try {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-instance-id': instanceId },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
    const ms = performance.now() - start;
    latencies.set(op, [...(latencies.get(op) ?? []), ms]);
    if (body.errors?.length) {
      errors.push(`${op}: ${body.errors.map((e) => `${e.extensions?.code ?? ''} ${e.message}`).join('; ')}`);
      return null;
    }
    return body.data ?? null;
  } catch (error) {
    errors.push(`${op}: ${(error as Error).message}`);
    return null;
  }
}

const STORE = 'mutation ($in: StoreInput!) { store(input: $in) { id } }';
const SEARCH = 'query ($in: SearchInput!) { search(input: $in) { id hits { memory { id } confidence } } }';
const READ = 'query ($id: ID!) { memory(id: $id) { id content } }';
const WORDS = [
  'Ana',
  'Lisbon',
  'garden',
  'budget',
  'concert',
  'recipe',
  'release',
  'bike',
  'roof',
  'novel',
  'migration',
  'marathon',
  'photo',
  'doctor',
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const t0 = Date.now();
const end = t0 + SECONDS * 1000;
const active = (storeIndex: number) => {
  const phase = (Date.now() - t0 + storeIndex * ((ACTIVE_MS + REST_MS) / STORES)) % (ACTIVE_MS + REST_MS);
  return phase < ACTIVE_MS;
};

async function session(k: number): Promise<{ instanceId: string; stored: number }> {
  const storeIndex = k % STORES;
  const store = stores[storeIndex] as string;
  const instanceId = `soak-${run}-${k}`;
  const random = rng(1000 + k);
  const corpus = syntheticMemories(5000, 100 + k);
  const mine: { id: string; content: string }[] = [];
  let mode: 'TASK' | 'CONVERSATION' = 'TASK';
  await gql(
    'startSession',
    'mutation ($in: StartSessionInput!) { startSession(input: $in) { id } }',
    { in: { instanceId, mindType: 'bench', store, task: `soak ${k}` } },
    instanceId,
  );
  let i = 0;
  while (Date.now() < end) {
    if (!active(storeIndex)) {
      await sleep(250);
      continue;
    }
    const r = random();
    if (r < 0.45) {
      // Now and then the same thing again in other words: consolidation's near-duplicates.
      const again =
        mine.length > 0 && random() < 0.15 ? (mine[Math.floor(random() * mine.length)] as { content: string }) : null;
      const m = corpus[i++ % corpus.length]!;
      const content = again ? again.content.replace(/\(#\d+\)\.$/, '(again).') : m.content;
      const data = await gql<{ store: { id: string } }>(
        'store',
        STORE,
        { in: { store, content, tags: m.tags, people: m.people, emotions: m.emotions } },
        instanceId,
      );
      if (data) mine.push({ id: data.store.id, content });
    } else if (r < 0.9) {
      if (hasSearch) {
        const words = [WORDS[Math.floor(random() * WORDS.length)], WORDS[Math.floor(random() * WORDS.length)]].join(
          ' ',
        );
        await gql('recall (search)', SEARCH, { in: { query: words, store, limit: 10 } }, instanceId);
      } else if (mine.length > 0) {
        await gql('recall (memory by id)', READ, { id: mine[Math.floor(random() * mine.length)]!.id }, instanceId);
      }
    } else if (r < 0.95 && k !== 0) {
      // Session 0 stays in TASK mode throughout (it should be told to take a break); the others switch.
      mode = mode === 'TASK' ? 'CONVERSATION' : 'TASK';
      await gql(
        'transition',
        'mutation ($i: String!, $m: WorkingMode!) { transition(instanceId: $i, mode: $m) { id } }',
        { i: instanceId, m: mode },
        instanceId,
      );
    } else {
      await gql(
        'logDecision',
        'mutation ($i: String!, $t: String!) { logDecision(instanceId: $i, text: $t) { id } }',
        { i: instanceId, t: `decision ${i}` },
        instanceId,
      );
    }
    await sleep(20 + random() * 60);
  }
  await gql(
    'endSession',
    'mutation ($i: String!) { endSession(instanceId: $i) { memoriesStored } }',
    { i: instanceId },
    instanceId,
  );
  return { instanceId, stored: mine.length };
}

console.log(
  `soak: ${SESSIONS} sessions in ${STORES} stores for ${SECONDS} s; recall by ` +
    `${hasSearch ? 'search' : 'memory(id) (no search in the schema)'}`,
);
const finished = await Promise.all(Array.from({ length: SESSIONS }, (_, k) => session(k)));

// Let the last audits run, then read what the background did.
const deadline = Date.now() + 30_000;
let notifications: { kind: string }[] = [];
for (;;) {
  notifications = (
    await Promise.all(
      finished.map((f) => app.ports.lifecycle.notifications(f.instanceId, null, { instanceId: null, sessionId: null })),
    )
  ).flat();
  if (notifications.filter((n) => n.kind === 'SESSION_AUDIT').length >= SESSIONS || Date.now() > deadline) break;
  await sleep(500);
}
const queues = await app.jobs.status();
const consolidated = (
  await app.driver.executeQuery(
    'MATCH (n:Memory)-[:CONSOLIDATED_FROM]->() WHERE n.store IN $stores RETURN count(DISTINCT n) AS n',
    { stores },
    { database: config.neo4j.database },
  )
).records.map((r) => ({ n: Number(r.get('n')) }));

const ops = [...latencies].map(([op, samples]) => ({ op, ...summarise(samples) }));
const jobs = [...lags].map(([kind, samples]) => ({
  kind,
  runs: jobRuns.get(kind)?.ok ?? 0,
  failed: jobRuns.get(kind)?.failed ?? 0,
  lagMs: summarise(samples),
}));
const byKind = (kind: string) => notifications.filter((n) => n.kind === kind).length;
const result = {
  seconds: SECONDS,
  sessions: SESSIONS,
  stores: STORES,
  recall: hasSearch ? 'search' : 'memory(id): search was not in the schema when this ran',
  embeddings: settings.TOTAL_RECALL_EMBEDDINGS,
  settings,
  operations: ops,
  jobs,
  failedJobsInRedis: queues.reduce((n, q) => n + q.failed, 0),
  notifications: { BREAK: byKind('BREAK'), SESSION_AUDIT: byKind('SESSION_AUDIT') },
  consolidatedMemories: consolidated[0]?.n ?? 0,
  memoriesStored: finished.reduce((n, f) => n + f.stored, 0),
  errors: errors.length,
  firstErrors: errors.slice(0, 10),
};
console.log(JSON.stringify(result, null, 2));

const md = [
  `${SESSIONS} concurrent sessions in ${STORES} stores for ${SECONDS} s over GraphQL (each store works ` +
    `${ACTIVE_MS / 1000} s, rests ${REST_MS / 1000} s), ` +
    `while the background runs on BullMQ: decay sweep every 10 s, consolidation every 15 s (quiet 5 s), session ` +
    `sweep every 5 s, break after 30 s of TASK mode, an audit per session end. ` +
    `Recall: ${result.recall}. Embeddings: ${result.embeddings}.`,
  '',
  '### Operations (ms)',
  '',
  markdownTable(
    ['operation', 'n', 'p50', 'p95', 'p99', 'max'],
    ops.map((o) => [o.op, o.n, o.p50, o.p95, o.p99, o.max]),
  ),
  '',
  '### Background jobs (lag = start after due, ms)',
  '',
  markdownTable(
    ['job', 'runs', 'failed', 'lag p50', 'lag p95', 'lag max'],
    jobs.map((j) => [j.kind, j.runs, j.failed, j.lagMs.p50, j.lagMs.p95, j.lagMs.max]),
  ),
  '',
  `Notifications: ${result.notifications.BREAK} break, ${result.notifications.SESSION_AUDIT} session audits. ` +
    `Memories stored: ${result.memoriesStored}; consolidated memories made: ${result.consolidatedMemories}. ` +
    `Failed jobs left in Redis: ${result.failedJobsInRedis}. **Errors: ${result.errors}.**`,
].join('\n');
writeResults('soak', result, md);

// Clean up: the stores, then the queues.
const cleanup = app.driver.session({ database: config.neo4j.database });
await cleanup.run('MATCH (n) WHERE n.store IN $stores CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS', {
  stores,
});
await cleanup.close();
await server.stop();
await app.close();
await deleteKeysWithPrefix(config.redisUrl, prefix);
process.exit(errors.length === 0 ? 0 : 1);
