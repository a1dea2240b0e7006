/**
 * A session a caller names by header (x-session-id) on a read, and a session a store names for another instance.
 * Reads (GraphQL search and contextFor, the MCP recall tool) refuse a header session of another store as
 * CORTEX.FOREIGN_SESSION and record nothing; one the store does not know passes. A caller that names an instance
 * (by token or header) stores nothing into another instance's open session: CORTEX.FOREIGN_INSTANCE; a caller that
 * names none stores into it as before.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_META_KEY, STORE_HEADER } from '../../src/adapters/mcp/testing.js';
import { connectMcp, type GraphQLResponse } from '../helpers.js';
import { A, B, as, iA, nodes, okAs, refusedWritingNothing, STORE, t, tok, useSecurityApp } from './security-fixture.js';

useSecurityApp();

const SEARCH = 'query ($in: SearchInput!) { search(input: $in) { id } }';
const CONTEXT = 'query ($in: ContextInput!) { contextFor(input: $in) { recallId } }';
const START = 'mutation ($in: StartSessionInput!) { startSession(input: $in) { id } }';

/** Starts a session of a fresh instance in `store` (as the operator, naming no instance): its id and instance. */
async function started(store: string, instanceId = `hw-i-${randomUUID()}`) {
  const { startSession } = await okAs<{ startSession: { id: string } }>(tok.operator, START, {
    in: { store, instanceId, mindType: 'test' },
  });
  return { id: startSession.id, instanceId };
}

/** The memories stored with this session id, in any store. */
async function storedWith(sessionId: string): Promise<number> {
  const rows = await t.cypher<{ n: number }>('MATCH (m:Memory {sessionId: $id}) RETURN count(m) AS n', {
    id: sessionId,
  });
  return rows[0]?.n ?? 0;
}

describe('a session named by header on a read', () => {
  it('of another store: search and contextFor are CORTEX.FOREIGN_SESSION and record nothing', async () => {
    await okAs(tok.operator, STORE, { in: { store: A, content: 'We moved to Lisbon in the spring.' } });
    const ofB = await started(B);
    for (const token of [tok.operator, tok.unboundA, tok.mindA]) {
      const header = { 'x-session-id': ofB.id };
      await refusedWritingNothing(
        () => as(token, SEARCH, { in: { query: 'Lisbon', store: A } }, header),
        'CORTEX.FOREIGN_SESSION',
      );
      await refusedWritingNothing(
        () => as(token, CONTEXT, { in: { query: 'Lisbon', store: A, maxTokens: 500 } }, header),
        'CORTEX.FOREIGN_SESSION',
      );
    }
  });

  it('of another store: the MCP recall tool is an error result with the same code and records nothing', async () => {
    const ofB = await started(B);
    const client = await connectMcp(t, 'session-header-scope-test', {
      authorization: `Bearer ${tok.operator}`,
      [STORE_HEADER]: A,
      'x-session-id': ofB.id,
    });
    try {
      await t.app.settle();
      const before = await nodes();
      const result = (await client.callTool({ name: 'recall', arguments: { query: 'Lisbon' } })) as CallToolResult;
      await t.app.settle();
      const told = (result._meta?.[ERROR_META_KEY] as { code?: string } | undefined)?.code;
      expect(told, JSON.stringify(result.content)).toBe('CORTEX.FOREIGN_SESSION');
      expect(result.isError).toBe(true);
      expect(await nodes()).toBe(before);
    } finally {
      await client.close();
    }
  });

  it("unknown to the store, or the store's own, is read as before", async () => {
    const ofA = await started(A);
    for (const sessionId of [`ses-unknown-${randomUUID()}`, ofA.id]) {
      const header = { 'x-session-id': sessionId };
      const found = await as(tok.operator, SEARCH, { in: { query: 'Lisbon', store: A } }, header);
      expect(found.errors, JSON.stringify(found.errors)).toBeUndefined();
      const packed = await as(tok.unboundA, CONTEXT, { in: { query: 'Lisbon', maxTokens: 500 } }, header);
      expect(packed.errors, JSON.stringify(packed.errors)).toBeUndefined();
    }
  });
});

describe("another instance's open session, named by a caller that names an instance", () => {
  it('store is CORTEX.FOREIGN_INSTANCE and stores nothing: a bound token, or the operator by header', async () => {
    const other = await started(A);
    const injected = { store: A, content: 'Injected: the launch moved to Friday.' };
    const attempts: (() => Promise<GraphQLResponse>)[] = [
      // A token bound to instance iA, by argument and by header.
      () => as(tok.mindA, STORE, { in: { ...injected, sessionId: other.id } }),
      () => as(tok.mindA, STORE, { in: injected }, { 'x-session-id': other.id }),
      // The operator naming itself another instance.
      () => as(tok.operator, STORE, { in: { ...injected, sessionId: other.id } }, { 'x-instance-id': 'hw-other' }),
      () => as(tok.operator, STORE, { in: injected }, { 'x-instance-id': 'hw-other', 'x-session-id': other.id }),
    ];
    for (const attempt of attempts) await refusedWritingNothing(attempt, 'CORTEX.FOREIGN_INSTANCE');
    expect(await storedWith(other.id)).toBe(0);
  });

  it('its own instance, or a caller naming none, stores into it as before', async () => {
    const own = await started(A, iA);
    const mine = await as(tok.mindA, STORE, { in: { store: A, content: 'Mine: the kettle.', sessionId: own.id } });
    expect(mine.errors, JSON.stringify(mine.errors)).toBeUndefined();
    const other = await started(A);
    const byHeader = await as(
      tok.operator,
      STORE,
      { in: { store: A, content: 'Own by header: the lamp.', sessionId: other.id } },
      { 'x-instance-id': other.instanceId },
    );
    expect(byHeader.errors, JSON.stringify(byHeader.errors)).toBeUndefined();
    const anonymous = await as(tok.operator, STORE, {
      in: { store: A, content: 'Operator: the map.', sessionId: other.id },
    });
    expect(anonymous.errors, JSON.stringify(anonymous.errors)).toBeUndefined();
    expect(await storedWith(other.id)).toBe(2);
  });
});
