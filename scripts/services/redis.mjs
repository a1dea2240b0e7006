// Provision and run a local Redis (Debian's redis-server) for the project.
//
//   dir   <data>/redis/  (redis.conf, appendonly files, redis.pid, redis.log)
//   port  127.0.0.1:6380 (6379 is left to any system Redis)
//
// Plain Node ESM, node: built-ins only. REDIS_URL set → an external server is used, nothing is started.

import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import {
  ServiceError,
  aptInstall,
  canApt,
  canConnect,
  dataDir,
  describeOwner,
  ensureSecret,
  envPort,
  localAuthEnabled,
  envSeconds,
  fileSize,
  findPortOwner,
  isAlive,
  waitOrphanPortReleased,
  lastLine,
  linesSince,
  processArgv,
  readPid,
  removeFile,
  run,
  sleep,
  terminate,
  toLogger,
  which,
  withLock,
  writePid,
} from './common.mjs';

export const HOST = '127.0.0.1';
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

/** What clients of the local server need; a server started without a password gets one when it is restarted. */
function localInfo() {
  const password = redisPassword();
  return {
    url: localRedisUrl(password),
    external: false,
    auth: Boolean(password),
    authOnRestart: !password && localAuthEnabled(),
  };
}

// ---------------------------------------------------------------- tiny RESP client

/**
 * Send one command, resolve the first reply line: '+PONG', '-ERR …', ':1', '$5'…
 * Resolves '' when the server closes the connection without a reply (e.g. after SHUTDOWN).
 */
export function respCommand(args, { host = HOST, port = PORT, timeoutMs = 2000, password = redisPassword() } = {}) {
  return new Promise((resolve, reject) => {
    // With a password, AUTH goes first in the same write and its reply is skipped.
    let skip = password ? 1 : 0;
    const sock = net.connect({ host, port });
    let buf = '';
    let settled = false;
    const finish = (err, value) => {
      if (settled) return;
      settled = true;
      sock.destroy();
      if (err) reject(err);
      else resolve(value);
    };
    sock.setTimeout(timeoutMs, () => finish(new Error(`no answer from ${host}:${port} within ${timeoutMs} ms`)));
    const encode = (command) =>
      [`*${command.length}\r\n`, ...command.map((a) => `$${Buffer.byteLength(String(a))}\r\n${a}\r\n`)].join('');
    sock.once('connect', () => sock.write((password ? encode(['AUTH', password]) : '') + encode(args)));
    sock.setEncoding('utf8');
    sock.on('data', (c) => {
      buf += c;
      for (let i = buf.indexOf('\r\n'); i >= 0; i = buf.indexOf('\r\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (skip > 0) {
          skip -= 1;
          if (line.startsWith('-')) return finish(null, line);
          continue;
        }
        return finish(null, line);
      }
    });
    sock.once('end', () => finish(null, buf));
    sock.once('close', () => finish(null, buf));
    sock.once('error', (e) => finish(e));
  });
}

