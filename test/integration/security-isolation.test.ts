/**
 * Store isolation and read-only tokens, tried as a caller holding another
 * store's token (or a reader's) would: the MCP neighbourhood, reflections,
 * errors that must not tell another store's id from a missing one, reads and
 * reflect sessions of a reader, health's view of other stores, and a session
 * named by header. Each case checks what the caller is told and what was
 * written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { auditJobId } from '../../src/contexts/subconscious/jobs.js';
import { ERROR_META_KEY } from '../../src/adapters/mcp/testing.js';
import { connectMcp, type GraphQLResponse } from '../helpers.js';
import {
  A,
  B,
  as,
  code,
  iA,
  iB,
  nodes,
  okAs,
  refusedWritingNothing,
  storeAs,
  t,
  tok,
  tokens,
  useSecurityApp,
} from './security-fixture.js';

useSecurityApp();

const ASSOCIATE = 'mutation ($a: ID!, $b: ID!) { associate(input: { a: $a, b: $b, type: CAUSAL }) { strength } }';
const CONSOLIDATE = 'mutation ($ids: [ID!]!) { consolidate(ids: $ids, strategy: COMBINE) { id } }';
const OPEN = 'mutation ($in: ReflectInput!) { reflectSession(input: $in) { id store candidates { memory { id } } } }';
const ANSWER = 'mutation ($in: ReflectAnswerInput!) { answerReflection(input: $in) { answer { id } } }';
const READ_REFLECTION = 'query ($id: ID!) { reflection(id: $id) { id store } }';

/** An MCP client of the test app's /mcp endpoint, authenticated by `bearer`. */
const mcpClient = (bearer: string): Promise<Client> =>
  connectMcp(t, 'security-isolation-test', { authorization: `Bearer ${bearer}` });

/** A refusal as the caller sees it, with `id` written as <id>: two ids answered alike give equal shapes. */
function errorShape(res: GraphQLResponse, id: string): unknown {
  expect(res.errors?.length, JSON.stringify(res)).toBeGreaterThan(0);
  return JSON.parse(JSON.stringify(res.errors).replaceAll(id, '<id>'));
}

/** A session of `instanceId` (started by `bearer`), started once per test file. */
const sessions = new Map<string, string>();
async function sessionOf(bearer: string, instanceId: string): Promise<string> {
  const known = sessions.get(instanceId);
  if (known) return known;
  const started = await okAs<{ startSession: { id: string } }>(
    bearer,
    'mutation ($i: String!) { startSession(input: { instanceId: $i, mindType: "test" }) { id } }',
    { i: instanceId },
  );
  sessions.set(instanceId, started.startSession.id);
  return started.startSession.id;
}

/** Two memories of B weakly tied, so a reflection of B offers ASSOCIATE for each (its `with` is probed below). */
async function weaklyTiedInB(): Promise<[string, string]> {
  const b1 = await storeAs(tok.mindB, { content: 'The blue bicycle in the shed has a flat front tyre.' });
  const b2 = await storeAs(tok.mindB, { content: 'Spare inner tubes are in the drawer under the workbench.' });
  await okAs(tok.mindB, ASSOCIATE.replace('type: CAUSAL', 'type: CAUSAL, strength: 0.1'), { a: b1.id, b: b2.id });
  return [b1.id, b2.id];
}

