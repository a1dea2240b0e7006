/**
 * One bad input, one typed code over GraphQL and over MCP (the SDK's own Client), and nothing changed: reclassify's
 * metadata, JSON arguments nested too deep (even thousands of levels), text that is not well-formed Unicode, names
 * with invisible characters, bad times. And a write that lost a race to another call is a retryable
 * CONCURRENT_CHANGE, not an internal error.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, randomStore, startTestApp, type GraphQLResponse, type TestApp } from '../helpers.js';
import { ERROR_META_KEY, STORE_HEADER } from '../../src/adapters/mcp/testing.js';
import { publicError } from '../../src/adapters/graphql/index.js';
import { Neo4jGraph } from '../../src/adapters/neo4j/index.js';
import { Hippocampus } from '../../src/contexts/hippocampus/index.js';
import { Sessions } from '../../src/contexts/cortex/index.js';
import { Bus, message, type GraphPort } from '../../src/domain/index.js';

let t: TestApp;
let client: Client;
const store = randomStore('parity');

beforeAll(async () => {
  t = await startTestApp();
  client = await connectMcp(t, 'input-parity-test', { [STORE_HEADER]: store });
});

afterAll(async () => {
  await client?.close();
  // and the stores a name with an invisible character would have made, had it been let through
  await t?.cypher('MATCH (n) WHERE n.store STARTS WITH $store DETACH DELETE n', { store });
  await t?.stop();
});

const STORE = 'mutation ($input: StoreInput!) { store(input: $input) { id } }';
const RECLASSIFY =
  'mutation ($id: ID!, $reason: String!, $m: JSON) { reclassify(id: $id, tier: ARCHIVE, reason: $reason, ' +
  'metadata: $m) { id } }';
const START = 'mutation ($input: StartSessionInput!) { startSession(input: $input) { id } }';
const TRANSITION = 'mutation ($i: String!, $c: JSON) { transition(instanceId: $i, mode: IDLE, context: $c) { id } }';
const MARK_USED = 'mutation ($r: ID!, $a: JSON) { markUsed(recallId: $r, action: $a) { id } }';

const tool = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const mcpCode = (result: CallToolResult) =>
  (result._meta?.[ERROR_META_KEY] as { code?: string } | undefined)?.code ?? 'no error';
const gqlCode = (res: GraphQLResponse) => res.errors?.[0]?.extensions?.code ?? 'no error';

/** `{"d":{"d":…1}}`, `levels` objects deep, as JSON text (JSON.stringify of thousands of levels overflows). */
const nestedText = (levels: number) => `${'{"d":'.repeat(levels)}1${'}'.repeat(levels)}`;
const nested = (levels: number): unknown => JSON.parse(nestedText(levels));

/** GraphQL and MCP both refuse with `code`, and the store's nodes (memories, events, sessions) stay as they were. */
async function refusedByBoth(
  code: string,
  overGraphQL: () => Promise<GraphQLResponse>,
  overMcp: () => Promise<CallToolResult>,
): Promise<void> {
  await t.app.settle();
  const before = await t.countNodes(store);
  expect(gqlCode(await overGraphQL())).toBe(code);
  expect(mcpCode(await overMcp())).toBe(code);
  await t.app.settle();
  expect(await t.countNodes(store)).toBe(before);
}

async function remember(content: string, metadata?: Record<string, unknown>): Promise<string> {
  const stored = await tool('remember', { content, ...(metadata ? { metadata } : {}) });
  expect(stored.isError, JSON.stringify(stored.content)).toBeFalsy();
  return (stored.structuredContent as { memory: { id: string } }).memory.id;
}

