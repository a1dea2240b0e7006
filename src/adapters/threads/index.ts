/** Worker threads that run the service's TypeScript modules. */
import { Worker, type WorkerOptions } from 'node:worker_threads';

const ENTRY = new URL('./ts-worker.mjs', import.meta.url);

/** A worker thread running `module` (a .ts file URL), loaded through tsx unless compiled. */
export function tsWorker(module: URL, options: Omit<WorkerOptions, 'argv'> = {}): Worker {
  return new Worker(ENTRY, { ...options, argv: [module.href] });
}
