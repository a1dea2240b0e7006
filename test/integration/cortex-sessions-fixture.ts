/**
 * What both Cortex session test files share: one app with background work on its own queues and a clock a test
 * may fix, the file's store (dropped after it), the session queries, and helpers that start sessions, call as an
 * instance, expect a typed refusal that changes nothing, and watch the bus.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { MEMORY_FIELDS, randomStore, startTestApp, type TestApp } from '../helpers.js';
import { backgroundEnv, dropQueues, queuePrefix } from '../background.js';
import type { AnyMessage } from '../../src/domain/index.js';

export let t: TestApp;
export const store = randomStore('cortex');
export const prefix = queuePrefix();
/** The app's clock: real time unless a test fixes it. */
export const clock: { fixed: number | null } = { fixed: null };

export function useCortexApp(): void {
  beforeAll(async () => {
    t = await startTestApp(
      { log: () => undefined, clock: () => clock.fixed ?? Date.now() },
      backgroundEnv(store, prefix),
    );
  });
  afterAll(async () => {
    await t.dropStore(store);
    await t.stop();
    await dropQueues(prefix);
  });
}

let n = 0;
export const SESSION =
  `id store instanceId mindType mode modeSince task project state startedAt lastActiveAt endedAt ` +
  `endCause decisions { id text rationale at } memoriesStored`;
export const START = `mutation ($input: StartSessionInput!) { startSession(input: $input) { ${SESSION} } }`;
export const TRANSITION =
  `mutation ($i: String!, $mode: WorkingMode!, $task: String, $context: JSON) { ` +
  `transition(instanceId: $i, mode: $mode, task: $task, context: $context) { ${SESSION} } }`;
export const DECIDE =
  'mutation ($i: String!, $text: String!, $why: String) { logDecision(instanceId: $i, text: $text, rationale: $why) ' +
  '{ id text rationale at } }';
export const END =
  `mutation ($i: String!, $reason: String) { endSession(instanceId: $i, reason: $reason) { prompt ` +
  `memoriesStored unclaimed { id content } session { ${SESSION} } } }`;
export const STORE = `mutation ($input: StoreInput!) { store(input: $input) { ${MEMORY_FIELDS} } }`;

export const instance = (label = 'mind') => `${label}-${store.slice(-8)}-${++n}`;

export async function start(instanceId: string, extra: Record<string, unknown> = {}) {
  const { startSession } = await t.ok<{ startSession: Record<string, any> }>(START, {
    input: { instanceId, mindType: 'claude', store, ...extra },
  });
  return startSession;
}

/** As the instance itself (x-instance-id), failing the test on any error. */
export async function as<T = Record<string, any>>(
  instanceId: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const res = await t.gql<T>(query, variables, { 'x-instance-id': instanceId });
  if (res.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(res.errors)}`);
  return res.data as T;
}

/** Expects the typed error, and that neither this file's store nor the other stores named moved. */
export async function expectRefused(
  query: string,
  variables: Record<string, unknown>,
  code: string,
  headers: Record<string, string> = {},
  alsoStores: string[] = [],
) {
  const counts = () => Promise.all([store, ...alsoStores].map((s) => t.countNodes(s)));
  const before = await counts();
  const res = await t.gql(query, variables, headers);
  expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toBe(code);
  expect(await counts()).toEqual(before);
}

export function tapTypes(...types: string[]): { seen: AnyMessage[]; stop(): void } {
  const seen: AnyMessage[] = [];
  const stop = t.app.bus.tap((m) => {
    if (types.includes(m.type)) seen.push(m);
  });
  return { seen, stop };
}
