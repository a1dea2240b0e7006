/**
 * The one lifecycle the local Neo4j and Redis share (scripts/services/lifecycle.mjs), on a stand-in server: a
 * Node process that says it is ready by writing a file. Start, reuse, stop only what the pid file names, the
 * log tail when it dies during startup, a port held by another process, and an external server.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../own-instance.js';

type Handle = { pid: () => number | undefined; exited: () => object | null };
type Lifecycle = {
  ensureService: (service: object, opts?: object) => Promise<Record<string, unknown>>;
  stopService: (service: object, opts?: object) => Promise<boolean>;
  serviceStatus: (service: object) => Promise<Record<string, unknown>>;
  stopProcess: (pid: number, opts: object) => Promise<string>;
};
type Processes = { isAlive: (pid: number) => boolean; writePid: (file: string, pid: number) => void };

const lifecycle = (await import('../../scripts/services/lifecycle.mjs' as string)) as Lifecycle;
const processes = (await import('../../scripts/services/process.mjs' as string)) as Processes;

let dir: string;
const started: number[] = [];
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(tmpdir(), 'lifecycle-'));
});
afterEach(() => {
  for (const pid of started.splice(0)) if (processes.isAlive(pid)) process.kill(pid, 'SIGKILL');
  delete process.env.FAKE_SERVER_URL;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A stand-in server: logs a line, then either writes its ready file or dies with exit code 3. */
function fakeService(port: number, { dies = false } = {}) {
  const readyFile = path.join(dir, 'ready');
  const logFile = path.join(dir, 'server.log');
  const pidFile = path.join(dir, 'server.pid');
  const script = dies
    ? `require('fs').appendFileSync(${JSON.stringify(logFile)}, 'ERROR bad setting\\n'); process.exit(3)`
    : `require('fs').appendFileSync(${JSON.stringify(logFile)}, 'starting\\n');
       setTimeout(() => require('fs').writeFileSync(${JSON.stringify(readyFile)}, 'ok'), 200);
       setInterval(() => {}, 1000)`;
  const size = () => (fs.existsSync(logFile) ? fs.statSync(logFile).size : 0);
  return {
    name: 'fake',
    title: 'Fake',
    command: 'node',
    externalEnv: 'FAKE_SERVER_URL',
    external: () => ({
      display: process.env.FAKE_SERVER_URL,
      info: { url: process.env.FAKE_SERVER_URL, external: true },
    }),
    externalStatus: () => ({ state: 'external' }),
    dir,
    pidFile,
    lockFile: path.join(dir, 'server.lock'),
    ports: [port],
    startTimeoutMs: 10_000,
    isOurs: (pid: number) => started.includes(pid) && processes.isAlive(pid),
    ready: async () => fs.existsSync(readyFile),
    readyProbe: 'with its ready file',
    prepare: async () => ({}),
    start: async (): Promise<Handle> => {
      fs.rmSync(readyFile, { force: true });
      const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
      let exit: object | null = null;
      child.on('exit', (code, signal) => (exit = { code, signal }));
      started.push(child.pid!);
      processes.writePid(pidFile, child.pid!);
      return { pid: () => child.pid, exited: () => exit };
    },
    logMark: size,
    startupLog: (from: number) => {
      const tail = (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '')
        .slice(from)
        .split('\n')
        .filter(Boolean);
      return { tail, telling: tail.find((l) => l.includes('ERROR')) ?? '', logFile };
    },
    spawnHint: 'install node',
    deathHint: 'fix it',
    slowHint: 'wait',
    readyNote: () => '',
    info: (isNew: boolean, pid?: number) => ({ started: isNew, pid }),
    status: (state: string, pid?: number) => ({ state, pid }),
    stop: (pid: number, say: (m: string) => void) => lifecycle.stopProcess(pid, { name: 'fake', graceMs: 5000, say }),
  };
}

describe('the service lifecycle', () => {
  it('starts the server once, reuses it, and stops only what its pid file names', async () => {
    const service = fakeService(await freePort());
    const up = await lifecycle.ensureService(service);
    expect(up).toMatchObject({ started: true });
    const pid = up.pid as number;
    expect(processes.isAlive(pid)).toBe(true);
    expect(await lifecycle.ensureService(service)).toEqual({ started: false, pid });
    expect(await lifecycle.serviceStatus(service)).toEqual({ state: 'running', pid });
    expect(await lifecycle.stopService(service)).toBe(true);
    expect(processes.isAlive(pid)).toBe(false);
    expect(await lifecycle.serviceStatus(service)).toEqual({ state: 'stopped', pid: undefined });
    expect(await lifecycle.stopService(service)).toBe(false);
  });

  it('says why a server died during startup, with the log lines of this start', async () => {
    const service = fakeService(await freePort(), { dies: true });
    await expect(lifecycle.ensureService(service)).rejects.toMatchObject({
      name: 'ServiceError',
      service: 'fake',
      message: 'Fake stopped during startup (exit code 3): ERROR bad setting',
      hint: 'fix it',
      logTail: ['ERROR bad setting'],
    });
    expect(fs.existsSync(service.pidFile)).toBe(false);
  });

  it('refuses a port another process holds, naming the fix', async () => {
    const port = await freePort();
    const other = createServer().listen(port, '127.0.0.1');
    await new Promise((resolve) => other.once('listening', resolve));
    try {
      await expect(lifecycle.ensureService(fakeService(port))).rejects.toMatchObject({
        message: expect.stringMatching(new RegExp(`^port ${port} is held by another process \\(pid ${process.pid}`)),
        hint: expect.stringContaining('or set FAKE_SERVER_URL to use the server already there'),
      });
    } finally {
      other.close();
    }
  });

  it('uses an external server and never starts or stops one', async () => {
    process.env.FAKE_SERVER_URL = 'fake://elsewhere';
    const service = fakeService(await freePort());
    expect(await lifecycle.ensureService(service)).toEqual({ url: 'fake://elsewhere', external: true });
    expect(fs.existsSync(service.pidFile)).toBe(false);
    expect(await lifecycle.serviceStatus(service)).toEqual({ state: 'external' });
    expect(await lifecycle.stopService(service)).toBe(false);
  });
});
