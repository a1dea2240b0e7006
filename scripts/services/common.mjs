// Shared helpers for the local service scripts (Neo4j, Redis).
// Plain Node ESM, node: built-ins only: these run before `npm install`.

import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (scripts/services/ is two levels below it). */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where service homes and data live: $TOTAL_RECALL_DATA or <root>/.data (git-ignored). */
export function dataDir() {
  const env = process.env.TOTAL_RECALL_DATA;
  return env ? path.resolve(env) : path.join(projectRoot, '.data');
}

/** An error meant for a person: `message` is the cause (one line), `hint` the fix (one line). */
export class ServiceError extends Error {
  /**
   * @param {string} message
   * @param {{hint?: string, service?: string, logFile?: string, logTail?: string[], cause?: unknown}} [opts]
   */
  constructor(message, { hint, service, logFile, logTail, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ServiceError';
    this.hint = hint ?? '';
    this.service = service ?? '';
    this.logFile = logFile ?? '';
    this.logTail = logTail ?? [];
  }
}

/** Accepts a function, a console-like object, or nothing; returns a (msg) => void. */
export function toLogger(log) {
  if (typeof log === 'function') return log;
  if (log && typeof log.info === 'function') return (m) => log.info(m);
  if (log && typeof log.log === 'function') return (m) => log.log(m);
  return () => {};
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- pid files / processes

/** @returns {number|null} */
export function readPid(file) {
  try {
    const n = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

export function writePid(file, pid) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${pid}\n`);
}

export function removeFile(file) {
  try {
    fs.unlinkSync(file);
  } catch {
    /* already gone */
  }
}

/** True when pid names a running (non-zombie) process. */
export function isAlive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code !== 'EPERM') return false;
  }
  try {
    // "pid (comm) S ..." — state Z (zombie) or X (dead) means it is gone.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

/** Command line of a process as an argv array ([] if unknown). */
export function processArgv(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** Short printable command of a process, e.g. "python3 -m http.server 7474". */
export function processCommand(pid, max = 120) {
  const argv = processArgv(pid);
  let s = argv.join(' ');
  if (!s) {
    try {
      s = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      s = '';
    }
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Wait until pid is gone; true if it exited within timeoutMs. */
export async function waitForExit(pid, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (!isAlive(pid)) return true;
    await sleep(100);
  }
  return !isAlive(pid);
}

/** SIGTERM, wait, then SIGKILL. Returns 'terminated' | 'killed' | 'gone'. */
export async function terminate(pid, { timeoutMs = 60_000, log = () => {}, name = 'process' } = {}) {
  if (!isAlive(pid)) return 'gone';
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return 'gone';
  }
  if (await waitForExit(pid, timeoutMs)) return 'terminated';
  log(`${name} (pid ${pid}) did not stop within ${Math.round(timeoutMs / 1000)} s, sending SIGKILL`);
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone meanwhile */
  }
  await waitForExit(pid, 10_000);
  return 'killed';
}

// ---------------------------------------------------------------- locking

/**
 * Cross-process mutex via an exclusive lock file holding the owner's pid.
 * A lock whose owner is dead is taken over. Used so that parallel `up`s
 * (e.g. several test workers) do not start two servers.
 */
export async function withLock(lockFile, fn, { timeoutMs = 600_000, log = () => {}, what = 'lock' } = {}) {
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  const end = Date.now() + timeoutMs;
  let told = false;
  for (;;) {
    try {
      const fd = fs.openSync(lockFile, 'wx');
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const owner = readPid(lockFile);
      if (owner === process.pid) break; // re-entrant within this process
      if (!owner || !isAlive(owner)) {
        // Stale (or being written this instant: give a fresh file a moment).
        let age = Infinity;
        try {
          age = Date.now() - fs.statSync(lockFile).mtimeMs;
        } catch {
          continue;
        }
        if (owner || age > 2000) removeFile(lockFile);
        else await sleep(100);
        continue;
      }
      if (Date.now() > end) {
        throw new ServiceError(`timed out waiting for ${what} held by pid ${owner}`, {
          hint: `wait for that process to finish, or remove ${lockFile} if it is not running`,
        });
      }
      if (!told) {
        log(`waiting for ${what} held by pid ${owner}…`);
        told = true;
      }
      await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    if (readPid(lockFile) === process.pid) removeFile(lockFile);
  }
}

// ---------------------------------------------------------------- network

/** True when something accepts TCP connections on host:port. */
export function canConnect(port, host = '127.0.0.1', timeoutMs = 1000) {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host });
    const done = (ok) => {
      sock.removeAllListeners();
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

/** Poll until canConnect or timeout. */
export async function waitForPort(port, { host = '127.0.0.1', timeoutMs = 30_000, intervalMs = 250 } = {}) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await canConnect(port, host)) return true;
    await sleep(intervalMs);
  }
  return false;
}

/**
 * A port that still answers although no live process owns it: a server killed
 * a moment ago (kill -9) whose sockets the kernel is still closing. Waits up to
 * timeoutMs for it to be released; true once it is.
 */
export async function waitOrphanPortReleased(port, { host = '127.0.0.1', timeoutMs = 30_000 } = {}) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (!(await canConnect(port, host, 500))) return true;
    const owner = findPortOwner(port);
    if (owner?.pid && isAlive(owner.pid)) return false; // a live process holds it
    await sleep(250);
  }
  return !(await canConnect(port, host, 500));
}

/** GET url → {status, body} (body truncated to 64 KiB); rejects on network errors. */
export function httpGet(url, timeoutMs = 2000) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: timeoutMs, headers: { accept: 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        if (body.length < 65536) body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/**
 * Who listens on a local TCP port? Reads /proc/net/tcp{,6} for a LISTEN socket
 * and then /proc/<pid>/fd to find its owner.
 * @returns {{pid: number|null, command: string}|null} null when nothing listens (per /proc)
 */
export function findPortOwner(port) {
  const inodes = new Set();
  for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text;
    try {
      text = fs.readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      const localPort = Number.parseInt(cols[1].split(':')[1], 16);
      if (localPort === port && cols[3] === '0A') inodes.add(cols[9]);
    }
  }
  if (inodes.size === 0) return null;
  let procs = [];
  try {
    procs = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return { pid: null, command: '' };
  }
  for (const p of procs) {
    let fds;
    try {
      fds = fs.readdirSync(`/proc/${p}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target;
      try {
        target = fs.readlinkSync(`/proc/${p}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (m && inodes.has(m[1])) {
        const pid = Number(p);
        return { pid, command: processCommand(pid) };
      }
    }
  }
  return { pid: null, command: '' };
}

/** "pid 123: python3 -m http.server" or "" */
export function describeOwner(owner) {
  if (!owner?.pid) return '';
  return owner.command ? `pid ${owner.pid}: ${owner.command}` : `pid ${owner.pid}`;
}

// ---------------------------------------------------------------- files / commands

/** Last n non-empty lines of a text file ([] if missing). Reads at most the last 256 KiB. */
export function tailFile(file, n = 30) {
  let fd;
  try {
    fd = fs.openSync(file, 'r');
    const size = fs.fstatSync(fd).size;
    const len = Math.min(size, 256 * 1024);
    const buf = Buffer.alloc(len);
    fs.readSync(fd, buf, 0, len, size - len);
    const lines = buf
      .toString('utf8')
      .split(/\r?\n/)
      .filter((l) => l.trim() !== '');
    return lines.slice(-n);
  } catch {
    return [];
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Non-empty lines appended to a file after byte offset `from` (last n of them). */
export function linesSince(file, from, n = 30) {
  let fd;
  try {
    fd = fs.openSync(file, 'r');
    const size = fs.fstatSync(fd).size;
    const start = size < from ? 0 : Math.max(from, size - 256 * 1024); // truncated/rotated: whole file
    const buf = Buffer.alloc(size - start);
    fs.readSync(fd, buf, 0, buf.length, start);
    return buf
      .toString('utf8')
      .split(/\r?\n/)
      .filter((l) => l.trim() !== '')
      .slice(-n);
  } catch {
    return [];
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export function fileSize(file) {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

export function sha256File(file) {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Absolute path of an executable on PATH (or null). */
export function which(cmd) {
  if (cmd.includes('/')) return isExecutable(cmd) ? cmd : null;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, cmd);
    if (isExecutable(p)) return p;
  }
  return null;
}

function isExecutable(p) {
  try {
    const st = fs.statSync(p);
    if (!st.isFile()) return false;
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * Run a command to completion; resolves {code, signal, stdout, stderr} (never rejects on exit code).
 * Output is kept (last 1 MiB each) unless opts.stdio is given.
 */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let stdout = '';
    let stderr = '';
    const keep = (s, c) => (s + c).slice(-1024 * 1024);
    child.stdout?.setEncoding('utf8').on('data', (c) => (stdout = keep(stdout, c)));
    child.stderr?.setEncoding('utf8').on('data', (c) => (stderr = keep(stderr, c)));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

// ---------------------------------------------------------------- apt

let aptQueue = Promise.resolve();
let aptUpdated = false;

/** Whether we may install Debian packages ourselves (root + apt-get present). */
export function canApt() {
  return isRoot() && which('apt-get') !== null;
}

/**
 * apt-get install -y <packages> (runs `apt-get update` once first). Serialised within
 * this process and waits for the dpkg lock held by others. Throws ServiceError on failure.
 */
export function aptInstall(packages, { log = () => {} } = {}) {
  const task = aptQueue.then(async () => {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const lockOpt = ['-o', 'DPkg::Lock::Timeout=300'];
    if (!aptUpdated) {
      log('apt-get update…');
      const u = await run('apt-get', [...lockOpt, 'update'], { env });
      if (u.code !== 0) {
        throw new ServiceError(`apt-get update failed (exit ${u.code}): ${lastLine(u.stderr || u.stdout)}`, {
          hint: 'check the machine can reach the Debian mirrors, then retry',
        });
      }
      aptUpdated = true;
    }
    log(`apt-get install -y ${packages.join(' ')}…`);
    const r = await run(
      'apt-get',
      [...lockOpt, 'install', '-y', '--no-install-recommends', '-o', 'Dpkg::Options::=--force-confold', ...packages],
      { env },
    );
    if (r.code !== 0) {
      throw new ServiceError(
        `apt-get install ${packages.join(' ')} failed (exit ${r.code}): ${lastLine(r.stderr || r.stdout)}`,
        { hint: `install it by hand: apt-get install ${packages.join(' ')}` },
      );
    }
  });
  aptQueue = task.catch(() => {});
  return task;
}

/** Is a Debian package known to apt (has a candidate version)? */
export async function aptHasCandidate(pkg) {
  if (!which('apt-cache')) return false;
  const r = await run('apt-cache', ['policy', pkg]);
  const m = /Candidate:\s*(\S+)/.exec(r.stdout);
  return Boolean(m && m[1] !== '(none)');
}

export function lastLine(s) {
  const lines = String(s ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.at(-1) ?? '';
}

export async function ensureDir(...dirs) {
  for (const d of dirs) await fsp.mkdir(d, { recursive: true });
}

/**
 * Whether the local servers this project runs get generated passwords: on
 * unless TOTAL_RECALL_LOCAL_AUTH says off (an explicit opt-out; they listen
 * on loopback only either way). External servers (NEO4J_URI, REDIS_URL) keep
 * their own credentials.
 */
export function localAuthEnabled() {
  return !/^(0|off|false|no)$/i.test((process.env.TOTAL_RECALL_LOCAL_AUTH ?? '').trim());
}

/** A TCP port from an env var, or the default; a bad value stops the start with a clear message. */
export function envPort(name, defPort) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return defPort;
  const v = Number(raw);
  if (Number.isInteger(v) && v >= 1 && v <= 65535) return v;
  // Read when the module loads, before any caller could report a ServiceError: say it and stop.
  process.stderr.write(
    `error: ${name} must be a TCP port (1-65535), got "${raw}"\nfix: unset it or give a free port\n`,
  );
  process.exit(1);
}

/** Seconds from an env var (number), or the default. */
export function envSeconds(name, defSeconds) {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : defSeconds;
}

/** The trimmed contents of a secret file, or null when there is none. */
export function readSecret(file) {
  try {
    return fs.readFileSync(file, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** A secret kept in `file` (mode 0600): the one there, else a new random one. */
export function ensureSecret(file) {
  const known = readSecret(file);
  if (known) return known;
  // Hex, not base64url: one secret in 32 began with '-', and neo4j-admin then read the password as an option.
  const secret = randomBytes(24).toString('hex');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return secret;
}
