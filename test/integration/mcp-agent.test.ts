/**
 * The MCP tools as a real agent calls them, with the SDK's own Client over Streamable HTTP: a number or a boolean sent
 * as a string, a single label for a list, an enum in lower case, an id with spaces around it, a misspelled argument,
 * session tools without an instance; and tool listings a function-calling client accepts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, randomStore, startTestApp, type TestApp } from '../helpers.js';
import { ERROR_META_KEY, STORE_HEADER } from '../../src/adapters/mcp/testing.js';

let t: TestApp;
let client: Client;
const store = randomStore('mcp-agent');

type Structured = Record<string, any>;
const call = async (name: string, args: Record<string, unknown> = {}) => {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content as { text: string }[])[0]?.text ?? '';
  return { ...result, text, data: result.structuredContent as Structured };
};
const errorCode = (result: { _meta?: Record<string, unknown> }) =>
  (result._meta?.[ERROR_META_KEY] as { code?: string } | undefined)?.code;

beforeAll(async () => {
  t = await startTestApp();
  client = await connectMcp(t, 'mcp-agent-test', { [STORE_HEADER]: store });
});

afterAll(async () => {
  await client?.close();
  await t?.dropStore(store);
  await t?.stop();
});

describe('MCP tools as agents call them', () => {
  it('reads a number or a boolean sent as a string, one label for a list, and an enum in any case', async () => {
    const stored = await call('remember', { content: 'The lighthouse keeper paints the door blue.', tags: 'coast' });
    expect(stored.isError, stored.text).toBeFalsy();
    expect(stored.data.memory.tags).toEqual(['coast']);
    const lower = await call('remember', { content: 'The lighthouse lamp is cleaned on Sundays.', tier: 'long_term' });
    expect(lower.isError, lower.text).toBeFalsy();
    expect(lower.data.memory.tier).toBe('LONG_TERM');

    const recalled = await call('recall', {
      query: 'lighthouse door',
      limit: '5',
      minConfidence: '0',
      includeAssociations: 'false',
      tags: 'coast',
      tiers: 'long_term',
    });
    expect(recalled.isError, recalled.text).toBeFalsy();
    expect(recalled.data.hits.map((h: Structured) => h.memory.id)).toEqual([stored.data.memory.id]);
    const context = await call('context', { query: 'lighthouse', maxTokens: ' 500 ', maxItems: '2' });
    expect(context.isError, context.text).toBeFalsy();
    expect(context.data.hits.length).toBeGreaterThan(0);
    const around = await call('neighbourhood', { id: stored.data.memory.id, depth: '2', types: 'thematic' });
    expect(around.isError, around.text).toBeFalsy();

    // What is not a number stays refused, naming the argument; a fraction is not rounded.
    for (const limit of ['five', '2.5', '', '0x10', '1e2']) {
      const bad = await call('recall', { query: 'lighthouse', limit });
      expect(errorCode(bad), limit).toBe('BAD_USER_INPUT');
      expect(bad.text, limit).toMatch(/ at limit/);
    }
    expect(errorCode(await call('recall', { query: 'lighthouse', includeAssociations: 'no' }))).toBe('BAD_USER_INPUT');
    expect(errorCode(await call('remember', { content: 'x', tier: 'long term' }))).toBe('BAD_USER_INPUT');
  });

  it('refuses an unknown argument, naming it and the arguments the tool takes, and changes nothing', async () => {
    await t.app.settle();
    const before = await t.countNodes(store);
    // `tag` for `tags`: ignored, it would store a memory without its tag (or recall without the filter).
    const typo = await call('remember', { content: 'Stored with a misspelled argument.', tag: ['coast'] });
    expect(typo.isError).toBe(true);
    expect(errorCode(typo)).toBe('BAD_USER_INPUT');
    expect(typo.text).toMatch(/^BAD_USER_INPUT: .*unknown argument "tag"/);
    expect(typo.text).toContain('content, store, tier, tags');
    const filter = await call('recall', { query: 'lighthouse', limits: 3 });
    expect(errorCode(filter)).toBe('BAD_USER_INPUT');
    expect(filter.text).toMatch(/unknown argument "limits"/);
    const missing = await call('reclassify', { id: 'mem-none', tier: 'ARCHIVE' });
    expect(missing.text).toMatch(/^BAD_USER_INPUT: .*missing required argument "reason" \(a string\)/);
    const status = await call('status', { verbose: true });
    expect(errorCode(status)).toBe('BAD_USER_INPUT');
    expect(status.text).toMatch(/takes no arguments/);
    await t.app.settle();
    expect(await t.countNodes(store)).toBe(before);
  });

  it('finds a memory by an id sent with spaces or a newline around it (no id has them)', async () => {
    const stored = await call('remember', { content: 'The harbour master keeps a logbook.' });
    const id = stored.data.memory.id as string;
    const claimed = await call('claim', { id: ` ${id}\n` });
    expect(claimed.isError, claimed.text).toBeFalsy();
    expect(claimed.data.memory.claimed).toBe(true);
    // Quotes may belong to an id an agent chose: kept as given, and the refusal says what went wrong.
    const quoted = await call('claim', { id: `"${id}"` });
    expect(errorCode(quoted)).toBe('HIPPOCAMPUS.MEMORY_NOT_FOUND');
    expect(quoted.text).toMatch(/wrapped in quotes: pass the id alone/);
    const plain = await call('claim', { id: 'mem-none' });
    expect(plain.text).not.toMatch(/quotes/);
    const forgotten = await call('forget', { id: `${id} `, confirmId: ` ${id}`, reason: 'the test is over' });
    expect(forgotten.isError, forgotten.text).toBeFalsy();
    expect(forgotten.data.id).toBe(id);
  });

  it('a session tool without instanceId on a connection that names none says to pass instanceId', async () => {
    for (const [name, args] of [
      ['session_start', { task: 'no instance' }],
      ['session_end', {}],
      ['transition', { mode: 'IDLE' }],
      ['log_decision', { text: 'a decision' }],
    ] as const) {
      const refused = await call(name, args);
      expect(refused.isError, name).toBe(true);
      expect(errorCode(refused), name).toBe('CORTEX.INVALID_INSTANCE_ID');
      expect(refused.text, name).toMatch(/pass `?instanceId`?/);
      expect(refused.text, name).toMatch(/x-instance-id/);
    }
    const [sessions] = await t.cypher<{ n: number }>('MATCH (s:Session {store: $store}) RETURN count(s) AS n', {
      store,
    });
    expect(sessions?.n).toBe(0);
  });

  it('a tool that does not exist: the error names the tools there are', async () => {
    const made = await call('search', { query: 'lighthouse' });
    expect(made.isError).toBe(true);
    expect(errorCode(made)).toBe('BAD_REQUEST');
    expect(made.text).toMatch(/^BAD_REQUEST: unknown tool "search"; the tools are: remember, /);
    expect(made.text).toContain('recall');
    expect(made.text).toContain('reflect_answer');
  });

  it('no open session: the error names the tool to call, session_start', async () => {
    const ended = await call('session_end', { instanceId: `mcp-agent-${randomUUID()}` });
    expect(errorCode(ended)).toBe('CORTEX.NO_OPEN_SESSION');
    expect(ended.text).toContain('session_start');
    expect(ended.text).not.toContain('startSession');
  });

  it('lists tools a function-calling client accepts: every argument described, unknown ones refused', async () => {
    const { tools } = await client.listTools();
    const walk = (schema: unknown, visit: (node: Record<string, unknown>) => void): void => {
      if (Array.isArray(schema)) for (const s of schema) walk(s, visit);
      else if (schema && typeof schema === 'object') {
        visit(schema as Record<string, unknown>);
        for (const v of Object.values(schema)) walk(v, visit);
      }
    };
    for (const tool of tools) {
      const input = tool.inputSchema as Structured;
      expect(input.additionalProperties, tool.name).toBe(false);
      for (const [name, property] of Object.entries(input.properties ?? {})) {
        expect((property as Structured).description, `${tool.name}.${name}`).toMatch(/\S{3}/);
      }
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        walk(schema, (node) => {
          // Keywords function-calling clients refuse or misread: propertyNames, and ±2^53 bounds on every integer.
          expect(node.propertyNames, tool.name).toBeUndefined();
          expect(Math.abs(Number(node.maximum ?? 0)), tool.name).toBeLessThan(2 ** 40);
        });
      }
    }
    const limits = (tool: string, arg: string) =>
      (tools.find((x) => x.name === tool)!.inputSchema.properties as Structured)[arg].description as string;
    expect(limits('recall', 'limit')).toMatch(/1 to 100/);
    expect(limits('sessions', 'limit')).toMatch(/1 to 100/);
    expect(limits('reflect', 'limit')).toMatch(/1 to 200/);
    expect(limits('reflect_session', 'limit')).toMatch(/1 to 200/);
    expect(limits('context', 'maxItems')).toMatch(/1 to 100/);
    expect(limits('recall', 'minConfidence')).toMatch(/0 to 1/);
  });
});
