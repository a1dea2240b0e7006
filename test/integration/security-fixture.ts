/**
 * The app the security tests attack: authentication on (TOTAL_RECALL_AUTH=on), two stores of its own, a token
 * of each scope, and the helpers that send as a token and check that a refused call wrote nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { randomStore, startAuthApp, TestTokens, type GraphQLResponse, type TestApp } from '../helpers.js';

export const A = randomStore('sec-a');
export const B = randomStore('sec-b');
export const coldDir = await mkdtemp(join(tmpdir(), 'total-recall-sec-'));
export let t: TestApp;
/** The tokens the security tests make, the fixture's first (tokenIds[0] is mindA's); removed after the file. */
export const tokens = new TestTokens(() => t);
export const tokenIds = tokens.ids;
export const tok: Record<'mindA' | 'mindB' | 'readerA' | 'unboundA' | 'operator', string> = {} as never;
export const iA = `sec-i-a-${A.slice(-6)}`;
export const iB = `sec-i-b-${B.slice(-6)}`;

export async function post(
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: GraphQLResponse | null; headers: Headers }> {
  const res = await fetch(t.server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await res.text();
  let json: GraphQLResponse | null = null;
  try {
    json = JSON.parse(text) as GraphQLResponse;
  } catch {
    json = null;
  }
  return { status: res.status, json, headers: res.headers };
}

/** A GraphQL call with a token. */
export async function as(
  token: string | null,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return (await post(JSON.stringify({ query, variables }), { ...auth, ...headers })).json as GraphQLResponse<
    Record<string, any>
  >;
}

export async function okAs<T = Record<string, any>>(
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const res = await as(token, query, variables);
  if (res.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(res.errors)}`);
  return res.data as T;
}

export const code = (res: GraphQLResponse) => res.errors?.[0]?.extensions?.code;
export const nodes = async () => (await t.countNodes(A)) + (await t.countNodes(B));
export const STORE = 'mutation ($in: StoreInput!) { store(input: $in) { id store sessionId accessCount } }';

/** Runs `hostile`, and checks it changed no node of either store and the service still answers health. */
export async function refusedWritingNothing(
  hostile: () => Promise<GraphQLResponse | null | undefined>,
  expected: string,
) {
  await t.app.settle();
  const before = await nodes();
  const res = await hostile();
  await t.app.settle();
  expect(res && code(res), JSON.stringify(res?.errors)?.slice(0, 500)).toBe(expected);
  expect(await nodes()).toBe(before);
  expect((await okAs<{ health: { neo4j: boolean } }>(tok.operator, '{ health { neo4j } }')).health.neo4j).toBe(true);
}

export async function storeAs(
  token: string,
  input: Record<string, unknown>,
): Promise<{ id: string; store: string; sessionId: string | null }> {
  return (await okAs<{ store: { id: string; store: string; sessionId: string | null } }>(token, STORE, { in: input }))
    .store;
}

/** Starts the app with authentication on and makes the tokens; removes both afterwards. */
export function useSecurityApp(): void {
  beforeAll(async () => {
    t = await startAuthApp({ TOTAL_RECALL_SCOPE_STORES: `${A},${B}`, TOTAL_RECALL_COLD_STORAGE_DIR: coldDir });
    const make = async (args: Parameters<TestTokens['issue']>[0]) => (await tokens.issue(args)).token;
    tok.mindA = await make({ scope: 'mind', stores: [A], instanceId: iA });
    tok.mindB = await make({ scope: 'mind', stores: [B], instanceId: iB });
    tok.readerA = await make({ scope: 'reader', stores: [A] });
    tok.unboundA = await make({ scope: 'mind', stores: [A] });
    tok.operator = await make({ scope: 'operator', label: 'security test' });
  });

  afterAll(async () => {
    await tokens.removeAll();
    await t?.dropStore(A);
    await t?.dropStore(B);
    await t?.stop();
    await rm(coldDir, { recursive: true, force: true });
  });
}

/** An app of its own with auth on and a rate limit per token per minute. */
export function startRateLimitedApp(perMinute: number): Promise<TestApp> {
  return startAuthApp({ TOTAL_RECALL_RATE_LIMIT_PER_MINUTE: String(perMinute) });
}
