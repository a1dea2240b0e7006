/**
 * A mind token made without an instance takes its instance from x-instance-id, as an operator does (the stdio
 * bridge sends TOTAL_RECALL_INSTANCE_ID so): over MCP and GraphQL, without reaching another store. An
 * instance-bound token keeps its instance; a reader names none, and is told it may only read.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, randomStore, startAuthApp, TestTokens, type TestApp } from '../helpers.js';
import { ERROR_META_KEY } from '../../src/adapters/mcp/testing.js';

const A = randomStore('mind-inst-a');
const B = randomStore('mind-inst-b');
let t: TestApp;
const tokens = new TestTokens(() => t);
const tok: Record<'unboundA' | 'boundA' | 'readerA' | 'unboundB', string> = {} as never;
const clients: Client[] = [];

const instance = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function mcp(token: string, instanceId?: string): Promise<Client> {
  const headers: Record<string, string> = { ...bearer(token), ...(instanceId ? { 'x-instance-id': instanceId } : {}) };
  const client = await connectMcp(t, 'mind-token-instance', headers);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const error = result._meta?.[ERROR_META_KEY] as { code?: string; message?: string } | undefined;
  return { ...result, data: result.structuredContent as Record<string, any>, code: error?.code, said: error?.message };
}

beforeAll(async () => {
  t = await startAuthApp({ TOTAL_RECALL_SCOPE_STORES: `${A},${B}` });
  const make = async (args: Parameters<TestTokens['issue']>[0]) => (await tokens.issue(args)).token;
  tok.unboundA = await make({ scope: 'mind', stores: [A] });
  tok.boundA = await make({ scope: 'mind', stores: [A], instanceId: instance('mind-inst-bound') });
  tok.readerA = await make({ scope: 'reader', stores: [A] });
  tok.unboundB = await make({ scope: 'mind', stores: [B] });
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await tokens.removeAll();
  await t?.dropStore(A);
  await t?.dropStore(B);
  await t?.stop();
});

describe('a mind token without an instance', () => {
  it('over MCP, is the instance x-instance-id names: session_start needs no instanceId', async () => {
    const me = instance('hw-mind-inst');
    const client = await mcp(tok.unboundA, me);
    const started = await call(client, 'session_start', { mindType: 'claude' });
    expect(started.code, started.said).toBeUndefined();
    expect(started.data.session).toMatchObject({ instanceId: me, store: A });
    // What it stores joins that session, with no instanceId argument either.
    const stored = await call(client, 'remember', { content: 'Stored by a mind named by its header.' });
    expect(stored.data.memory.sessionId).toBe(started.data.session.id);
    // Naming itself by header, it may not act as another instance.
    const foreign = await call(client, 'log_decision', { instanceId: instance('someone-else'), text: 'not mine' });
    expect(foreign.code).toBe('CORTEX.FOREIGN_INSTANCE');
    expect((await call(client, 'session_end', {})).code).toBeUndefined();
  });

  it('over GraphQL, is the instance x-instance-id names: what it stores joins its session', async () => {
    const me = instance('gql-mind-inst');
    const as = { ...bearer(tok.unboundA), 'x-instance-id': me };
    const started = await t.gql<{ startSession: { id: string } }>(
      `mutation { startSession(input: { instanceId: "${me}", mindType: "test" }) { id } }`,
      {},
      as,
    );
    expect(started.errors).toBeUndefined();
    const stored = await t.gql<{ store: { sessionId: string | null } }>(
      'mutation ($in: StoreInput!) { store(input: $in) { sessionId } }',
      { in: { content: 'Stored over GraphQL by a mind named by its header.' } },
      as,
    );
    expect(stored.errors).toBeUndefined();
    expect(stored.data?.store.sessionId).toBe(started.data?.startSession.id);
    await t.gql(`mutation { endSession(instanceId: "${me}") { session { id } } }`, {}, as);
  });

  it('over the stdio bridge, is TOTAL_RECALL_INSTANCE_ID', async () => {
    const me = instance('hw-bridge1');
    const bridge = new Client({ name: 'mind-token-bridge', version: '1.0.0' });
    clients.push(bridge);
    await bridge.connect(
      new StdioClientTransport({
        command: 'npx',
        args: ['total-recall', 'mcp'],
        cwd: resolve(import.meta.dirname, '../..'),
        env: {
          ...(process.env as Record<string, string>),
          TOTAL_RECALL_URL: t.server.url.replace(/\/graphql$/, ''),
          TOTAL_RECALL_STORE: A,
          TOTAL_RECALL_TOKEN: tok.unboundA,
          TOTAL_RECALL_INSTANCE_ID: me,
        },
        stderr: 'ignore',
      }),
    );
    const started = await call(bridge, 'session_start', { mindType: 'claude' });
    expect(started.code, started.said).toBeUndefined();
    expect(started.data.session).toMatchObject({ instanceId: me, store: A });
    expect((await call(bridge, 'session_end', {})).code).toBeUndefined();
  }, 180_000);

  it('still reaches only its own stores, whatever instance it names', async () => {
    // An instance with an open session in B: a mind of A naming it by header may not end that session.
    const shared = instance('hw-shared');
    const ofB = await mcp(tok.unboundB, shared);
    expect((await call(ofB, 'session_start', { mindType: 'claude' })).code).toBeUndefined();
    await t.app.settle();
    const before = await t.countNodes(B);

    const ofA = await mcp(tok.unboundA, shared);
    const restart = await call(ofA, 'session_start', { mindType: 'claude' });
    // Refused (the instance is in use by another store's session, which it does not name): B's session stays open.
    expect(restart.code).toBe('CORTEX.INSTANCE_IN_USE');
    const elsewhere = await call(ofA, 'session_start', { mindType: 'claude', store: B });
    expect(elsewhere.code).toBe('FORBIDDEN');
    const recalled = await call(ofA, 'recall', { query: 'anything', store: B });
    expect(recalled.code).toBe('FORBIDDEN');
    await t.app.settle();
    expect(await t.countNodes(B)).toBe(before);
    expect((await call(ofB, 'session_end', {})).code).toBeUndefined();
  });
});

describe('other tokens and x-instance-id', () => {
  it('an instance-bound token stays its instance, and says which it is', async () => {
    const bound = (
      await t.cypher<{ i: string }>('MATCH (k:ApiToken {id: $id}) RETURN k.instanceId AS i', {
        id: tokens.ids[1],
      })
    )[0]!.i;
    const other = instance('hw-not-bound');
    const client = await mcp(tok.boundA, other);
    const started = await call(client, 'session_start', { mindType: 'claude' });
    expect(started.data.session.instanceId).toBe(bound);
    const foreign = await call(client, 'log_decision', { instanceId: other, text: 'as the header' });
    expect(foreign.code).toBe('CORTEX.FOREIGN_INSTANCE');
    expect(foreign.said).toContain(`instance "${bound}"`);
    expect((await call(client, 'session_end', {})).code).toBeUndefined();
  });

  it('a reader token is told it may only read, not that it sent no header', async () => {
    const client = await mcp(tok.readerA, instance('hw-reader'));
    const refused = await call(client, 'session_start', { mindType: 'claude' });
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.said).not.toMatch(/no x-instance-id header/);
  });
});
