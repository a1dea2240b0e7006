/**
 * Session.decisionsMade on the real service: `decisions(limit)` answers only the newest few, and this count says how
 * many the session holds in all, over GraphQL and in the MCP session views. Each test has its own store.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, randomStore, startTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
let client: Client;
const stores: string[] = [];

const newStore = () => {
  const store = randomStore('decisions-made');
  stores.push(store);
  return store;
};

const START =
  'mutation ($input: StartSessionInput!) { startSession(input: $input) { id decisions { id } decisionsMade } }';
const DECIDE = 'mutation ($i: String!, $text: String!) { logDecision(instanceId: $i, text: $text) { id } }';
const SESSION = 'query ($id: ID!) { session(id: $id) { decisions(limit: 2) { text } decisionsMade } }';
const LISTS =
  'query ($store: String!, $i: String!) { sessions(store: $store, instanceId: $i) { id decisionsMade } ' +
  'resume(store: $store, instanceId: $i) { session { id decisionsMade } } }';

const call = async (name: string, args: Record<string, unknown>) => {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content as { text: string }[])[0]?.text ?? '';
  expect(result.isError, text).toBeFalsy();
  return { text, data: result.structuredContent as Record<string, any> };
};

beforeAll(async () => {
  t = await startTestApp({ log: () => undefined });
  client = await connectMcp(t, 'decisions-made-test');
});

afterEach(async () => {
  for (const store of stores.splice(0)) await t.dropStore(store);
});

afterAll(async () => {
  await client?.close();
  await t?.stop();
});

describe('Session.decisionsMade', () => {
  it('counts every decision of the session while decisions(limit) answers the newest few', async () => {
    const store = newStore();
    const i = `mind-${store.slice(-8)}`;
    const { startSession } = await t.ok<{ startSession: any }>(START, {
      input: { instanceId: i, mindType: 'claude', store },
    });
    expect(startSession).toMatchObject({ decisions: [], decisionsMade: 0 });
    for (const text of ['first', 'second', 'third']) await t.ok(DECIDE, { i, text });

    const { session } = await t.ok<{ session: any }>(SESSION, { id: startSession.id });
    expect(session.decisions.map((d: { text: string }) => d.text)).toEqual(['second', 'third']);
    expect(session.decisionsMade).toBe(3);
    const lists = await t.ok<{ sessions: any[]; resume: any }>(LISTS, { store, i });
    expect(lists.sessions).toEqual([{ id: startSession.id, decisionsMade: 3 }]);
    expect(lists.resume.session).toEqual({ id: startSession.id, decisionsMade: 3 });
  });

  it('answers 0 for a session with no decisions', async () => {
    const store = newStore();
    const { startSession } = await t.ok<{ startSession: any }>(START, {
      input: { instanceId: `mind-${store.slice(-8)}`, mindType: 'claude', store },
    });
    const { session } = await t.ok<{ session: any }>(SESSION, { id: startSession.id });
    expect(session).toEqual({ decisions: [], decisionsMade: 0 });
  });

  it('shows decisionsMade in the MCP session views', async () => {
    const store = newStore();
    const instanceId = `agent-${store.slice(-8)}`;
    const started = await call('session_start', { instanceId, store, task: 'count decisions' });
    expect(started.data.session.decisionsMade).toBe(0);
    await call('log_decision', { instanceId, text: 'keep the count beside the list' });
    await call('log_decision', { instanceId, text: 'count in the same read' });

    const resumed = await call('resume', { store, instanceId });
    expect(resumed.data.session).toMatchObject({ id: started.data.session.id, decisionsMade: 2 });
    expect(resumed.text).toContain('"decisionsMade":2');
    const listed = await call('sessions', { store, instanceId });
    expect(listed.data.sessions.map((s: any) => s.decisionsMade)).toEqual([2]);
    const ended = await call('session_end', { instanceId });
    expect(ended.data.session.decisionsMade).toBe(2);
  });
});
