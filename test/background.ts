/**
 * Helpers for tests of background work: each test app gets its own BullMQ
 * queue prefix (so apps and test files never share queues) and is scoped to
 * its own store (so its sweeps never touch another test's memories). Redis
 * keys under the prefix are removed afterwards.
 */
import { deleteKeysWithPrefix } from '../src/adapters/redis.js';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { queuePrefix, randomStore, startTestApp, type TestApp } from './helpers.js';
import type { AppOptions } from '../src/app.js';
import { loadConfig } from '../src/config.js';

export { queuePrefix };

/** Env for an app whose background work is confined to `store` and a fresh queue prefix. */
export function backgroundEnv(store: string, prefix: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // No background checkpoints unless a test asks: they would move the head under tests that write exports.
  return {
    ...process.env,
    TOTAL_RECALL_QUEUE_PREFIX: prefix,
    TOTAL_RECALL_SCOPE_STORES: store,
    TOTAL_RECALL_COLD_STORAGE_CHECKPOINT_MS: '0',
    ...extra,
  };
}

export function startBackgroundApp(
  store: string,
  prefix: string,
  extra: Record<string, string> = {},
  options: AppOptions = {},
): Promise<TestApp> {
  return startTestApp({ workers: true, log: () => undefined, ...options }, backgroundEnv(store, prefix, extra));
}

/** Stops the workers first (so nothing writes after the drop), then removes the store, the app and its queues. */
export async function stopBackgroundApp(t: TestApp, store: string, prefix: string): Promise<void> {
  await t.app.jobs.close();
  await t.app.bus.idle();
  await t.dropStore(store);
  await t.stop();
  await dropQueues(prefix);
}

/** Removes every Redis key under a queue prefix. */
export async function dropQueues(prefix: string, redisUrl = loadConfig().redisUrl): Promise<void> {
  await deleteKeysWithPrefix(redisUrl, prefix);
}

/** A graphql-ws client on the test server, naming itself as `instanceId`. */
export function wsClient(t: TestApp, instanceId: string | null = null): Client {
  return createClient({
    url: t.server.url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    connectionParams: instanceId ? { instanceId } : {},
    retryAttempts: 0,
    lazy: true,
  });
}

export interface Received<T> {
  readonly items: { readonly value: T; readonly at: number }[];
  readonly errors: unknown[];
  /** Resolves with the first item that matches (or rejects after the timeout). */
  next(match?: (value: T) => boolean, timeoutMs?: number): Promise<{ value: T; at: number }>;
  stop(): void;
}

/**
 * Subscribes and records what arrives, with the arrival time. graphql-ws does
 * not acknowledge a subscription: a test that must not miss what happens
 * right after subscribing passes `after` (the notifications subscription then
 * replays what was kept meanwhile).
 */
export function subscribe<T = Record<string, any>>(
  client: Client,
  query: string,
  variables: Record<string, unknown>,
): Received<T> {
  const items: { value: T; at: number }[] = [];
  const errors: unknown[] = [];
  const waiters: (() => void)[] = [];
  const stop = client.subscribe<T>(
    { query, variables },
    {
      next: (result) => {
        if (result.errors) errors.push(...result.errors);
        if (result.data) items.push({ value: result.data as T, at: Date.now() });
        for (const wake of waiters.splice(0)) wake();
      },
      error: (error) => {
        errors.push(error);
        for (const wake of waiters.splice(0)) wake();
      },
      complete: () => undefined,
    },
  );
  return {
    items,
    errors,
    stop,
    async next(match = () => true, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = items.find((i) => match(i.value));
        if (found) return found;
        if (errors.length > 0) throw new Error(`subscription error: ${JSON.stringify(errors)}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`nothing matching arrived within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, left).unref();
        });
      }
    },
  };
}

/** Polls `check` until it returns a value (not undefined) or the timeout passes. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Background apps each on its own store, queue keys and cold-storage folder. Each is stopped and its folder
 * removed after the file, with anything else pushed on `cleanups`, last first.
 */
export function scopedApps(): {
  scopedApp(label: string, extra?: Record<string, string>): Promise<{ t: TestApp; store: string; dir: string }>;
  cleanups: (() => Promise<void>)[];
} {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const clean of cleanups.reverse()) await clean().catch((error) => console.error(error));
  });
  async function scopedApp(
    label: string,
    extra: Record<string, string> = {},
  ): Promise<{ t: TestApp; store: string; dir: string }> {
    const store = randomStore(label);
    const prefix = queuePrefix();
    const dir = await mkdtemp(join(tmpdir(), 'total-recall-cold-'));
    const t = await startBackgroundApp(store, prefix, { TOTAL_RECALL_COLD_STORAGE_DIR: dir, ...extra });
    cleanups.push(async () => {
      await stopBackgroundApp(t, store, prefix);
      await rm(dir, { recursive: true, force: true });
    });
    return { t, store, dir };
  }
  return { scopedApp, cleanups };
}
