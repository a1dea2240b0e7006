// A local Redis (Debian's redis-server) for the project, run through lifecycle.mjs.
//
//   dir    <data>/redis/  (redis.conf, appendonly files, redis.pid, redis.log, password)
//   port   127.0.0.1:6380 (6379 is left to any system Redis)
//   conf   AOF on (appendfsync everysec), noeviction, loopback only, a generated requirepass
//   ready  ioredis gets PONG
//
// REDIS_URL set → an external server is used, nothing is started. Uses ioredis: import it after `npm ci`.

import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';

import {
  HOST,
  ServiceError,
  dataDir,
  ensureSecret,
  envPort,
  envSeconds,
  lastLine,
  localAuthEnabled,
  redactUrl,
} from './common.mjs';
import { ensureService, serviceStatus, stopProcess, stopService } from './lifecycle.mjs';
import { isAlive, processArgv, processCwd, readPid } from './process.mjs';
import { ensureRedisServer } from './redis-install.mjs';
import { fileSize, linesSince, run } from './system.mjs';

export { HOST };
export const PORT = envPort('TOTAL_RECALL_REDIS_PORT', 6380);
export const REDIS_URL = `redis://${HOST}:${PORT}`;

export function redisPaths() {
  const dir = path.join(dataDir(), 'redis');
  return {
    dir,
    confFile: path.join(dir, 'redis.conf'),
    pidFile: path.join(dir, 'redis.pid'),
    logFile: path.join(dir, 'redis.log'),
    lockFile: path.join(dir, 'redis.lock'),
    // The generated `requirepass` of the local server (mode 0600).
    passwordFile: path.join(dir, 'password'),
  };
}

/** The password the running server was started with: the one in its conf (written at its start). */
export function redisPassword(p = redisPaths()) {
  try {
    const m = /^requirepass "((?:[^"\\]|\\.)*)"$/m.exec(fs.readFileSync(p.confFile, 'utf8'));
    return m ? m[1].replace(/\\(.)/g, '$1') : null;
  } catch {
    return null;
  }
}

/** The URL clients use: with the password when the server has one. */
export function localRedisUrl(password = redisPassword()) {
  return password ? `redis://:${encodeURIComponent(password)}@${HOST}:${PORT}` : REDIS_URL;
}

/**
 * One command through ioredis on a short-lived connection that never retries or queues, authenticated with
 * the password our server was started with. Rejects when there is no answer (refused, -LOADING, -NOAUTH …).
 */
export async function redisCommand(args, { port = PORT, password = redisPassword(), timeoutMs = 2000 } = {}) {
  const client = new Redis({
    host: HOST,
    port,
    password: password ?? undefined,
    lazyConnect: true,
    enableReadyCheck: false, // a loading server answers -LOADING: that is "not ready", not "wait inside"
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
  });
  client.on('error', () => {}); // the rejected promise reports it
  try {
    await client.connect();
    return await client.call(...args);
  } finally {
    client.disconnect();
  }
}

/** PONG → true; anything else (refused, -LOADING, -NOAUTH …) → false. */
export async function redisPing(port = PORT) {
  return redisCommand(['PING'], { port, timeoutMs: 1000 }).then(
    (reply) => reply === 'PONG',
    () => false,
  );
}

/** pid is a live redis-server whose working directory is our data dir. */
function isOurRedis(pid, p) {
  if (!isAlive(pid)) return false;
  const argv = processArgv(pid);
  if (argv.length === 0) return true; // cannot inspect: trust the pid file
  if (!/redis-server|redis-check/.test(argv[0] ?? '')) return false;
  const cwd = processCwd(pid);
  return cwd ? cwd === fs.realpathSync(p.dir) : (argv[0] ?? '').includes(`:${PORT}`);
}

