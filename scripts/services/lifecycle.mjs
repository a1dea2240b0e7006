// One lifecycle for every local server (Neo4j, Redis): use an external one when its variable is set; else,
// under a start lock, reuse ours when its pid file names it, adopt ours when it runs without a pid file,
// refuse a port another process holds, otherwise prepare, start, and wait until it answers, with the log tail
// when it does not. Stopping stops only the process our pid file names.
//
// A service describes itself (see neo4j.mjs, redis.mjs):
//   name, title            'neo4j', 'Neo4j': message prefix and sentence subject
//   externalEnv            NEO4J_URI / REDIS_URL: when set, that server is used and never started or stopped
//   external()             what callers get for the external server; externalStatus() what `status` shows
//   dir, pidFile, lockFile, ports, startTimeoutMs
//   isOurs(pid)            a live process of this service's home (not a recycled pid)
//   ready()                whether the server answers (through the project's own client library)
//   readyProbe             e.g. 'PING on redis://127.0.0.1:6380': "did not answer <readyProbe>"
//   prepare(say)           install what is missing and write the config; returns a context for start
//   start(ctx)             spawn the server; returns a handle {pid(), exited()}
//   logMark(), startupLog(mark)   where this start's log lines begin; {tail, telling, logFile} since then
//   deathHint, slowHint    the fix lines when it dies during startup or does not answer in time
//   command, spawnHint     what start() runs, and the fix when it cannot be run at all
//   afterStart?(ctx, pid, say)   checks once it answers (Neo4j: it takes our password)
//   readyNote(ctx)         the end of the "ready" line
//   onReuse?(say)          a note when a running server is reused
//   info(started, pid)     what callers get; status(state, pid) what `status` shows
//   stop(pid, say)         stops it; returns 'stopped' | 'killed'

import fs from 'node:fs';

import { HOST, ServiceError, removeFile, sleep, toLogger } from './common.mjs';
import {
  canConnect,
  describeOwner,
  findPortOwner,
  isAlive,
  readPid,
  terminate,
  waitForExit,
  waitOrphanPortReleased,
  withLock,
  writePid,
} from './process.mjs';

const seconds = (ms) => Math.round(ms / 1000);

/** A handle on a server already running as `pid`. */
export const runningHandle = (pid) => ({ pid: () => pid, exited: () => (isAlive(pid) ? null : {}) });

/**
 * Make sure the service's server runs and answers; start it if needed.
 * @returns {Promise<object>} service.info(started, pid), or service.external()
 */
export async function ensureService(service, { log, timeoutMs } = {}) {
  const say = toLogger(log);
  const { name } = service;
  if (process.env[service.externalEnv]) {
    say(`${name}: ${service.externalEnv} is set, using the external server ${service.external().display}`);
    return service.external().info;
  }
  const timeout = timeoutMs ?? service.startTimeoutMs;
  fs.mkdirSync(service.dir, { recursive: true });
  return withLock(
    service.lockFile,
    async () => {
      // 1. Ours already running (or starting, by another `up`)?
      const pid = readPid(service.pidFile);
      if (pid && service.isOurs(pid)) {
        if (!(await service.ready())) {
          say(`${name}: pid ${pid} is running but not answering yet, waiting…`);
          await waitReady(service, runningHandle(pid), service.logMark(), timeout);
        }
        service.onReuse?.(say);
        return service.info(false, pid);
      }
      if (pid) removeFile(service.pidFile); // stale pid file

      // 2. Ports free? (Ours running without a pid file is adopted.)
      const orphan = await claimPorts(service);
      if (orphan) {
        say(`${name}: found our server running without a pid file (pid ${orphan}), reusing it`);
        writePid(service.pidFile, orphan);
        await waitReady(service, runningHandle(orphan), service.logMark(), timeout);
        return service.info(false, orphan);
      }

      // 3. Start.
      const ctx = await service.prepare(say);
      const mark = service.logMark();
      const t0 = Date.now();
      const handle = await service.start(ctx);
      const shown = handle.pid() ? ` pid ${handle.pid()}` : '';
      const limit = `timeout ${seconds(timeout)} s`;
      say(`${name}: started${shown}, waiting for it to answer ${service.readyProbe} (${limit})…`);
      const started = await waitReady(service, handle, mark, timeout);
      await service.afterStart?.(ctx, started, say);
      const took = ((Date.now() - t0) / 1000).toFixed(1);
      say(`${name}: ready${started ? ` (pid ${started})` : ''} in ${took} s${service.readyNote(ctx)}`);
      return service.info(true, started ?? undefined);
    },
    { log: say, what: `the ${name} start lock` },
  );
}