/** '+PONG' → true; anything else (refused, -LOADING, -NOAUTH …) → false. */
export async function redisPing(port = PORT, host = HOST) {
  try {
    return (await respCommand(['PING'], { host, port, timeoutMs: 1000 })) === '+PONG';
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- public API

/**
 * Make sure a Redis is running and answering PING; start ours if needed.
 * @param {{log?: Function, timeoutMs?: number}} [opts]
 * @returns {Promise<{url: string, started: boolean, external: boolean, pid?: number}>}
 */
export async function ensureRedis({ log, timeoutMs } = {}) {
  const say = toLogger(log);
  if (process.env.REDIS_URL) {
    say(`redis: REDIS_URL is set, using the external server ${redactUrl(process.env.REDIS_URL)}`);
    return { url: process.env.REDIS_URL, started: false, external: true };
  }
  const p = redisPaths();
  const timeout = timeoutMs ?? envSeconds('REDIS_START_TIMEOUT', 60) * 1000;
  fs.mkdirSync(p.dir, { recursive: true });

  return withLock(
    p.lockFile,
    async () => {
      // 1. Ours already running?
      const pid = readPid(p.pidFile);
      if (pid && isOurRedis(pid, p)) {
        if (!(await redisPing())) {
          say(`redis: pid ${pid} is running but not answering PING yet (loading its AOF?), waiting…`);
          await waitPing({ pid, timeout, p, offset: fileSize(p.logFile) });
        }
        return { ...localInfo(), started: false, pid };
      }
      if (pid) removeFile(p.pidFile);

      // 2. Port free? (Ours without a pid file is adopted.)
      const orphan = (await canConnect(PORT, HOST, 500)) ? findPortOwner(PORT) : null;
      // Our server killed a moment ago (kill -9) may still hold its port while it exits.
      const released = orphan && (!orphan.pid || !isAlive(orphan.pid)) ? await waitOrphanPortReleased(PORT) : false;
      if (!released && (await canConnect(PORT, HOST, 500))) {
        const owner = findPortOwner(PORT);
        if (owner?.pid && isOurRedis(owner.pid, p)) {
          say(`redis: found our server running without a pid file (pid ${owner.pid}), reusing it`);
          writePid(p.pidFile, owner.pid);
          await waitPing({ pid: owner.pid, timeout, p, offset: fileSize(p.logFile) });
          return { ...localInfo(), started: false, pid: owner.pid };
        }
        const who = describeOwner(owner);
        throw new ServiceError(`port ${PORT} is held by another process${who ? ` (${who})` : ''}`, {
          service: 'redis',
          hint: `stop it${owner?.pid ? ` (kill ${owner.pid})` : ''}, or set REDIS_URL to use the server already there`,
        });
      }

      // 3. Start.
      const server = await ensureRedisServer(say);
      writeConf(p);
      const offset = fileSize(p.logFile);
      const t0 = Date.now();
      const r = await run(server, [p.confFile], { cwd: p.dir });
      if (r.code !== 0) {
        const tail = linesSince(p.logFile, offset, 30);
        const out = `${r.stderr}\n${r.stdout}`.trim();
        throw new ServiceError(
          `redis-server exited with code ${r.code}: ${lastLine(out) || lastLine(tail.join('\n'))}`,
          {
            service: 'redis',
            hint: `see ${p.logFile} and ${p.confFile}`,
            logFile: p.logFile,
            logTail: [...out.split('\n').filter(Boolean), ...tail].slice(-30),
          },
        );
      }
      const newPid = await waitPing({ pid: null, timeout, p, offset });
      say(
        `redis: started pid ${newPid ?? '?'} on ${REDIS_URL} ${localAuthEnabled() ? ` (password in ${p.passwordFile})` : ''} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      );
      return { ...localInfo(), started: true, pid: newPid ?? undefined };
    },
    { log: say, what: 'the redis start lock' },
  );
}

/**
 * Stop our Redis: SHUTDOWN over RESP (it flushes the AOF), SIGTERM/SIGKILL as a fallback.
 * @returns {Promise<boolean>} whether a process was stopped
 */
export async function stopRedis({ log } = {}) {
  const say = toLogger(log);
  if (process.env.REDIS_URL) {
    say('redis: REDIS_URL is set (external server), nothing to stop');
    return false;
  }
  const p = redisPaths();
  if (!fs.existsSync(p.dir)) return false;
  return withLock(
    p.lockFile,
    async () => {
      const pid = readPid(p.pidFile);
      if (!pid || !isOurRedis(pid, p)) {
        removeFile(p.pidFile);
        return false;
      }
      say(`redis: stopping pid ${pid}…`);
      let how = 'stopped';
      try {
        // To the port this server was started on (its redis.conf), which the
        // environment may no longer name: never to whatever Redis holds PORT now.
        await respCommand(['SHUTDOWN'], { port: confPort(p) ?? PORT, timeoutMs: 10_000 });
      } catch {
        /* fall back to signals */
      }
      const deadline = envSeconds('REDIS_SHUTDOWN_TIMEOUT', 30) * 1000;
      const end = Date.now() + deadline;
      while (isAlive(pid) && Date.now() < end) await sleep(100);
      if (isAlive(pid)) {
        how =
          (await terminate(pid, { timeoutMs: 10_000, log: say, name: 'redis' })) === 'killed' ? 'killed' : 'stopped';
      }
      removeFile(p.pidFile);
      say(`redis: ${how}`);
      return true;
    },
    { log: say, what: 'the redis start lock' },
  );
}

/** @returns {Promise<{state: 'external'|'running'|'starting'|'stopped', pid?: number, url: string}>} */
export async function redisStatus() {
  if (process.env.REDIS_URL) return { state: 'external', url: redactUrl(process.env.REDIS_URL) };
  const p = redisPaths();
  const pid = readPid(p.pidFile);
  if (pid && isOurRedis(pid, p)) {
    return { state: (await redisPing()) ? 'running' : 'starting', pid, url: REDIS_URL };
  }
  return { state: 'stopped', url: REDIS_URL };
}

// ---------------------------------------------------------------- internals

function redactUrl(u) {
  return String(u).replace(/\/\/([^@/]*):([^@/]*)@/, '//$1:***@');
}

/** pid is a live redis-server whose working directory is our data dir. */
function isOurRedis(pid, p) {
  if (!isAlive(pid)) return false;
  const argv = processArgv(pid);
  if (argv.length === 0) return true; // cannot inspect: trust the pid file
  if (!/redis-server|redis-check/.test(argv[0] ?? '')) return false;
  try {
    return fs.realpathSync(`/proc/${pid}/cwd`) === fs.realpathSync(p.dir);
  } catch {
    return (argv[0] ?? '').includes(`:${PORT}`);
  }
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

/** Wait for +PONG; returns the pid from the pid file. */
async function waitPing({ pid, timeout, p, offset }) {
  const start = Date.now();
  const end = start + timeout;
  let current = pid;
  let sawPid = false;
  while (Date.now() < end) {
    current = readPid(p.pidFile) ?? current;
    if (current) sawPid = true;
    if (await redisPing()) {
      // The pid file may land a moment after the port answers.
      for (let i = 0; !current && i < 20; i++) {
        await sleep(100);
        current = readPid(p.pidFile);
      }
      return current;
    }
    if (sawPid && current && !isAlive(current)) {
      removeFile(p.pidFile);
      const tail = linesSince(p.logFile, offset, 30);
      const telling = tail.find((l) => /#\s|error|Error|FATAL|Bad|Can't/.test(l)) ?? lastLine(tail.join('\n'));
      throw new ServiceError(`Redis stopped during startup${telling ? `: ${telling.trim()}` : ''}`, {
        service: 'redis',
        hint: `fix the cause shown in ${p.logFile}, then run \`up\` again`,
        logFile: p.logFile,
        logTail: tail,
      });
    }
    if (!sawPid && Date.now() - start > 10_000) {
      // redis-server writes its pid file right after binding; none after 10 s means it died early.
      const tail = linesSince(p.logFile, offset, 30);
      const telling = tail.find((l) => /#\s|error|Error|FATAL|Bad|Can't/.test(l)) ?? lastLine(tail.join('\n'));
      throw new ServiceError(`Redis did not come up${telling ? `: ${telling.trim()}` : ''}`, {
        service: 'redis',
        hint: `fix the cause shown in ${p.logFile}, then run \`up\` again`,
        logFile: p.logFile,
        logTail: tail,
      });
    }
    await sleep(100);
  }
  throw new ServiceError(`Redis did not answer PING on ${REDIS_URL} within ${Math.round(timeout / 1000)} s`, {
    service: 'redis',
    hint: `see ${p.logFile}; a large AOF takes time to load: run \`up\` again or raise REDIS_START_TIMEOUT (seconds)`,
    logFile: p.logFile,
    logTail: linesSince(p.logFile, offset, 30),
  });
}

/** Path of redis-server; installs Debian's package when root. */
async function ensureRedisServer(say) {
  const found = which('redis-server') ?? (fs.existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : null);
  if (found) return found;
  if (!canApt()) {
    throw new ServiceError('redis-server is not installed', {
      service: 'redis',
      hint: 'apt-get install redis-server (as root), or set REDIS_URL to an existing Redis',
    });
  }
  const systemRedisBefore = await canConnect(6379, HOST, 300);
  say('redis: redis-server is not installed, installing it with apt-get…');
  await aptInstall(['redis-server'], { log: (m) => say(`redis: ${m}`) });
  if (!systemRedisBefore) await stopSystemRedis(say);
  const bin = which('redis-server') ?? (fs.existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : null);
  if (!bin) {
    throw new ServiceError('redis-server is still missing after apt-get install', {
      service: 'redis',
      hint: 'apt-get install redis-server, or set REDIS_URL',
    });
  }
  return bin;
}

/** The package starts a system Redis on 6379; we do not use it. Best effort, never fails. */
async function stopSystemRedis(say) {
  await sleep(300);
  if (!(await canConnect(6379, HOST, 300))) return;
  const tries = [
    ['systemctl', ['disable', '--now', 'redis-server']],
    ['service', ['redis-server', 'stop']],
    ['update-rc.d', ['redis-server', 'disable']],
  ];
  for (const [cmd, args] of tries) {
    if (!which(cmd)) continue;
    try {
      await run(cmd, args);
    } catch {
      /* ignore */
    }
    if (!(await canConnect(6379, HOST, 300))) break;
  }
  say(
    (await canConnect(6379, HOST, 300))
      ? 'redis: note: the system Redis the package started on 6379 is still running (unused by us)'
      : 'redis: stopped the system Redis the package started on 6379 (we use our own on 6380)',
  );
}
