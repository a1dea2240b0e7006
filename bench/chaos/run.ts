// One run: load, then each fault in turn (kill -9, restart, recovery times), then the verdict.
import { join } from 'node:path';
import { lastJobRun, health } from './graphql.js';
import { Load, type Phase } from './load.js';
import { sessionsOpen, type Verdict, verify } from './neo4j-checks.js';
import { api, childrenOf, kill9, npm, readPid, startApi, startWorker, worker } from './processes.js';
import { DATA, FAULTS, type Fault, LOAD_MS } from './settings.js';
import { log, sleep, until } from './wait.js';

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

export interface RunResult {
  readonly phases: Phase[];
  readonly verdict: Verdict;
  readonly sessions: { open: number; of: number };
}

export async function runOnce(run: number): Promise<RunResult> {
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
      `${fault}: first store acknowledged ${(phase.firstAckMs! / 1000).toFixed(1)} s after the kill; jobs ran again ` +
        `after ${phase.jobsMs === null ? 'never' : `${(phase.jobsMs / 1000).toFixed(1)} s`}`,
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
