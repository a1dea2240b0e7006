/**
 * The benchmark's side of bench/scale/service-process.ts: forks the service, waits until it serves, and asks it
 * to settle or stop. Its resident memory is read from /proc, as for Neo4j.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../src/config.js';
import { residentOf } from './measure.js';

const ENTRY = fileURLToPath(new URL('./service-process.ts', import.meta.url));

export interface ServiceProcess {
  readonly url: string;
  /** Resolves once the service's bus and embedding queue have no work. */
  idle(): Promise<void>;
  /** Its resident set in MiB (null once it has exited). */
  residentMiB(): number | null;
  stop(): Promise<void>;
}

/** One reply of the child, of this type (or its exit, as an error). */
function reply(child: ChildProcess, type: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: Record<string, unknown>) => {
      if (message.type !== type) return;
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve(message);
    };
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`the service process exited (${code}) before it answered '${type}'`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export async function startService(config: Config): Promise<ServiceProcess> {
  const child = fork(ENTRY, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = reply(child, 'ready');
  child.send({ config });
  const { url } = (await ready) as { url: string };
  return {
    url,
    async idle() {
      const done = reply(child, 'idle');
      child.send({ type: 'idle' });
      await done;
    },
    residentMiB: () => (child.pid ? residentOf(child.pid) : null),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      await exited;
    },
  };
}