describe('the same bad input gets the same code over GraphQL and MCP, and changes nothing', () => {
  it("reclassify checks metadata with store's rules: METADATA_TOO_LARGE over 16 KiB, JSON_TOO_DEEP", async () => {
    const id = await remember('reclassified with metadata', { kept: true });
    for (const [code, metadata] of [
      ['HIPPOCAMPUS.METADATA_TOO_LARGE', { blob: 'x'.repeat(17 * 1024) }],
      ['JSON_TOO_DEEP', nested(21)],
    ] as const) {
      await refusedByBoth(
        code,
        () => t.gql(RECLASSIFY, { id, reason: 'r', m: metadata }),
        () => tool('reclassify', { id, tier: 'ARCHIVE', reason: 'r', metadata }),
      );
    }
    const [row] = await t.cypher<{ tier: string; metadata: string }>(
      'MATCH (m:Memory {id: $id}) RETURN m.tier AS tier, m.metadata AS metadata',
      { id },
    );
    expect(row).toEqual({ tier: 'LONG_TERM', metadata: '{"kept":true}' });
  });

  it('MCP refuses JSON arguments deeper than 20 levels with JSON_TOO_DEEP, as GraphQL does', async () => {
    const id = await remember('deep arguments');
    const instanceId = `parity-${randomUUID()}`;
    const deep = nested(21);
    await refusedByBoth(
      'JSON_TOO_DEEP',
      () => t.gql(STORE, { input: { store, content: 'deep', metadata: deep } }),
      () => tool('remember', { content: 'deep', metadata: deep }),
    );
    await refusedByBoth(
      'JSON_TOO_DEEP',
      () => t.gql(TRANSITION, { i: instanceId, c: deep }),
      () => tool('transition', { instanceId, mode: 'IDLE', context: deep }),
    );
    await refusedByBoth(
      'JSON_TOO_DEEP',
      () => t.gql(MARK_USED, { r: 'rec-none', a: deep }),
      () => tool('mark_used', { recallId: 'rec-none', action: deep }),
    );
    // 20 levels are fine over both.
    expect(mcpCode(await tool('remember', { content: 'twenty levels', metadata: nested(20) }))).toBe('no error');
    expect(gqlCode(await t.gql(STORE, { input: { store, content: 'twenty', metadata: nested(20) } }))).toBe('no error');

    // 5,000 levels: a typed refusal, not a stack overflow answered as an internal error.
    const rawCall = async (name: string, args: string) => {
      const res = await fetch(t.server.url.replace(/\/graphql$/, '/mcp'), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          [STORE_HEADER]: store,
        },
        body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`,
      });
      return ((await res.json()) as { result: CallToolResult }).result;
    };
    const before = await t.countNodes(store);
    const huge = nestedText(5000);
    for (const [name, args] of [
      ['remember', `{"content":"huge","metadata":${huge}}`],
      ['reclassify', `{"id":"${id}","tier":"ARCHIVE","reason":"r","metadata":${huge}}`],
      ['transition', `{"instanceId":"${instanceId}","mode":"IDLE","context":${huge}}`],
      ['mark_used', `{"recallId":"rec-none","action":${huge}}`],
    ]) {
      expect(mcpCode(await rawCall(name as string, args as string)), name).toBe('JSON_TOO_DEEP');
    }
    await t.app.settle();
    expect(await t.countNodes(store)).toBe(before);
  });

  it('refuses text that is not well-formed (a lone surrogate) and names with invisible characters', async () => {
    const lone = 'half a pair \uD83D here';
    const storeBoth = (code: string, input: Record<string, unknown>) =>
      refusedByBoth(
        code,
        () => t.gql(STORE, { input: { store, ...input } }),
        () => tool('remember', input),
      );
    await storeBoth('HIPPOCAMPUS.INVALID_CONTENT', { content: lone });
    await storeBoth('HIPPOCAMPUS.INVALID_ID', { content: 'x', id: `id-\uDC00-${randomUUID()}` });
    await storeBoth('HIPPOCAMPUS.INVALID_LABEL', { content: 'x', tags: [lone] });
    for (const unseen of ['\u200B', '\u202E', '\u2028', '\u2029']) {
      await storeBoth('HIPPOCAMPUS.INVALID_ID', { content: 'x', id: `id${unseen}${randomUUID()}` });
      await storeBoth('HIPPOCAMPUS.INVALID_STORE', { content: 'x', store: `${store}${unseen}x` });
    }
    const id = await remember('reclassified for a broken reason');
    await refusedByBoth(
      'HIPPOCAMPUS.INVALID_REASON',
      () => t.gql(RECLASSIFY, { id, reason: lone }),
      () => tool('reclassify', { id, tier: 'ARCHIVE', reason: lone }),
    );
    const instanceId = `parity\u200B${randomUUID()}`;
    await refusedByBoth(
      'CORTEX.INVALID_INSTANCE_ID',
      () => t.gql(START, { input: { instanceId, mindType: 'claude', store } }),
      () => tool('session_start', { instanceId }),
    );
    await refusedByBoth(
      'CORTEX.INVALID_TEXT',
      () => t.gql(START, { input: { instanceId: `parity-${randomUUID()}`, mindType: 'claude', store, task: lone } }),
      () => tool('session_start', { instanceId: `parity-${randomUUID()}`, task: lone }),
    );
    // In content, invisible characters and separators are text someone wrote: kept exactly, as is a whole pair.
    const content = 'zero\u200Bwidth, line\u2028separator, 🍞';
    const kept = await remember(content);
    const [row] = await t.cypher<{ content: string }>('MATCH (m:Memory {id: $id}) RETURN m.content AS content', {
      id: kept,
    });
    expect(row?.content).toBe(content);
  });

  it('refuses an empty store named by a recall or a session as a mistake, not as "unset"', async () => {
    const SEARCH = 'query ($input: SearchInput!) { search(input: $input) { id } }';
    await refusedByBoth(
      'CORTEX.INVALID_STORE',
      () => t.gql(SEARCH, { input: { store: '  ', query: 'anything' } }),
      () => tool('recall', { store: '  ', query: 'anything' }),
    );
    await refusedByBoth(
      'CORTEX.INVALID_STORE',
      () => t.gql(START, { input: { instanceId: `parity-${store.slice(-6)}`, mindType: 'claude', store: '' } }),
      () => tool('session_start', { instanceId: `parity-${store.slice(-6)}`, mindType: 'claude', store: '' }),
    );
  });

  it('refuses a time that is not an ISO-8601 date with INVALID_DATETIME', async () => {
    await refusedByBoth(
      'INVALID_DATETIME',
      () => t.gql(STORE, { input: { store, content: 'dated badly', occurredAt: '2026-02-30' } }),
      () => tool('remember', { content: 'dated badly', occurredAt: '2026-02-30' }),
    );
  });
});

describe('a write that lost a race', () => {
  /**
   * The real graph, with `change` run as another caller's committed write just before the statement in `file`
   * (after this call's read): the race, every time.
   */
  function racing(file: string, change: () => Promise<unknown>): GraphPort {
    const real = new Neo4jGraph(t.app.driver, t.config.neo4j.database);
    return {
      read: (s, p) => real.read(s, p),
      write: (s, p) => real.write(s, p),
      readTransaction: (w) => real.readTransaction(w),
      transaction: (work) =>
        real.transaction((tx) =>
          work({
            async run(s, p) {
              if (s.file.endsWith(file)) await change();
              return tx.run(s, p);
            },
          } as typeof tx),
        ),
    };
  }

  it('a reclassify whose memory changed tier meanwhile is a retryable CONCURRENT_CHANGE', async () => {
    const id = await remember('moved by someone else');
    const moveElsewhere = () => t.cypher("MATCH (m:Memory {id: $id}) SET m.tier = 'ACTIVE_CONTEXT'", { id });
    const hippocampus = new Hippocampus({
      graph: racing('reclassify-memory.cypher', moveElsewhere),
      bus: new Bus(),
      limits: t.config,
    });
    const error = await hippocampus
      .reclassify(message('ReclassifyCommand', { id, tier: 'ARCHIVE', reason: 'r', metadata: null }, 'cortex'))
      .catch((e: unknown) => e);
    expect(publicError(error)).toMatchObject({ code: 'CONCURRENT_CHANGE', retryAfterMs: expect.any(Number) });
    const events = await t.cypher<{ n: number }>(
      "MATCH (e:Event {type: 'MemoryReclassified', memoryId: $id}) RETURN count(e) AS n",
      { id },
    );
    expect(Number(events[0]?.n)).toBe(0);
  });

  it('a transition whose session changed mode meanwhile is a retryable CONCURRENT_CHANGE', async () => {
    const instanceId = `parity-${randomUUID()}`;
    await t.ok(START, { input: { instanceId, mindType: 'claude', store } });
    const changeMode = () =>
      t.cypher("MATCH (s:Session {openInstance: $instanceId}) SET s.mode = 'TASK'", { instanceId });
    const sessions = new Sessions({ graph: racing('transition-session.cypher', changeMode), bus: new Bus() });
    const error = await sessions
      .transition(message('StateTransition', { instanceId, mode: 'IDLE', task: null, context: null }, 'cortex'))
      .catch((e: unknown) => e);
    expect(publicError(error)).toMatchObject({ code: 'CONCURRENT_CHANGE', retryAfterMs: expect.any(Number) });
    const events = await t.cypher<{ n: number }>(
      "MATCH (s:Session {openInstance: $instanceId}), (e:Event {type: 'StateTransitioned', sessionId: s.id}) " +
        'RETURN count(e) AS n',
      { instanceId },
    );
    expect(Number(events[0]?.n)).toBe(0);
  });
});
