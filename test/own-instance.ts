/**
 * A Neo4j and a Redis of a test file's own, started and stopped by the
 * project's scripts (scripts/services/cli.mjs) on ports the system says are
 * free, with their files in a folder of the file's own: for what the shared
 * servers must not see (an empty database, `services:down`) or must stand
 * apart from (a server the service did not start, test/integration/deployment.test.ts).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A folder under TOTAL_RECALL_DATA: each test file its own, so two files never share a server's files. */
export const instanceDir = (name: string): string => resolve(process.env.TOTAL_RECALL_DATA || '.data', name);

/** Whether nothing listens on the port now. */
export function isFree(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.once('error', () => resolveFree(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolveFree(true)));
  });
}

/**
 * A port nothing listens on now, below Linux's ephemeral range (32768 and up):
 * a port the system hands out for port 0 may be taken by an outgoing
 * connection in the minute before Neo4j binds it (it happened).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await isFree(port)) return port;
  }
}

/** Whether the process runs (a zombie waiting for a parent to reap it has stopped). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return false; // gone between the two looks
  }
}

/** The environment of a Neo4j and a Redis of the test's own (in `dir`, on free ports), and its service script. */
export async function ownInstance(dir: string) {
  let ports: number[] = [];
  while (new Set(ports).size !== 3) ports = [await freePort(), await freePort(), await freePort()];
  const [bolt, http, redisPort] = ports as [number, number, number];
  const own: NodeJS.ProcessEnv = {
    ...process.env,
    TOTAL_RECALL_DATA: dir,
    TOTAL_RECALL_NEO4J_BOLT_PORT: String(bolt),
    TOTAL_RECALL_NEO4J_HTTP_PORT: String(http),
    TOTAL_RECALL_REDIS_PORT: String(redisPort),
  };
  // A busy 2-core machine has taken over two minutes to start a Neo4j.
  own.NEO4J_START_TIMEOUT ??= '400';
  delete own.NEO4J_URI; // else the scripts would use that server and start none
  delete own.REDIS_URL;
  delete own.TOTAL_RECALL_LOCAL_AUTH; // the default: local servers with passwords
  const services = async (command: string, extra: NodeJS.ProcessEnv = {}) => {
    const args = ['scripts/services/cli.mjs', command, '--json', '--quiet'];
    return JSON.parse((await run(process.execPath, args, { env: { ...own, ...extra }, timeout: 480_000 })).stdout);
  };
  return { own, bolt, redisPort, services };
}
