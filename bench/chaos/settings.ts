// What the chaos bench runs against and how hard: ports, data folder, load, and the service's short periods.
import { openSync } from 'node:fs';
import { join, resolve } from 'node:path';

const env = process.env;
export const BOLT = Number(env.TOTAL_RECALL_NEO4J_BOLT_PORT || 7687);
export const REDIS = Number(env.TOTAL_RECALL_REDIS_PORT || 6380);
const PORT = Number(env.PORT || 4000);
if ((BOLT === 7687 || REDIS === 6380) && env.BENCH_CHAOS_DEFAULT_PORTS !== '1') {
  console.error(
    'bench:chaos kills Neo4j and Redis: give it its own (TOTAL_RECALL_NEO4J_BOLT_PORT, TOTAL_RECALL_REDIS_PORT, ' +
      'TOTAL_RECALL_DATA) or set BENCH_CHAOS_DEFAULT_PORTS=1',
  );
  process.exit(2);
}
if (env.NEO4J_URI || env.REDIS_URL) {
  console.error('bench:chaos runs its own local servers: unset NEO4J_URI and REDIS_URL');
  process.exit(2);
}
export const RUNS = Number(env.BENCH_CHAOS_RUNS || 3);
export const CLIENTS = Number(env.BENCH_CHAOS_CLIENTS || 6);
export const RATE = Number(env.BENCH_CHAOS_RATE || 100);
export const LOAD_MS = Number(env.BENCH_CHAOS_LOAD_S || 15) * 1000;
export const ROOT = resolve(new URL('../..', import.meta.url).pathname);
export const DATA = resolve(env.TOTAL_RECALL_DATA || join(ROOT, '.data'));
export const URL_ = `http://127.0.0.1:${PORT}/graphql`;
export const LOG = openSync(join(DATA, 'chaos.log'), 'a');
/** Short periods, so a fault's effects on the background work show within the run. */
export const SERVICE_ENV: NodeJS.ProcessEnv = {
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

export const FAULTS = ['neo4j', 'redis', 'api', 'worker', 'all'] as const;
export type Fault = (typeof FAULTS)[number];