function quote(s) {
  return `"${String(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** The port in the redis.conf our running server was started with (null if none). */
function confPort(p) {
  try {
    const m = /^port (\d+)$/m.exec(fs.readFileSync(p.confFile, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

function writeConf(p) {
  const lines = [
    '# Written by scripts/services/redis.mjs on every start: edit that file, not this one.',
    '# Loopback only, with a generated password (the same as in ./password).',
    `bind ${HOST}`,
    ...(localAuthEnabled() ? [`requirepass ${quote(ensureSecret(p.passwordFile))}`] : []),
    'protected-mode yes',
    `port ${PORT}`,
    `dir ${quote(p.dir)}`,
    'daemonize yes',
    `pidfile ${quote(p.pidFile)}`,
    `logfile ${quote(p.logFile)}`,
    'loglevel notice',
    'appendonly yes',
    'appendfsync everysec',
    'maxmemory-policy noeviction',
    '',
  ];
  fs.writeFileSync(p.confFile, lines.join('\n'));
}

/**
 * `redis-server <conf>` daemonizes: the command returns once the server forked, and the server writes its
 * own pid file right after binding. The handle follows that pid file.
 */
async function startRedis(server, p) {
  const offset = fileSize(p.logFile);
  const r = await run(server, [p.confFile], { cwd: p.dir });
  if (r.code !== 0) {
    const tail = linesSince(p.logFile, offset, 30);
    const out = `${r.stderr}\n${r.stdout}`.trim();
    throw new ServiceError(`redis-server exited with code ${r.code}: ${lastLine(out) || lastLine(tail.join('\n'))}`, {
      service: 'redis',
      hint: `see ${p.logFile} and ${p.confFile}`,
      logFile: p.logFile,
      logTail: [...out.split('\n').filter(Boolean), ...tail].slice(-30),
    });
  }
  const t0 = Date.now();
  let seen = null;
  return {
    pid: () => (seen = readPid(p.pidFile) ?? seen),
    exited() {
      const pid = readPid(p.pidFile) ?? seen;
      if (pid) return isAlive(pid) ? null : {};
      return Date.now() - t0 > 10_000 ? { note: 'no pid file 10 s after the start' } : null;
    },
  };
}

function localInfo(started, pid) {
  const password = redisPassword();
  return {
    url: localRedisUrl(password),
    external: false,
    auth: Boolean(password),
    // A server started without a password keeps running so until it is restarted (then it gets one).
    authOnRestart: !password && localAuthEnabled(),
    started,
    ...(pid ? { pid } : {}),
  };
}

const SLOW_HINT = 'run `up` again or raise REDIS_START_TIMEOUT (seconds)';

/** The local Redis, as lifecycle.mjs runs it. */
function redisService() {
  const p = redisPaths();
  return {
    name: 'redis',
    title: 'Redis',
    command: 'redis-server',
    externalEnv: 'REDIS_URL',
    external: () => ({
      display: redactUrl(process.env.REDIS_URL),
      info: { url: process.env.REDIS_URL, started: false, external: true },
    }),
    externalStatus: () => ({ state: 'external', url: redactUrl(process.env.REDIS_URL) }),
    dir: p.dir,
    pidFile: p.pidFile,
    lockFile: p.lockFile,
    ports: [PORT],
    startTimeoutMs: envSeconds('REDIS_START_TIMEOUT', 60) * 1000,
    isOurs: (pid) => isOurRedis(pid, p),
    ready: () => redisPing(),
    readyProbe: `PING on ${REDIS_URL}`,
    async prepare(say) {
      const server = await ensureRedisServer(say);
      writeConf(p);
      return { server };
    },
    start: ({ server }) => startRedis(server, p),
    logMark: () => fileSize(p.logFile),
    startupLog(offset) {
      const tail = linesSince(p.logFile, offset, 30);
      const telling = tail.findLast((l) => /#\s|error|Error|FATAL|Bad|Can't/.test(l)) ?? lastLine(tail.join('\n'));
      return { tail, telling: telling.trim(), logFile: p.logFile };
    },
    spawnHint: 'apt-get install redis-server (as root), or set REDIS_URL to an existing Redis',
    deathHint: `fix the cause shown in ${p.logFile}, then run \`up\` again`,
    slowHint: `see ${p.logFile}; a large AOF takes time to load: ${SLOW_HINT}`,
    readyNote: () => ` on ${REDIS_URL}${localAuthEnabled() ? ` (password in ${p.passwordFile})` : ''}`,
    info: localInfo,
    status: (state, pid) => ({ state, ...(pid ? { pid } : {}), url: REDIS_URL }),
    // SHUTDOWN flushes the AOF. It goes to the port this server was started on (its redis.conf), which the
    // environment may no longer name: never to whatever Redis holds PORT now.
    stop: (pid, say) =>
      stopProcess(pid, {
        name: 'redis',
        graceMs: envSeconds('REDIS_SHUTDOWN_TIMEOUT', 30) * 1000,
        request: () => redisCommand(['SHUTDOWN'], { port: confPort(p) ?? PORT, timeoutMs: 10_000 }),
        say,
      }),
  };
}

/**
 * Make sure a Redis is running and answering PING; start ours if needed.
 * @param {{log?: Function, timeoutMs?: number}} [opts]
 * @returns {Promise<{url: string, started: boolean, external: boolean, pid?: number}>}
 */
export const ensureRedis = (opts) => ensureService(redisService(), opts);

/** Stop our Redis: SHUTDOWN (it flushes the AOF), SIGTERM/SIGKILL as a fallback. */
export const stopRedis = (opts) => stopService(redisService(), opts);

/** @returns {Promise<{state: 'external'|'running'|'starting'|'stopped', pid?: number, url: string}>} */
export const redisStatus = () => serviceStatus(redisService());
