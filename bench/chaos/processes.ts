// The processes under test: finding, killing and restarting them through the project's own scripts.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { health } from './graphql.js';
import { DATA, LOG, ROOT, SERVICE_ENV } from './settings.js';
import { log, until } from './wait.js';

export function readPid(file: string): number | null {
  try {
    const n = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

export function kill9(pid: number | null | undefined, what: string): void {
  if (!pid) throw new Error(`no pid for ${what}`);
  try {
    process.kill(pid, 'SIGKILL');
    log(`kill -9 ${what} (pid ${pid})`);
  } catch (error) {
    log(`kill -9 ${what} (pid ${pid}): ${(error as Error).message}`);
  }
}

/** The children of a process (the server that npm start spawned). */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Runs an npm script to its end without blocking the clients (they share this process). */
export const npm = (args: string[]) =>
  new Promise<void>((resolve) =>
    spawn('npm', args, { cwd: ROOT, env: SERVICE_ENV, stdio: ['ignore', LOG, LOG] }).once('exit', () => resolve()),
  );

export let api: ChildProcess | null = null;
export let worker: ChildProcess | null = null;

/** How often `npm start` exited before it served (then it is run again, as a supervisor would). */
export let startFailures = 0;

/** npm start -- --api-only: resolves once GraphQL answers. */
export async function startApi(): Promise<void> {
  for (;;) {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs'), '--api-only'], {
      cwd: ROOT,
      env: SERVICE_ENV,
      stdio: ['ignore', LOG, LOG],
      detached: true,
    });
    api = child;
    await until(async () => (await health()) !== null || child.exitCode !== null, 900_000, 'the API');
    if (child.exitCode === null) return;
    startFailures++;
    log(`npm start exited (${child.exitCode}) before it served; running it again`);
  }
}

/**
 * npm run serve -- --worker-only (node --import tsx src/main.ts, the script's command): resolves once its worker runs.
 */
export async function startWorker(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main.ts'), '--worker-only'], {
    cwd: ROOT,
    env: SERVICE_ENV,
    stdio: ['ignore', 'pipe', LOG],
    detached: true,
  });
  worker = child;
  let ready = false;
  child.stdout?.on('data', (chunk: Buffer) => {
    writeSync(LOG, chunk);
    if (String(chunk).includes('Background worker ready')) ready = true;
  });
  await until(async () => ready || child.exitCode !== null, 300_000, 'the worker');
  if (!ready)
    throw new Error(`the worker exited (${child.exitCode}) before it was ready; see ${join(DATA, 'chaos.log')}`);
}
