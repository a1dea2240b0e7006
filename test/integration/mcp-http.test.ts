/**
 * The MCP endpoint over Streamable HTTP (/mcp on the service's port), with the
 * SDK's own Client, on the real service: remember then recall, typed error
 * results with GraphQL's codes, the store header, resources and prompts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { ERROR_META_KEY, STORE_HEADER } from '../../src/adapters/mcp/index.js';

let t: TestApp;
let client: Client;
const store = randomStore('mcp-http');
const other = randomStore('mcp-http-other');

type Structured = Record<string, any>;
const call = async (name: string, args: Record<string, unknown> = {}) => {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { ...result, data: result.structuredContent as Structured };
};
const errorCode = (result: { _meta?: Record<string, unknown> }) => (result._meta?.[ERROR_META_KEY] as { code?: string } | undefined)?.code;

beforeAll(async () => {
  t = await startTestApp();
  client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  const url = new URL(t.server.url.replace(/\/graphql$/, '/mcp'));
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { [STORE_HEADER]: store } } }));
});

afterAll(async () => {
  await client?.close();
  await t?.dropStore(store);
  await t?.dropStore(other);
  await t?.stop();
});

describe('MCP over Streamable HTTP', () => {
  it('remembers, then recalls with a frame line and confidences, in the store the connection names', async () => {
    const stored = await call('remember', { content: 'We spent two weeks in Lisbon in May, eating pastéis de nata.', tags: ['travel'], people: ['Ana'] });
    expect(stored.isError).toBeFalsy();
    expect(stored.data.created).toBe(true);
    expect(stored.data.memory.store).toBe(store);
    expect(stored.data.memory.salience).toBeGreaterThan(0);

    const recalled = await call('recall', { query: 'When were we in Lisbon?' });
    expect(recalled.isError).toBeFalsy();
    expect(recalled.data.frame).toMatch(/\S/);
    const hit = recalled.data.hits.find((h: Structured) => h.memory.id === stored.data.memory.id);
    expect(hit).toBeDefined();
    expect(hit.confidence).toBeGreaterThan(0);
    expect(hit.confidence).toBeLessThanOrEqual(1);
    expect(typeof hit.score).toBe('number');
    // The text content leads with the frame line, then the hit with its confidence and date.
    const text = (recalled.content as { type: string; text: string }[])[0]!.text;
    expect(text.split('\n')[0]).toBe(recalled.data.frame);
    expect(text).toMatch(/\[\d+% · \d{4}-\d{2}-\d{2} · /);

    // An explicit store argument overrides the connection's store.
    const elsewhere = await call('recall', { query: 'When were we in Lisbon?', store: other });
    expect(elsewhere.data.hits).toEqual([]);
  });

  it('gives a typed failure as an error result carrying the GraphQL code', async () => {
    const missing = await call('claim', { id: 'mem-does-not-exist' });
    expect(missing.isError).toBe(true);
    expect(errorCode(missing)).toBe('HIPPOCAMPUS.MEMORY_NOT_FOUND');
    const gql = await t.gql('mutation { claim(id: "mem-does-not-exist") { id } }');
    expect(gql.errors?.[0]?.extensions?.code).toBe(errorCode(missing));

    const empty = await call('remember', { content: '   ' });
    expect(empty.isError).toBe(true);
    expect(errorCode(empty)).toBe('HIPPOCAMPUS.CONTENT_EMPTY');
    expect(await t.countNodes(store)).toBeGreaterThan(0); // the first test's memory and its event, nothing more from this call
  });

  it('refuses a forget without consent and changes nothing', async () => {
    const stored = await call('remember', { content: 'A memory that must survive a careless forget.' });
    const id = stored.data.memory.id as string;
    const refused = await call('forget', { id, confirmId: 'something-else', reason: 'test' });
    expect(refused.isError).toBe(true);
    expect(errorCode(refused)).toBe('HIPPOCAMPUS.FORGET_NOT_CONFIRMED');
    const [row] = await t.cypher<{ n: number }>('MATCH (m:Memory {id: $id}) RETURN count(m) AS n', { id });
    expect(row?.n).toBe(1);
    const done = await call('forget', { id, confirmId: id, reason: 'the test is over' });
    expect(done.data).toEqual({ id, forgotten: true });
  });

  it('answers arguments that break the input schema with BAD_USER_INPUT, as GraphQL does', async () => {
    const bad = await call('recall', { query: 42 });
    expect(bad.isError).toBe(true);
    expect(errorCode(bad)).toBe('BAD_USER_INPUT');
    const badTime = await call('remember', { content: 'dated badly', occurredAt: 'next tuesday-ish' });
    expect(errorCode(badTime)).toBe('BAD_USER_INPUT');
  });

  it('lists tools with titles, output schemas and annotations', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((x) => x.name).sort();
    for (const name of ['remember', 'recall', 'context', 'claim', 'reclassify', 'associate', 'neighbourhood', 'reflect', 'forget', 'session_start', 'session_end', 'transition', 'log_decision', 'resume', 'mark_used', 'report_outcome']) {
      expect(names).toContain(name);
    }
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description!.length, tool.name).toBeGreaterThan(40);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.destructiveHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.idempotentHint, tool.name).toBe('boolean');
    }
    const byName = new Map(tools.map((x) => [x.name, x]));
    expect(byName.get('forget')!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(byName.get('neighbourhood')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('remember')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
  });

  it('serves the identity core and active context as resources, and the two prompts', async () => {
    const core = await call('remember', { content: 'I am a careful assistant who keeps notes.', tier: 'IDENTITY_CORE' });
    const now = await call('remember', { content: 'Right now I am testing the MCP resources.', tier: 'ACTIVE_CONTEXT' });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['total-recall://identity', 'total-recall://active-context']));
    const identity = await client.readResource({ uri: 'total-recall://identity' });
    const body = JSON.parse((identity.contents[0] as { text: string }).text);
    expect(body.store).toBe(store);
    expect(body.memories.map((m: Structured) => m.id)).toContain(core.data.memory.id);
    const active = await client.readResource({ uri: `total-recall://stores/${encodeURIComponent(store)}/active-context` });
    expect(JSON.parse((active.contents[0] as { text: string }).text).memories.map((m: Structured) => m.id)).toEqual([now.data.memory.id]);

    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['reflect', 'session-audit']);
    const instanceId = `mcp-http-${Date.now()}`;
    await call('session_start', { instanceId, task: 'testing prompts' });
    const inSession = await call('remember', { content: 'Something from the session worth keeping.' });
    expect(inSession.isError).toBeFalsy();
    const audit = await client.getPrompt({ name: 'session-audit', arguments: {} });
    const auditText = (audit.messages[0]!.content as { text: string }).text;
    expect(auditText).toContain('What of this session do you want to keep?');
    await call('session_end', { instanceId });
    const reflect = await client.getPrompt({ name: 'reflect', arguments: { scope: 'RECENT', limit: '5' } });
    const reflectText = reflect.messages.map((m) => (m.content as { text: string }).text).join('\n');
    expect(reflectText).toMatch(/CLAIM/);
    // The prompt opens a reflect session: its answers go to that reflection through reflect_answer.
    expect(reflectText).toMatch(/reflect_answer.*reflectionId: "[^"]+"/);
  });
});
