/**
 * A reflection's answers in the store's trail and in what the reflection still
 * offers, on the real services: answers' events page in time order with every
 * other event, and a candidate forgotten outside the reflection is no longer
 * counted as left to answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { eventually } from '../background.js';
import { sortableId } from '../../src/domain/index.js';
import { Q } from '../../src/contexts/cortex/cypher.js';

let t: TestApp;
const trail = randomStore('reflect-trail');
const forgotten = randomStore('reflect-forgotten');
const duplicates = randomStore('reflect-duplicates');

const OPEN = `mutation ($input: ReflectInput!) { reflectSession(input: $input) {
  id remaining candidates { memory { id } actions { kind memories { id } } } } }`;
const ANSWER = `mutation ($input: ReflectAnswerInput!) { answerReflection(input: $input) {
  answer { id } reflection { remaining next { memory { id } } } } }`;
const EVENTS = `query ($store: String, $after: ID) {
  events(store: $store, after: $after, limit: 1000) { id type at } }`;

const remember = async (content: string, store: string) =>
  (
    await t.ok<{ store: { id: string } }>('mutation ($in: StoreInput!) { store(input: $in) { id } }', {
      in: { store, content },
    })
  ).store.id;
const events = async (store: string, after: string | null = null) =>
  (await t.ok<{ events: { id: string; type: string; at: string }[] }>(EVENTS, { store, after })).events;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.dropStore(trail);
  await t.dropStore(forgotten);
  await t.dropStore(duplicates);
  await t.stop();
});

describe("a reflection's answers in the store's trail", () => {
  it('come in time order among the other events, and paging after the last one sees the next event', async () => {
    const ids = [
      await remember('The kettle in the office is broken again.', trail),
      await remember('Marta moved the standup to half past nine.', trail),
      await remember('The printer on the second floor jams on thick paper.', trail),
    ];
    await t.app.bus.idle();
    const { reflectSession: r } = await t.ok<{ reflectSession: any }>(OPEN, { input: { store: trail, scope: 'ALL' } });
    for (const memoryId of ids) {
      const answered = await t.gql(ANSWER, {
        input: { reflectionId: r.id, memoryId, action: 'KEEP', why: 'still true' },
      });
      expect(answered.errors ?? []).toEqual([]);
    }
    await remember('The kettle was replaced this morning.', trail);
    await t.app.bus.idle();

    const all = await events(trail);
    const answers = all.filter((e) => e.type === 'ReflectionAnswered');
    expect(answers).toHaveLength(3);
    // Every event id is time-sortable like the rest, so paging by id is paging by time.
    for (const e of all) expect(e.id).toMatch(/^evt_/);
    const times = all.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // The memory stored after the answers comes after them.
    const types = all.map((e) => e.type);
    expect(types.lastIndexOf('ReflectionAnswered')).toBeLessThan(types.lastIndexOf('MemoryStored'));

    const cursor = all.at(-1)?.id ?? null;
    await remember('The standup moved back to nine.', trail);
    await t.app.bus.idle();
    const next = await events(trail, cursor);
    expect(next.map((e) => e.type)).toContain('MemoryStored');
  });

  it('two answers to one memory written at once (two processes) record one event', async () => {
    const id = await remember('The plants by the window need less water in winter.', trail);
    await t.app.bus.idle();
    const { reflectSession: r } = await t.ok<{ reflectSession: any }>(OPEN, { input: { store: trail, scope: 'ALL' } });
    // What each process's answer writes, with the event id each made.
    const write = (eventId: string) =>
      t.app.graph.write<{ answer: { id: string } }>(Q.recordReflectionAnswer, {
        eventId,
        reflectionId: r.id,
        memoryId: id,
        memoryIds: [id],
        now: Date.now(),
        payload: JSON.stringify({ reflectionId: r.id, memoryId: id, action: 'KEEP', why: 'x', with: [] }),
        commandId: eventId,
        correlationId: eventId,
        sessionId: null,
      });
    const [a, b] = await Promise.all([write(sortableId('evt')), write(sortableId('evt'))]);
    expect(b[0]?.answer.id).toBe(a[0]?.answer.id);
    const recorded = await t.cypher('MATCH (e:Event)-[:ANSWERS]->(:Reflection {id: $id}) RETURN e.id AS id', {
      id: r.id,
    });
    expect(recorded).toEqual([{ id: a[0]?.answer.id }]);
    // A replay of the write that recorded it returns it again.
    expect((await write(a[0]?.answer.id ?? ''))[0]?.answer.id).toBe(a[0]?.answer.id);
  });
});

describe('a candidate forgotten outside the reflection', () => {
  it('is no longer counted as remaining, so a mind answering until none remain stops', async () => {
    const p = await remember('The garage door opener needs a new battery.', forgotten);
    const q = await remember('The spare battery is in the kitchen drawer.', forgotten);
    await t.ok('mutation ($in: AssociateInput!) { associate(input: $in) { type } }', {
      in: { a: p, b: q, type: 'CAUSAL', strength: 0.1 },
    });
    await t.app.bus.idle();
    const { reflectSession: r } = await t.ok<{ reflectSession: any }>(OPEN, {
      input: { store: forgotten, scope: 'ALL' },
    });
    expect(r.candidates.map((c: any) => c.memory.id).sort()).toEqual([p, q].sort());
    expect(r.remaining).toBe(2);
    const ofP = (c: any[]) => c.find((x) => x.memory.id === p).actions.map((a: any) => a.kind);
    expect(ofP(r.candidates)).toContain('ASSOCIATE');
    await t.ok('mutation ($in: ForgetInput!) { forget(input: $in) { forgotten } }', {
      in: { id: q, confirmId: q, reason: 'used the spare already' },
    });
    const { reflection } = await t.ok<{ reflection: any }>(
      'query ($id: ID!) { reflection(id: $id) { remaining candidates { memory { id } actions { kind } } } }',
      { id: r.id },
    );
    expect(reflection.candidates.map((c: any) => c.memory.id)).toEqual([p]);
    expect(reflection.remaining).toBe(1);
    // Its only weak tie is gone: ASSOCIATE is no longer offered (it could only fail).
    expect(ofP(reflection.candidates)).not.toContain('ASSOCIATE');
    const associate = await t.gql(ANSWER, {
      input: { reflectionId: r.id, memoryId: p, action: 'ASSOCIATE', why: 'they go together' },
    });
    expect(associate.errors?.[0]?.extensions?.code).toBe('CORTEX.ACTION_NOT_OFFERED');
    const keep = await t.gql<any>(ANSWER, {
      input: { reflectionId: r.id, memoryId: p, action: 'KEEP', why: 'the opener still needs it' },
    });
    expect(keep.errors ?? []).toEqual([]);
    expect(keep.data.answerReflection.reflection).toEqual({ remaining: 0, next: null });
  });
});

describe('near-duplicates consolidated by an answer', () => {
  it('are no longer offered CONSOLIDATE once the first answer consolidated them all', async () => {
    const ids = [
      await remember('The deploy script needs the staging key before it runs.', duplicates),
      await remember('Before running, the deploy script needs the staging key.', duplicates),
      await remember('The deploy script needs the staging key before running.', duplicates),
    ];
    await t.app.bus.idle();
    const consolidateOf = (r: any, id: string) =>
      r.candidates.find((c: any) => c.memory.id === id)?.actions.find((a: any) => a.kind === 'CONSOLIDATE');
    // Synapse links the near-duplicates off the request path: open once each is offered with both others.
    const r = await eventually(async () => {
      const { reflectSession: opened } = await t.ok<{ reflectSession: any }>(OPEN, {
        input: { store: duplicates, scope: 'ALL' },
      });
      return ids.every((id) => consolidateOf(opened, id)?.memories.length === 2) ? opened : undefined;
    });
    const merge = await t.gql(ANSWER, {
      input: { reflectionId: r.id, memoryId: ids[0], action: 'CONSOLIDATE', why: 'the same fact three times' },
    });
    expect(merge.errors ?? []).toEqual([]);
    const { reflection } = await t.ok<{ reflection: any }>(
      `query ($id: ID!) { reflection(id: $id) { candidates { memory { id } actions { kind memories { id } } } } }`,
      { id: r.id },
    );
    for (const id of ids.slice(1)) expect(consolidateOf(reflection, id)).toBeUndefined();
    const again = await t.gql(ANSWER, {
      input: { reflectionId: r.id, memoryId: ids[1], action: 'CONSOLIDATE', why: 'the same fact' },
    });
    expect(again.errors?.[0]?.extensions?.code).toBe('CORTEX.ACTION_NOT_OFFERED');
  });
});
