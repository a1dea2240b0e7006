/**
 * A session a read is scoped to (contextFor's and the MCP `context` tool's `sessionId`, search's sessionId filter)
 * must be one the store read knows: an unknown one, or one of another store, is CORTEX.SESSION_NOT_FOUND over GraphQL
 * and MCP alike, and the refused read records nothing. A session known only by the memories stored with it (never
 * opened here, as an import leaves it) is a session of the store.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, randomStore, startTestApp, type GraphQLResponse, type TestApp } from '../helpers.js';
import { ERROR_META_KEY, STORE_HEADER } from '../../src/adapters/mcp/testing.js';

let t: TestApp;
let client: Client;
const store = randomStore('session-scope');
const other = randomStore('session-scope-other');
const unknown = `ses-unknown-${randomUUID()}`;
const imported = `ses-imported-${randomUUID()}`;
let opened = '';
let ofOther = '';

const CONTEXT = 'query ($in: ContextInput!) { contextFor(input: $in) { recallId hits { memory { id } } } }';
const SEARCH = 'query ($in: SearchInput!) { search(input: $in) { id hits { memory { id } } } }';
const START = 'mutation ($in: StartSessionInput!) { startSession(input: $in) { id } }';
const STORE = 'mutation ($in: StoreInput!) { store(input: $in) { id } }';

const code = (res: GraphQLResponse) => res.errors?.[0]?.extensions?.code;
const nodes = async () => (await t.countNodes(store)) + (await t.countNodes(other));

/** Runs `read`: its answer, and how many nodes of either store it wrote. */
async function counted<T>(read: () => Promise<T>): Promise<{ answer: T; written: number }> {
  await t.app.settle();
  const before = await nodes();
  const answer = await read();
  await t.app.settle();
  return { answer, written: (await nodes()) - before };
}

const context = (sessionId: string) =>
  t.gql(CONTEXT, { in: { query: 'harbour lantern', store, sessionId, maxTokens: 500 } });
const search = (sessionId: string) => t.gql(SEARCH, { in: { query: 'harbour lantern', store, sessionId } });
const tool = async (sessionId: string) =>
  (await client.callTool({
    name: 'context',
    arguments: { query: 'harbour lantern', sessionId, maxTokens: 500 },
  })) as CallToolResult;
const toolCode = (r: CallToolResult) => (r._meta?.[ERROR_META_KEY] as { code?: string } | undefined)?.code;

beforeAll(async () => {
  t = await startTestApp();
  const start = async (s: string) =>
    (
      await t.ok<{ startSession: { id: string } }>(START, {
        in: { store: s, instanceId: `scope-${randomUUID()}`, mindType: 'test' },
      })
    ).startSession.id;
  opened = await start(store);
  ofOther = await start(other);
  await t.ok(STORE, { in: { store, content: 'The harbour lantern is lit at dusk.', sessionId: opened } });
  await t.ok(STORE, { in: { store, content: 'The harbour lantern came from the old ship.', sessionId: imported } });
  await t.ok(STORE, { in: { store: other, content: 'The harbour lantern of the other store.', sessionId: ofOther } });
  client = await connectMcp(t, 'session-scope-test', { [STORE_HEADER]: store });
});

afterAll(async () => {
  await client?.close();
  await t?.dropStore(store);
  await t?.dropStore(other);
  await t?.stop();
});

describe('a session a read is scoped to', () => {
  for (const [name, read] of [
    ['contextFor', context],
    ['search', search],
  ] as const) {
    it(`unknown or of another store: ${name} is CORTEX.SESSION_NOT_FOUND and records nothing`, async () => {
      for (const sessionId of [unknown, ofOther]) {
        const { answer, written } = await counted(() => read(sessionId));
        expect(code(answer), JSON.stringify(answer.errors)).toBe('CORTEX.SESSION_NOT_FOUND');
        expect(answer.data ?? null).toBeNull();
        expect(written).toBe(0);
      }
    });
  }

  it('unknown or of another store: the MCP context tool is an error result with the same code', async () => {
    for (const sessionId of [unknown, ofOther]) {
      const { answer, written } = await counted(() => tool(sessionId));
      expect(toolCode(answer), JSON.stringify(answer.content)).toBe('CORTEX.SESSION_NOT_FOUND');
      expect(answer.isError).toBe(true);
      expect((answer.content as { text: string }[])[0]?.text).toMatch(/^CORTEX\.SESSION_NOT_FOUND/);
      expect(written).toBe(0);
    }
  });

  it('of the store, opened here or known only by its memories, is read as before', async () => {
    for (const sessionId of [opened, imported]) {
      const packed = await context(sessionId);
      expect(packed.errors, JSON.stringify(packed.errors)).toBeUndefined();
      const found = await search(sessionId);
      expect(found.errors, JSON.stringify(found.errors)).toBeUndefined();
      expect(found.data?.search.hits).toHaveLength(1);
      const result = await tool(sessionId);
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    }
  });

  it("contextFor: the caller's own session (its x-session-id header) passes before anything is stored", async () => {
    const own = `ses-own-${randomUUID()}`;
    const packed = await t.gql(
      CONTEXT,
      { in: { query: 'harbour lantern', store, sessionId: own, maxTokens: 500 } },
      { 'x-session-id': own },
    );
    expect(packed.errors, JSON.stringify(packed.errors)).toBeUndefined();
    // Named by the argument alone, the same id is still unknown.
    expect(code(await context(own))).toBe('CORTEX.SESSION_NOT_FOUND');
  });
});
