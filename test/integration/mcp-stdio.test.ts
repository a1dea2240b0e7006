/**
 * `npx total-recall mcp` (the stdio bridge) spawned as a client would, with
 * the SDK's own Client, against the real service: it lists the tools, calls
 * every tool once, and returns a typed error result.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { ERROR_META_KEY } from '../../src/adapters/mcp/testing.js';

const CHECKOUT = resolve(import.meta.dirname, '../..');
let t: TestApp;
let client: Client;
const store = randomStore('mcp-stdio');
const instanceId = `stdio-${randomUUID()}`;
const called = new Set<string>();

type Structured = Record<string, any>;
async function call(name: string, args: Record<string, unknown> = {}) {
  called.add(name);
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Structured;
}

beforeAll(async () => {
  t = await startTestApp();
  const base = t.server.url.replace(/\/graphql$/, '');
  client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: 'npx',
      args: ['total-recall', 'mcp'],
      cwd: CHECKOUT,
      env: {
        ...(process.env as Record<string, string>),
        TOTAL_RECALL_URL: base,
        TOTAL_RECALL_STORE: store,
        TOTAL_RECALL_INSTANCE_ID: instanceId,
      },
      stderr: 'inherit',
    }),
  );
}, 180_000);

afterAll(async () => {
  await client?.close();
  await t?.dropStore(store);
  await t?.stop();
});

describe('MCP over stdio (npx total-recall mcp)', () => {
  it('lists the tools and calls every one of them once', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((x) => x.name);
    expect(names.length).toBeGreaterThanOrEqual(16);

    const status = await call('status');
    expect(status.store).toBe(store);
    const started = await call('session_start', { task: 'testing the stdio bridge' });
    expect(started.session).toMatchObject({ instanceId, store, mode: 'TASK' });

    const a = (
      await call('remember', {
        content: 'The deploy failed because the disk was full on the build host.',
        tags: ['ops'],
        people: ['Bo'],
      })
    ).memory;
    const b = (
      await call('remember', { content: 'We cleaned the build host disk and the deploy went through.', tags: ['ops'] })
    ).memory;
    expect(a.store).toBe(store);
    expect(a.sessionId).toBe(started.session.id);

    const recalled = await call('recall', { query: 'Why did the deploy fail?' });
    expect(recalled.hits.length).toBeGreaterThan(0);
    expect(recalled.hits[0].confidence).toBeGreaterThan(0);
    const context = await call('context', { query: 'Why did the deploy fail?', maxTokens: 500 });
    expect(context.text.split('\n')[0]).toMatch(/\S/);
    const used = await call('mark_used', { recallId: recalled.recallId, memoryIds: [recalled.hits[0].memory.id] });
    const outcome = await call('report_outcome', { useId: used.use.id, outcome: 'SUCCEEDED' });
    expect(outcome.use.outcome).toBe('SUCCEEDED');

    expect((await call('claim', { id: a.id })).memory.claimed).toBe(true);
    expect((await call('reclassify', { id: b.id, tier: 'ACTIVE_CONTEXT', reason: 'working on it' })).memory.tier).toBe(
      'ACTIVE_CONTEXT',
    );
    const link = await call('associate', { a: a.id, b: b.id, type: 'CAUSAL' });
    expect(link.association).toMatchObject({ type: 'CAUSAL', origin: 'SEMANTIC' });
    const around = await call('neighbourhood', { id: a.id });
    expect(around.associations.map((x: Structured) => x.other.id)).toContain(b.id);
    expect(Array.isArray((await call('reflect', { scope: 'RECENT' })).candidates)).toBe(true);
    // A reflect session: open it, answer one candidate with an offered action, one fewer remains.
    const reflection = await call('reflect_session', { scope: 'RECENT', limit: 5 });
    expect(reflection.candidates.length).toBeGreaterThan(0);
    const first = reflection.candidates[0];
    expect(first.actions.map((x: Structured) => x.kind)).toContain('KEEP');
    const answered = await call('reflect_answer', {
      reflectionId: reflection.reflectionId,
      memoryId: first.memory.id,
      action: 'KEEP',
      why: 'it still holds',
    });
    expect(answered.remaining).toBe(reflection.remaining - 1);

    expect((await call('transition', { mode: 'CONVERSATION' })).session.mode).toBe('CONVERSATION');
    expect(
      (await call('log_decision', { text: 'Clean build hosts weekly', rationale: 'full disks break deploys' })).decision
        .text,
    ).toBe('Clean build hosts weekly');
    expect((await call('sessions')).sessions.map((s: Structured) => s.id)).toContain(started.session.id);
    const resumed = await call('resume');
    expect(resumed.session.id).toBe(started.session.id);
    expect(resumed.activeContext.map((m: Structured) => m.id)).toContain(b.id);
    const ended = await call('session_end', { reason: 'done' });
    expect(ended.session.endCause).toBe('EXPLICIT');
    expect(ended.memoriesStored).toBe(2);
    expect(ended.unclaimed.map((m: Structured) => m.id)).toEqual([b.id]);
    expect(await call('forget', { id: b.id, confirmId: b.id, reason: 'the test is over' })).toEqual({
      id: b.id,
      forgotten: true,
      consolidatedInto: [],
    });

    expect(names.filter((n) => !called.has(n))).toEqual([]);
  }, 180_000); // twenty round trips through a spawned bridge, on a busy machine

  it('relays a typed failure as an error result with its code', async () => {
    const result = (await client.callTool({ name: 'transition', arguments: { mode: 'TASK' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result._meta?.[ERROR_META_KEY] as { code: string } | undefined)?.code).toBe('CORTEX.NO_OPEN_SESSION');
    expect((result.content as { text: string }[])[0]!.text).toMatch(/^CORTEX\.NO_OPEN_SESSION: /);
  });
});
