/**
 * The MCP endpoint over Streamable HTTP (/mcp on the service's port), with the
 * SDK's own Client, on the real service: remember then recall, typed error
 * results with GraphQL's codes, the store header, resources and prompts; and
 * the limits GraphQL requests get (pool share, rate limit, admission).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectMcp, randomStore, startTestApp, TestTokens, type TestApp } from '../helpers.js';
import { dropQueues, queuePrefix } from '../background.js';
import { createMcpHandler } from '../../src/adapters/mcp/index.js';
import { ERROR_META_KEY, STORE_HEADER } from '../../src/adapters/mcp/testing.js';
import { buildGraphQLSchema, startGraphQLServer, type GraphQLServer } from '../../src/adapters/graphql/index.js';

let t: TestApp;
let client: Client;
const store = randomStore('mcp-http');
const other = randomStore('mcp-http-other');

type Structured = Record<string, any>;
const call = async (name: string, args: Record<string, unknown> = {}) => {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { ...result, data: result.structuredContent as Structured };
};
const errorCode = (result: { _meta?: Record<string, unknown> }) =>
  (result._meta?.[ERROR_META_KEY] as { code?: string } | undefined)?.code;

beforeAll(async () => {
  t = await startTestApp();
  client = await connectMcp(t, 'mcp-http-test', { [STORE_HEADER]: store });
});

afterAll(async () => {
  await client?.close();
  await t?.dropStore(store);
  await t?.dropStore(other);
  await t?.stop();
});

describe('MCP over Streamable HTTP', () => {
  it('remembers, then recalls with a frame line and confidences, in the store the connection names', async () => {
    const stored = await call('remember', {
      content: 'We spent two weeks in Lisbon in May, eating pastéis de nata.',
      tags: ['travel'],
      people: ['Ana'],
    });
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
    // the first test's memory and its event, nothing more from this call
    expect(await t.countNodes(store)).toBeGreaterThan(0);
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
    expect(done.data).toEqual({ id, forgotten: true, consolidatedInto: [] });
  });

  it("answers arguments that break the input schema, and a bad time, with GraphQL's codes", async () => {
    const bad = await call('recall', { query: 42 });
    expect(bad.isError).toBe(true);
    expect(errorCode(bad)).toBe('BAD_USER_INPUT');
    const badTime = await call('remember', { content: 'dated badly', occurredAt: 'next tuesday-ish' });
    expect(errorCode(badTime)).toBe('INVALID_DATETIME');
  });

  it('reads an optional argument given as null as one left out, as GraphQL does', async () => {
    // Agents calling tools in strict mode send every optional argument, null when they have no value.
    const stored = await call('remember', {
      content: 'The hedgehog sleeps under the compost heap.',
      store: null,
      tier: null,
      tags: null,
      people: null,
      emotions: null,
      metadata: null,
      occurredAt: null,
      id: null,
      instanceId: null,
    });
    expect(stored.isError, JSON.stringify(stored.content)).toBeFalsy();
    expect([stored.data.memory.store, stored.data.memory.tier]).toEqual([store, 'LONG_TERM']);
    const nulls = (names: string[]) => Object.fromEntries(names.map((n) => [n, null]));
    const recalled = await call('recall', {
      query: 'where does the hedgehog sleep?',
      ...nulls(['store', 'limit', 'minConfidence', 'tiers', 'from', 'to', 'tags', 'people', 'includeAssociations']),
    });
    expect(recalled.isError, JSON.stringify(recalled.content)).toBeFalsy();
    expect(recalled.data.hits.map((h: Structured) => h.memory.id)).toContain(stored.data.memory.id);
    const context = await call('context', {
      query: 'hedgehog',
      ...nulls(['store', 'maxTokens', 'maxItems', 'sessionId', 'injectFloor', 'liveFloor', 'instanceId']),
    });
    expect(context.isError, JSON.stringify(context.content)).toBeFalsy();
    const around = await call('neighbourhood', { id: stored.data.memory.id, depth: null, types: null, limit: null });
    expect(around.isError, JSON.stringify(around.content)).toBeFalsy();
    // A null inside a value stays: it is the value.
    const kept = await call('remember', { content: 'A note with an empty field.', metadata: { due: null } });
    expect(kept.data.memory.metadata).toEqual({ due: null });
  });

  it('lists tools with titles, output schemas and annotations', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((x) => x.name).sort();
    for (const name of [
      'remember',
      'recall',
      'context',
      'claim',
      'reclassify',
      'associate',
      'neighbourhood',
      'reflect',
      'forget',
      'session_start',
      'session_end',
      'transition',
      'log_decision',
      'resume',
      'mark_used',
      'report_outcome',
    ]) {
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
    expect(byName.get('remember')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
  });

  it('serves the identity core and active context as resources, and the two prompts', async () => {
    const core = await call('remember', {
      content: 'I am a careful assistant who keeps notes.',
      tier: 'IDENTITY_CORE',
    });
    const now = await call('remember', {
      content: 'Right now I am testing the MCP resources.',
      tier: 'ACTIVE_CONTEXT',
    });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining(['total-recall://identity', 'total-recall://active-context']),
    );
    const identity = await client.readResource({ uri: 'total-recall://identity' });
    const body = JSON.parse((identity.contents[0] as { text: string }).text);
    expect(body.store).toBe(store);
    expect(body.memories.map((m: Structured) => m.id)).toContain(core.data.memory.id);
    const active = await client.readResource({
      uri: `total-recall://stores/${encodeURIComponent(store)}/active-context`,
    });
    expect(JSON.parse((active.contents[0] as { text: string }).text).memories.map((m: Structured) => m.id)).toEqual([
      now.data.memory.id,
    ]);

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

  it('a client without x-instance-id names itself with instanceId: what it stores joins its session', async () => {
    const own = randomStore('mcp-http-instance');
    const instanceId = `mcp-http-arg-${randomUUID()}`;
    const named = new Client({ name: 'mcp-http-named', version: '1.0.0' });
    try {
      const started = await call('session_start', { instanceId, store: own, task: 'no header' });
      expect(started.isError).toBeFalsy();
      const startText = (started.content as { text: string }[])[0]!.text;
      expect(startText).toContain(`Pass instanceId "${instanceId}" to remember, recall and context`);
      const stored = await call('remember', {
        content: 'Stored in a session named by argument.',
        store: own,
        instanceId,
      });
      expect(stored.isError).toBeFalsy();
      expect(stored.data.memory.sessionId).toBe(started.data.session.id);

      // recall and context are activity on the session (it does not time out while the agent works).
      const sessionId = started.data.session.id as string;
      const lastActive = async () =>
        (
          await t.cypher<{ at: number }>('MATCH (s:Session {id: $sessionId}) RETURN s.lastActiveAt.epochMillis AS at', {
            sessionId,
          })
        )[0]!.at;
      for (const [tool, args] of [
        ['recall', { query: 'session named by argument', store: own, instanceId }],
        ['context', { query: 'session named by argument', store: own, instanceId }],
      ] as const) {
        await t.cypher('MATCH (s:Session {id: $sessionId}) SET s.lastActiveAt = datetime("2020-01-01T00:00:00Z")', {
          sessionId,
        });
        const before = await lastActive();
        // A refused recall changes nothing, not even the session's activity.
        expect((await call(tool, { ...args, query: '   ' })).isError, tool).toBe(true);
        expect(await lastActive(), tool).toBe(before);
        expect((await call(tool, args)).isError, tool).toBeFalsy();
        const marked = await lastActive();
        expect(marked, tool).toBeGreaterThan(before);
        // Marked at most once a minute: the next recall writes nothing.
        expect((await call(tool, args)).isError, tool).toBeFalsy();
        expect(await lastActive(), tool).toBe(marked);
      }

      // The argument means what the header means: naming another instance than the connection's is refused.
      const url = new URL(t.server.url.replace(/\/graphql$/, '/mcp'));
      await named.connect(
        new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-instance-id': `${instanceId}-b` } } }),
      );
      const foreign = (await named.callTool({
        name: 'remember',
        arguments: { content: 'Not mine to store.', store: own, instanceId },
      })) as CallToolResult;
      expect(foreign.isError).toBe(true);
      expect(errorCode(foreign)).toBe('CORTEX.FOREIGN_INSTANCE');

      const ended = await call('session_end', { instanceId });
      expect(ended.data.memoriesStored).toBe(1);
      expect(ended.data.unclaimed.map((m: Structured) => m.id)).toEqual([stored.data.memory.id]);
    } finally {
      await named.close();
      await t.dropStore(own);
    }
  });
});

describe('MCP under the limits of GraphQL', () => {
  let limited: TestApp;
  let admitted: GraphQLServer;
  const p = queuePrefix();
  const own = randomStore('mcp-limits');
  let token = '';
  const tokens = new TestTokens(() => limited);
  /** A fresh mind token of the test's store: a rate-limit count of its own. */
  const freshToken = async () => {
    token = (await tokens.issue({ scope: 'mind', stores: [own] })).token;
  };

  /** A client of `url` (an /mcp endpoint) with the test's token. */
  async function clientOf(url: string): Promise<Client> {
    const c = new Client({ name: 'mcp-limits-test', version: '1.0.0' });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(url.replace(/\/graphql$/, '/mcp')), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return c;
  }
  const tool = async (c: Client, name: string, args: Record<string, unknown> = {}) =>
    (await c.callTool({ name, arguments: args })) as CallToolResult;
  const meta = (r: CallToolResult) => r._meta?.[ERROR_META_KEY] as { code?: string; retryAfterMs?: number } | undefined;

  beforeAll(async () => {
    limited = await startTestApp(
      {},
      {
        ...process.env,
        TOTAL_RECALL_AUTH: 'on',
        TOTAL_RECALL_QUEUE_PREFIX: p,
        TOTAL_RECALL_RATE_LIMIT_PER_MINUTE: '3',
      },
    );
    // The same app served as src/main.ts serves it: with admission control (one operation at a time, none queued).
    admitted = await startGraphQLServer(await buildGraphQLSchema(), limited.app.ports, '127.0.0.1', 0, {
      ...(await limited.app.serverOptions()),
      admission: { maxConcurrent: 1, maxQueued: 0, maxWaitMs: 100 },
      routes: {
        '/mcp': createMcpHandler({ defaultStore: limited.config.defaultStore, version: limited.config.version }),
      },
    });
  });

  afterAll(async () => {
    await admitted?.stop();
    await tokens.removeAll();
    await limited?.dropStore(own);
    await limited?.stop();
    await dropQueues(p);
  });

  it(
    "a tool call over its token's rate limit is an error result RATE_LIMITED (GraphQL's " + 'code) that writes nothing',
    async () => {
      await freshToken();
      const c = await clientOf(limited.server.url);
      try {
        // Three calls a minute: initialize and listing tools reach no data and are not counted.
        expect((await tool(c, 'remember', { content: 'Counted once.' })).isError).toBeFalsy();
        expect((await tool(c, 'recall', { query: 'counted' })).isError).toBeFalsy();
        expect((await tool(c, 'status')).isError).toBeFalsy();
        await limited.app.settle(); // the recall's record lands after its answer
        const before = await limited.countNodes(own);
        const refused = await tool(c, 'remember', { content: 'One call too many.' });
        expect(refused.isError).toBe(true);
        expect(meta(refused)?.code).toBe('RATE_LIMITED');
        expect(meta(refused)?.retryAfterMs).toBeGreaterThan(0);
        await limited.app.settle();
        expect(await limited.countNodes(own)).toBe(before);
        // GraphQL answers the same token the same way, from the same count.
        const gql = await fetch(limited.server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: '{ health { neo4j } }' }),
        });
        expect(gql.status).toBe(429);
        expect(((await gql.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe(
          'RATE_LIMITED',
        );
      } finally {
        await c.close();
      }
    },
  );

  it('a batch of JSON-RPC messages in one POST counts each tool call against the rate limit', async () => {
    await freshToken();
    const statusCall = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'status', arguments: {} },
    });
    const res = await fetch(limited.server.url.replace(/\/graphql$/, '/mcp'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify([1, 2, 3, 4].map(statusCall)),
    });
    expect(res.status).toBe(200);
    const replies = (await res.json()) as { id: number; result: CallToolResult }[];
    const outcomes = replies.map((r) => (r.result.isError ? meta(r.result)?.code : 'ok'));
    // Three calls a minute: four calls in one POST are four calls, and one of them is refused.
    expect(outcomes.sort()).toEqual(['RATE_LIMITED', 'ok', 'ok', 'ok']);
  });

  it(
    'a tool call waits for an admission slot like a GraphQL operation: none free is ' + 'an error result BUSY',
    async () => {
      await freshToken();
      const c = await clientOf(admitted.url);
      try {
        const release = await admitted.admission!.enter(); // the one slot, taken
        let busy: CallToolResult;
        try {
          busy = await tool(c, 'recall', { query: 'anything' });
        } finally {
          release();
        }
        expect(busy.isError).toBe(true);
        expect(meta(busy)?.code).toBe('BUSY');
        expect(meta(busy)?.retryAfterMs).toBeGreaterThan(0);
        expect((await tool(c, 'recall', { query: 'anything' })).isError).toBeFalsy();
      } finally {
        await c.close();
      }
    },
  );

  it(
    'a tool call gets the share of the Neo4j pool a GraphQL request gets: a taken pool is UNAVAILABLE ' +
      'within about a second',
    async () => {
      // On the first app (no tokens): the call's own port calls meet the taken pool, not a token check.
      const stored = await call('remember', { content: 'Read while the pool is taken.' });
      const id = stored.data.memory.id as string;
      await t.app.settle(); // its linking done: nothing of the app's own waits for the pool below
      // Someone holds every connection of the pool (64).
      const held = Array.from({ length: 64 }, () => t.app.driver.session({ database: t.config.neo4j.database }));
      const txs = [];
      try {
        for (const s of held) {
          const tx = s.beginTransaction();
          await tx.run('RETURN 1');
          txs.push(tx);
        }
        const started = Date.now();
        const refused = await call('neighbourhood', { id });
        const took = Date.now() - started;
        expect(refused.isError).toBe(true);
        expect(meta(refused)?.code).toBe('UNAVAILABLE');
        expect(meta(refused)?.retryAfterMs).toBe(1000);
        // A call outside a request's share would wait for the pool up to 30 s (background work does).
        expect(took).toBeLessThan(3_000);
      } finally {
        await Promise.all(txs.map((tx) => tx.rollback()));
        await Promise.all(held.map((s) => s.close()));
      }
      expect((await call('neighbourhood', { id })).isError).toBeFalsy();
    },
  );
});
