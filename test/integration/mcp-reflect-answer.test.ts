/**
 * reflect_answer over MCP answers as GraphQL's answerReflection does, with the SDK's own Client on the real service:
 * a CONSOLIDATE with strategy SUMMARIZE and the summary's content, an ASSOCIATE with a chosen link type; and the
 * reflect prompt names the tool an MCP client has (reflect_answer), while GraphQL's prompt keeps answerReflection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, randomStore, startTestApp, type TestApp } from '../helpers.js';
import { eventually } from '../background.js';
import { STORE_HEADER } from '../../src/adapters/mcp/testing.js';

let t: TestApp;
let client: Client;
const store = randomStore('mcp-reflect-answer');
const ids = {} as Record<'deployA' | 'deployB' | 'garden' | 'lunch', string>;

type Structured = Record<string, any>;
const call = async (name: string, args: Record<string, unknown> = {}) => {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content as { text: string }[])[0]?.text ?? '';
  return { ...result, text, data: result.structuredContent as Structured };
};
const remember = async (content: string) => {
  const made = await call('remember', { content });
  expect(made.isError, made.text).toBeFalsy();
  return made.data.memory.id as string;
};
const offered = (reflection: Structured, memoryId: string, kind: string) =>
  reflection.candidates
    .find((c: Structured) => c.memory.id === memoryId)
    ?.actions.find((a: Structured) => a.kind === kind);

beforeAll(async () => {
  t = await startTestApp();
  client = await connectMcp(t, 'mcp-reflect-answer-test', { [STORE_HEADER]: store });
  ids.deployA = await remember('The deploy script needs the staging key before it runs.');
  ids.deployB = await remember('Before running, the deploy script needs the staging key.');
  ids.garden = await remember('The tomatoes in the garden need watering every evening.');
  ids.lunch = await remember('Lunch was a sandwich from the corner shop.');
  await t.app.bus.idle();
  // The near-duplicates are linked by Synapse's THEMATIC measure (off the request path): then CONSOLIDATE is offered.
  await eventually(async () => {
    const rows = await t.cypher('MATCH (:Memory {id: $a})-[r:THEMATIC]-(:Memory {id: $b}) RETURN r.strength AS s', {
      a: ids.deployA,
      b: ids.deployB,
    });
    return rows.length > 0 ? rows : undefined;
  });
});

afterAll(async () => {
  await client?.close();
  await t?.dropStore(store);
  await t?.stop();
});

describe('reflect_answer over MCP', () => {
  it('consolidates with strategy SUMMARIZE into a memory with the content given', async () => {
    const opened = await call('reflect_session', { scope: 'RECENT', limit: 20 });
    expect(opened.isError, opened.text).toBeFalsy();
    const reflection = opened.data;
    expect(offered(reflection, ids.deployA, 'CONSOLIDATE')?.memoryIds).toEqual([ids.deployB]);

    const summary = 'Deploys need the staging key first.';
    const merged = await call('reflect_answer', {
      reflectionId: reflection.reflectionId,
      memoryId: ids.deployA,
      action: 'CONSOLIDATE',
      why: 'the same fact twice; one short line says it',
      strategy: 'SUMMARIZE',
      content: summary,
    });
    expect(merged.isError, merged.text).toBeFalsy();
    const into = await t.cypher<{ content: string; originals: string[] }>(
      'MATCH (m:Memory)-[:CONSOLIDATED_FROM]->(o:Memory) WHERE o.id IN [$a, $b] ' +
        'RETURN m.content AS content, collect(o.id) AS originals',
      { a: ids.deployA, b: ids.deployB },
    );
    expect(into).toHaveLength(1);
    expect(into[0]!.content).toBe(summary);
    expect([...into[0]!.originals].sort()).toEqual([ids.deployA, ids.deployB].sort());
    // The answer names the memory it made, as GraphQL's answerReflection does: the mind can use or claim it.
    expect(merged.data.memory).toMatchObject({ content: summary });
  });

  it('associates with the association type chosen', async () => {
    const reflection = (await call('reflect_session', { scope: 'RECENT', limit: 20 })).data;
    expect(offered(reflection, ids.garden, 'ASSOCIATE'), JSON.stringify(reflection)).toBeTruthy();
    const linked = await call('reflect_answer', {
      reflectionId: reflection.reflectionId,
      memoryId: ids.garden,
      action: 'ASSOCIATE',
      why: 'both are evening chores',
      with: [ids.lunch],
      associationType: 'causal',
    });
    expect(linked.isError, linked.text).toBeFalsy();
    const link = await t.cypher<{ origin: string }>(
      'MATCH (:Memory {id: $a})-[r:CAUSAL]-(:Memory {id: $b}) RETURN r.origin AS origin',
      { a: ids.garden, b: ids.lunch },
    );
    expect(link).toEqual([{ origin: 'SEMANTIC' }]);
  });

  it('refuses a strategy or an association type that is not one, naming the argument', async () => {
    const reflection = (await call('reflect_session', { scope: 'RECENT', limit: 20 })).data;
    const base = { reflectionId: reflection.reflectionId, memoryId: ids.lunch, why: 'x' };
    const strategy = await call('reflect_answer', { ...base, action: 'CONSOLIDATE', strategy: 'MERGE' });
    expect(strategy.isError).toBe(true);
    expect(strategy.text).toMatch(/strategy/);
    expect(strategy.text).not.toMatch(/unknown argument/);
    const type = await call('reflect_answer', { ...base, action: 'ASSOCIATE', associationType: 'FRIENDLY' });
    expect(type.isError).toBe(true);
    expect(type.text).toMatch(/associationType/);
    expect(type.text).not.toMatch(/unknown argument/);
  });
});

describe('the reflect prompt over MCP', () => {
  it('names reflect_answer with its arguments, not the GraphQL mutation; GraphQL keeps answerReflection', async () => {
    const prompt = await client.getPrompt({ name: 'reflect', arguments: { scope: 'RECENT', limit: '5' } });
    const text = prompt.messages.map((m) => (m.content as { text: string }).text).join('\n');
    expect(text).toMatch(/reflect_answer.*reflectionId: "rfl_[^"]+"/);
    expect(text).toMatch(/strategy/);
    expect(text).toMatch(/associationType/);
    expect(text).not.toContain('answerReflection');

    const { reflectSession } = await t.ok<{ reflectSession: { prompt: string } }>(
      'mutation ($input: ReflectInput!) { reflectSession(input: $input) { prompt } }',
      { input: { store, scope: 'RECENT', limit: 5 } },
    );
    expect(reflectSession.prompt).toContain('answerReflection(input:');
    expect(reflectSession.prompt).not.toContain('reflect_answer');
  });
});