/**
 * Stop the server our pid file names (never an external one, never another process on its ports).
 * @returns {Promise<boolean>} whether a process was stopped
 */
export async function stopService(service, { log } = {}) {
  const say = toLogger(log);
  if (process.env[service.externalEnv]) {
    say(`${service.name}: ${service.externalEnv} is set (external server), nothing to stop`);
    return false;
  }
  if (!fs.existsSync(service.dir)) return false;
  return withLock(
    service.lockFile,
    async () => {
      const pid = readPid(service.pidFile);
      if (!pid || !service.isOurs(pid)) {
        removeFile(service.pidFile);
        return false;
      }
      say(`${service.name}: stopping pid ${pid}…`);
      const how = await service.stop(pid, say);
      removeFile(service.pidFile);
      say(`${service.name}: ${how}`);
      return true;
    },
    { log: say, what: `the ${service.name} start lock` },
  );
}

/** @returns {Promise<object>} service.status('running'|'starting'|'stopped', pid), or the external one */
export async function serviceStatus(service) {
  if (process.env[service.externalEnv]) return service.externalStatus();
  const pid = readPid(service.pidFile);
  if (pid && service.isOurs(pid)) return service.status((await service.ready()) ? 'running' : 'starting', pid);
  return service.status('stopped');
}

/**
 * Ask the server to stop (`request`, e.g. Redis's SHUTDOWN, else SIGTERM), wait up to graceMs, then signals.
 * @returns {Promise<'stopped'|'killed'>}
 */
export async function stopProcess(pid, { name, graceMs, request, say }) {
  if (!request)
    return (await terminate(pid, { timeoutMs: graceMs, log: say, name })) === 'killed' ? 'killed' : 'stopped';
  await request().catch(() => undefined); // signals below stop it anyway
  if (await waitForExit(pid, graceMs)) return 'stopped';
  return (await terminate(pid, { timeoutMs: 10_000, log: say, name })) === 'killed' ? 'killed' : 'stopped';
}

/** Null when the service's ports are free; our pid when ours holds them without a pid file; else throws. */
async function claimPorts(service) {
  for (const port of service.ports) {
    if (!(await canConnect(port, HOST, 500))) continue;
    const owner = findPortOwner(port);
    // Our server killed a moment ago (kill -9) may still hold its ports while it exits.
    if (!owner?.pid || !isAlive(owner.pid)) {
      if (await waitOrphanPortReleased(port)) continue;
    }
    if (owner?.pid && service.isOurs(owner.pid)) return owner.pid;
    const who = describeOwner(owner);
    throw new ServiceError(`port ${port} is held by another process${who ? ` (${who})` : ''}`, {
      service: service.name,
      hint:
        `stop it${owner?.pid ? ` (kill ${owner.pid})` : ''}, ` +
        `or set ${service.externalEnv} to use the server already there`,
    });
  }
  return null;
}

/** Poll ready() until it answers; throws with the log tail when the process dies or the time runs out. */
async function waitReady(service, handle, mark, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (handle.exited()) {
      removeFile(service.pidFile);
      await sleep(200); // let the last log lines land (and the exit status arrive)
      throw died(service, handle.exited() ?? {}, mark);
    }
    if (await service.ready()) {
      // A daemon's pid file may land a moment after its port answers.
      for (let i = 0; !handle.pid() && i < 20; i++) await sleep(100);
      return handle.pid();
    }
    await sleep(250);
  }
  const { tail, logFile } = service.startupLog(mark);
  const pid = handle.pid();
  throw new ServiceError(
    `${service.title}${pid ? ` (pid ${pid})` : ''} did not answer ${service.readyProbe} within ${seconds(timeoutMs)} s`,
    { service: service.name, hint: service.slowHint, logFile, logTail: tail },
  );
}

function died(service, exit, mark) {
  if (exit.err) {
    return new ServiceError(`could not run ${service.command}: ${exit.err.message}`, {
      service: service.name,
      hint: service.spawnHint,
    });
  }
  const { tail, telling, logFile } = service.startupLog(mark);
  const how = exit.signal ? `signal ${exit.signal}` : exit.code != null ? `exit code ${exit.code}` : exit.note;
  return new ServiceError(
    `${service.title} stopped during startup${how ? ` (${how})` : ''}${telling ? `: ${telling}` : ''}`,
    { service: service.name, hint: service.deathHint, logFile, logTail: tail },
  );
}
