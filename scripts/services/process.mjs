// Processes and ports of the local servers: pid files, "is this pid still ours?", stopping, the start lock,
// and who holds a port. node: built-ins only.
//
// The few /proc reads here are for what neither Node nor the project's dependencies can tell: whether a pid is
// a zombie, another process's command line and working directory, and which process listens on a port.

import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { ServiceError, removeFile, sleep } from './common.mjs';

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

/** True when pid names a running (non-zombie) process. */
export function isAlive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code !== 'EPERM') return false;
  }
  try {
    // kill(0) succeeds for a zombie; only /proc/<pid>/stat shows state Z (zombie) or X (dead).
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

/** Command line of a process as an argv array ([] if unknown): tells our server from a recycled pid. */
export function processArgv(pid) {
  try {
    // Node has no API for another process's argv.
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** The working directory of a process (null if unknown). */
export function processCwd(pid) {
  try {
    // Node has no API for another process's working directory.
    return fs.realpathSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
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

// ---------------------------------------------------------------- ports

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

/**
 * Who listens on a local TCP port? Node cannot say, and `ss`/`lsof` are not on every Debian image: reads
 * /proc/net/tcp{,6} for a LISTEN socket and then /proc/<pid>/fd to find its owner.
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
        const command = processArgv(pid).join(' ');
        return { pid, command: command.length > 120 ? `${command.slice(0, 119)}…` : command };
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
