/**
 * Whether a call may wait for a pooled database connection. A request's
 * calls (run inside `failingFast`) fail at once when the pool is full, so the
 * client retries; background work (sweeps, jobs, a recall's record) keeps
 * asking for a while. The graph adapter reads the mode (src/adapters/neo4j/pool-wait.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const mode = new AsyncLocalStorage<'request' | 'background'>();

export function failingFast<T>(work: () => T): T {
  return mode.run('request', work);
}

/**
 * Work started from a request that must not be dropped when the pool is
 * briefly full (it is not the request's answer).
 */
export function inBackground<T>(work: () => T): T {
  return mode.run('background', work);
}

export function isFailingFast(): boolean {
  return mode.getStore() === 'request';
}