describe('MCP neighbourhood', () => {
  let clientA: Client;
  let clientB: Client;
  beforeAll(async () => {
    clientA = await mcpClient(tok.mindA);
    clientB = await mcpClient(tok.mindB);
  });
  afterAll(async () => {
    await clientA?.close();
    await clientB?.close();
  });

  it("shows another store's linked memories to nobody but that store's tokens", async () => {
    const a1 = await storeAs(tok.mindA, { content: 'The safe combination is written inside the atlas.' });
    const a2 = await storeAs(tok.mindA, { content: 'The atlas is on the top shelf of the study.' });
    await okAs(tok.mindA, ASSOCIATE, { a: a1.id, b: a2.id });
    const neighbours = async (client: Client) => {
      const result = (await client.callTool({ name: 'neighbourhood', arguments: { id: a1.id } })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      return (result.structuredContent as { associations: { other: { id: string } }[] }).associations;
    };
    // A's own token sees the link; B's sees nothing of A, as over GraphQL.
    expect((await neighbours(clientA)).map((x) => x.other.id)).toContain(a2.id);
    expect(await neighbours(clientB)).toEqual([]);
    expect(
      (await okAs<{ neighbourhood: unknown[] }>(tok.mindB, `{ neighbourhood(id: "${a1.id}") { strength } }`))
        .neighbourhood,
    ).toEqual([]);
  });
});

describe('reflections of another store', () => {
  it('are unknown to its tokens: read as null, answered exactly as an unknown id, nothing written', async () => {
    // Opened without an instance (an unbound token): only the store keeps other stores' tokens out.
    await storeAs(tok.unboundA, { content: 'A note of A that a reflection of A reviews.' });
    const opened = (
      await okAs<{ reflectSession: { id: string; store: string; candidates: { memory: { id: string } }[] } }>(
        tok.unboundA,
        OPEN,
        { in: { store: A, scope: 'RECENT', limit: 5 } },
      )
    ).reflectSession;
    expect(opened.store).toBe(A);
    const candidate = opened.candidates[0]?.memory.id as string;
    expect(candidate).toBeDefined();

    expect((await okAs<{ reflection: unknown }>(tok.mindB, READ_REFLECTION, { id: opened.id })).reflection).toBeNull();
    expect(
      (await okAs<{ reflection: { id: string } }>(tok.unboundA, READ_REFLECTION, { id: opened.id })).reflection?.id,
    ).toBe(opened.id);

    const answerAs = (reflectionId: string) => () =>
      as(tok.mindB, ANSWER, { in: { reflectionId, memoryId: candidate, action: 'KEEP', why: 'probing' } });
    const unknownId = `rfl_unknown_${B.slice(-8)}`;
    const foreign = await answerAs(opened.id)();
    const unknown = await answerAs(unknownId)();
    expect(code(unknown)).toBe('CORTEX.REFLECTION_NOT_FOUND');
    expect(errorShape(foreign, opened.id)).toEqual(errorShape(unknown, unknownId));
    await refusedWritingNothing(answerAs(opened.id), 'CORTEX.REFLECTION_NOT_FOUND');
  });

  it("reflectSession without a store opens in the token's own store, not the service default", async () => {
    await storeAs(tok.mindB, { content: 'Something B may reflect on.' });
    const opened = await as(tok.mindB, OPEN, { in: {} });
    expect(opened.errors ?? []).toEqual([]);
    expect(opened.data?.reflectSession.store).toBe(B);
  });
});

describe("another store's ids get exactly the error a missing id gets", () => {
  const missing = `mem-missing-${B.slice(-8)}`;
  let foreignId = '';
  let mine: [string, string];
  beforeAll(async () => {
    foreignId = (await storeAs(tok.mindA, { content: 'A memory of A that B probes for.' })).id;
    mine = await weaklyTiedInB();
  });

  it('associate', async () => {
    const foreign = await as(tok.mindB, ASSOCIATE, { a: mine[0], b: foreignId });
    const unknown = await as(tok.mindB, ASSOCIATE, { a: mine[0], b: missing });
    expect(errorShape(foreign, foreignId)).toEqual(errorShape(unknown, missing));
    await refusedWritingNothing(() => as(tok.mindB, ASSOCIATE, { a: mine[0], b: foreignId }), code(unknown) as string);
  });

  it('consolidate', async () => {
    const foreign = await as(tok.mindB, CONSOLIDATE, { ids: [mine[0], foreignId] });
    const unknown = await as(tok.mindB, CONSOLIDATE, { ids: [mine[0], missing] });
    expect(errorShape(foreign, foreignId)).toEqual(errorShape(unknown, missing));
    await refusedWritingNothing(
      () => as(tok.mindB, CONSOLIDATE, { ids: [mine[0], foreignId] }),
      code(unknown) as string,
    );
  });

  it("answerReflection's other memories (with)", async () => {
    const opened = (
      await okAs<{ reflectSession: { id: string; candidates: { memory: { id: string } }[] } }>(tok.mindB, OPEN, {
        in: { store: B, scope: 'RECENT', limit: 20 },
      })
    ).reflectSession;
    expect(opened.candidates.map((c) => c.memory.id)).toContain(mine[0]);
    const answer = (other: string) => () =>
      as(tok.mindB, ANSWER, {
        in: { reflectionId: opened.id, memoryId: mine[0], action: 'ASSOCIATE', why: 'probing', with: [other] },
      });
    const foreign = await answer(foreignId)();
    const unknown = await answer(missing)();
    expect(code(unknown)).toBe('CORTEX.MEMORY_NOT_FOUND');
    expect(errorShape(foreign, foreignId)).toEqual(errorShape(unknown, missing));
    await refusedWritingNothing(answer(foreignId), 'CORTEX.MEMORY_NOT_FOUND');
  });
});

describe('a reader writes nothing', () => {
  it('memory(id) answers without recording an access or touching its session', async () => {
    const readerOfInstance = (await tokens.issue({ scope: 'reader', stores: [A], instanceId: iA })).token;
    const session = await sessionOf(tok.mindA, iA);
    const mine = await storeAs(tok.mindA, { content: 'Read by a reader, counted by nobody.' });
    await t.app.settle();
    const state = async () =>
      (
        await t.cypher<{ count: number; active: string }>(
          'MATCH (m:Memory {id: $id}), (s:Session {id: $session}) ' +
            'RETURN m.accessCount AS count, toString(s.lastActiveAt) AS active',
          { id: mine.id, session },
        )
      )[0];
    const [before, nodesBefore] = [await state(), await nodes()];
    await new Promise((resolve) => setTimeout(resolve, 20)); // a touch would move lastActiveAt
    for (const reader of [tok.readerA, readerOfInstance]) {
      const read = await okAs<{ memory: { id: string; accessCount: number } }>(
        reader,
        `{ memory(id: "${mine.id}") { id accessCount } }`,
      );
      expect(read.memory).toEqual({ id: mine.id, accessCount: before?.count });
    }
    await t.app.settle();
    expect(await state()).toEqual(before);
    expect(await nodes()).toBe(nodesBefore);
  });

  it('reflectSession, answerReflection, the MCP reflect_session tool and reflect prompt are FORBIDDEN', async () => {
    await storeAs(tok.unboundA, { content: 'A memory of A a reader may look at but not answer for.' });
    const opened = (
      await okAs<{ reflectSession: { id: string; candidates: { memory: { id: string } }[] } }>(tok.unboundA, OPEN, {
        in: { store: A, scope: 'RECENT', limit: 5 },
      })
    ).reflectSession;
    const candidate = opened.candidates[0]?.memory.id as string;
    await refusedWritingNothing(() => as(tok.readerA, OPEN, { in: { store: A, scope: 'RECENT' } }), 'FORBIDDEN');
    await refusedWritingNothing(
      () =>
        as(tok.readerA, ANSWER, {
          in: { reflectionId: opened.id, memoryId: candidate, action: 'KEEP', why: 'a reader may not' },
        }),
      'FORBIDDEN',
    );
    const client = await mcpClient(tok.readerA);
    try {
      await t.app.settle();
      const before = await nodes();
      const tool = (await client.callTool({ name: 'reflect_session', arguments: {} })) as CallToolResult;
      expect(tool.isError).toBe(true);
      expect((tool._meta?.[ERROR_META_KEY] as { code?: string } | undefined)?.code).toBe('FORBIDDEN');
      await expect(client.getPrompt({ name: 'reflect', arguments: {} })).rejects.toThrow(/FORBIDDEN/);
      await t.app.settle();
      expect(await nodes()).toBe(before);
    } finally {
      await client.close();
    }
  });
});

describe('health', () => {
  it("shows a store-bound token no other store's progress, job ids or results; an operator sees all", async () => {
    const ofA = t.app.progress.start('export', A, 'nodes', 10);
    const ofB = t.app.progress.start('export', B, 'nodes', 10);
    const ofBoth = t.app.progress.start('backfill', `${A},${B}`, 'memories embedded');
    // A timer job about B's session runs here; its job id names that session.
    const sessionB = await sessionOf(tok.mindB, iB);
    await t.app.jobs.work(t.app.subconscious.run);
    await t.app.jobs.add('session-audit', auditJobId(sessionB), { sessionId: sessionB, instanceId: iB }, 0);
    const HEALTH = '{ health { progress { store } queues { name lastRun { jobId result error } } } }';
    type Health = {
      health: {
        progress: { store: string | null }[];
        queues: { name: string; lastRun: { jobId: string; result: unknown; error: string | null } | null }[];
      };
    };
    const audit = (h: Health) => h.health.queues.find((q) => q.name === 'session-audit')?.lastRun;
    await expect
      .poll(async () => audit(await okAs<Health>(tok.operator, HEALTH))?.jobId, { timeout: 30_000 })
      .toBe(auditJobId(sessionB));
    const operator = await okAs<Health>(tok.operator, HEALTH);
    expect(operator.health.progress.map((p) => p.store)).toEqual(expect.arrayContaining([A, B, `${A},${B}`]));

    const mindA = await okAs<Health>(tok.mindA, HEALTH);
    expect(mindA.health.progress.map((p) => p.store)).toContain(A);
    expect(mindA.health.progress.every((p) => p.store === null || p.store === A)).toBe(true);
    expect(audit(mindA)).toBeNull();
    for (const q of mindA.health.queues)
      expect([q.lastRun?.result ?? null, q.lastRun?.error ?? null]).toEqual([null, null]);
    const told = JSON.stringify(mindA);
    expect(told).not.toContain(B);
    expect(told).not.toContain(sessionB);
    for (const handle of [ofA, ofB, ofBoth]) handle.finish();
  });
});

describe('a session named by header', () => {
  it('of another store is refused as CORTEX.FOREIGN_SESSION by every change, as store() refuses it', async () => {
    const sessionA = await sessionOf(tok.mindA, iA);
    const [b1, b2] = await weaklyTiedInB();
    const byHeader =
      (query: string, variables: Record<string, unknown> = {}) =>
      () =>
        as(tok.mindB, query, variables, { 'x-session-id': sessionA });
    for (const [query, variables] of [
      [`mutation { claim(id: "${b1}") { id } }`, {}],
      [`mutation { reclassify(id: "${b1}", tier: ARCHIVE, reason: "x") { id } }`, {}],
      [CONSOLIDATE, { ids: [b1, b2] }],
      [ASSOCIATE, { a: b1, b: b2 }],
      [`mutation { forget(input: { id: "${b1}", confirmId: "${b1}", reason: "x" }) { forgotten } }`, {}],
      ['mutation { markUsed(recallId: "any-recall") { id } }', {}],
    ] as const) {
      await refusedWritingNothing(byHeader(query, variables), 'CORTEX.FOREIGN_SESSION');
    }
    // B's own session (or none) is fine.
    expect(code(await as(tok.mindB, `mutation { claim(id: "${b1}") { id } }`))).toBeUndefined();
  });
});
