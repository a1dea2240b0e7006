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
 *   all at once     npm start -- --api-only, then the worker as above
 *                   (no pid file, lock or store file is touched by hand)
 */
import { loadavg } from 'node:os';
import { closeChecker, idleRoundTripMs } from './chaos/neo4j-checks.js';
import { api, npm, startApi, startWorker, worker } from './chaos/processes.js';
import { report } from './chaos/report.js';
import { type RunResult, runOnce } from './chaos/run.js';
import { BOLT, CLIENTS, DATA, RATE, REDIS, RUNS, URL_ } from './chaos/settings.js';
import { log } from './chaos/wait.js';

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
  await closeChecker();
  // Leave the servers running for inspection; `npm run services:down` (same env) stops them.
  for (const p of [api, worker])
    if (p?.pid)
      try {
        process.kill(-p.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
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
