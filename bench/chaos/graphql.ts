// The clients' GraphQL calls, with the operator token `npm start` created.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA, URL_ } from './settings.js';

export interface Reply {
  data?: any;
  errors?: { message: string; extensions?: { code?: string; retryAfterMs?: number } }[];
}

/** The operator token `npm start` created on its first start (the clients are trusted load, not the subject here). */
let bearer: string | null = null;
function operatorToken(): string | null {
  try {
    bearer ??= readFileSync(join(DATA, 'operator.token'), 'utf8').trim();
  } catch {
    // Not created yet: the first start writes it.
  }
  return bearer;
}

export async function gql(
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  timeoutMs = 10_000,
): Promise<Reply> {
  const token = operatorToken();
  const res = await fetch(URL_, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return (await res.json()) as Reply;
}

export async function health(): Promise<{ neo4j: boolean; redis: boolean; degraded: string[] } | null> {
  const r = await gql('{ health { neo4j redis degraded } }', {}, {}, 2000).catch(() => null);
  return r?.data?.health ?? null;
}

/** When scheduled jobs last ran (the worker records each run in Redis; health shows it). */
export async function lastJobRun(): Promise<number> {
  const r = await gql('{ health { queues { name lastRun { at } } } }', {}, {}, 3000).catch(() => null);
  const runs = (r?.data?.health?.queues ?? []) as { name: string; lastRun: { at: string } | null }[];
  return Math.max(
    0,
    ...runs
      .filter((q) => q.name === 'session-sweep' || q.name === 'reconcile')
      .map((q) => (q.lastRun ? Date.parse(q.lastRun.at) : 0)),
  );
}
