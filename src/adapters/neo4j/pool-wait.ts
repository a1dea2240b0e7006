/**
 * Who waits for a pooled Neo4j connection. The driver gives up after a short
 * acquisition timeout (TOTAL_RECALL_POOL_ACQUISITION_MS, 1 s): a request's
 * calls (run inside `failingFast`) then fail at once, answered UNAVAILABLE so
 * the client retries; background work (sweeps, jobs, a recall's record) keeps
 * asking for a connection for up to POOL_WAIT_MS, as it waited before.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const mode = new AsyncLocalStorage<'request' | 'background'>();

/** How long background work keeps asking for a connection. */
export const POOL_WAIT_MS = 30_000;

export function failingFast<T>(work: () => T): T {
  return mode.run('request', work);
}

/**
 * Work started from a request that must not be dropped when the pool is briefly full (it is not the request's answer).
 */
export function inBackground<T>(work: () => T): T {
  return mode.run('background', work);
}

export function isFailingFast(): boolean {
  return mode.getStore() === 'request';
}

export function isPoolTimeout(error: unknown): boolean {
  return error instanceof Error && /Connection acquisition timed out/.test(error.message);
}

/** Runs `work`, asking again on pool timeouts unless the caller fails fast. */
export async function waitingForPool<T>(work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isPoolTimeout(error) || isFailingFast() || Date.now() - started > POOL_WAIT_MS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(500, 20 * attempt)));
    }
  }
}
