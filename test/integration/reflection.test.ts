/**
 * A full reflect session on the real service: open a reflection over a
 * store's recent memories, read the actions offered for each, answer every
 * candidate (claim, reclassify, associate, consolidate, forget with consent,
 * keep) and find each answer, with its reason, in the memories' history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { eventually } from '../background.js';

let t: TestApp;
const store = randomStore('reflect');
const other = randomStore('reflect-other');
const ids = {} as Record<'deployA' | 'deployB' | 'coffee' | 'active' | 'lunch' | 'garden' | 'foreign', string>;

const CANDIDATE = `memory { id content tier claimed } reason associationCount
  actions { kind description tier needsConsent associationTypes memories { id } }`;
const REFLECTION = `id store remaining prompt candidates { ${CANDIDATE} } next { memory { id } }
  answers { id memoryId action why resultMemoryId with }`;
const OPEN = `mutation ($input: ReflectInput!) { reflectSession(input: $input) { ${REFLECTION} } }`;
const ANSWER = `mutation ($input: ReflectAnswerInput!) { answerReflection(input: $input) {
  answer { id memoryId action why resultMemoryId with } memory { id tier claimed }
  reflection { remaining next { memory { id } } } } }`;
const HISTORY = `query ($id: ID!) { memory(id: $id) { history { type payload } } }`;

const remember = async (content: string, extra: Record<string, unknown> = {}, where = store) =>
  (
    await t.ok<{ store: { id: string } }>('mutation ($in: StoreInput!) { store(input: $in) { id } }', {
      in: { store: where, content, ...extra },
    })
  ).store.id;

beforeAll(async () => {
  t = await startTestApp();
  ids.deployA = await remember('The deploy script needs the staging key before it runs.');
  ids.deployB = await remember('Before running, the deploy script needs the staging key.');
  ids.coffee = await remember('Ana likes her coffee black, no sugar.', { people: ['Ana'] });
  ids.active = await remember('Working on the flaky login test right now.', { tier: 'ACTIVE_CONTEXT' });
  ids.lunch = await remember('Lunch was a sandwich from the corner shop.');
  ids.garden = await remember('The tomatoes in the garden need watering every evening.');
  ids.foreign = await remember('The deploy script in another store.', {}, other);
  await t.app.bus.idle();
  // The near-duplicates are linked by Synapse's THEMATIC measure (off the request path).
  await eventually(async () => {
    const rows = await t.cypher('MATCH (:Memory {id: $a})-[r:THEMATIC]-(:Memory {id: $b}) RETURN r.strength AS s', {
      a: ids.deployA,
      b: ids.deployB,
    });
    return rows.length > 0 ? rows : undefined;
  });
});
afterAll(async () => {
  await t.dropStore(store);
  await t.dropStore(other);
  await t.stop();
});

const answer = (input: Record<string, unknown>) => t.gql<{ answerReflection: any }>(ANSWER, { input });
const kinds = (c: any) => c.actions.map((a: any) => a.kind);

describe('reflect candidates carry the actions that fit them', () => {
  it(
    'offers claim, reclassify with a tier, associate with the weakly tied, consolidate with the near-duplicates, ' +
      'forget with consent, keep',
    async () => {
      const { reflect } = await t.ok<{ reflect: any[] }>(
        `query ($input: ReflectInput!) { reflect(input: $input) { ${CANDIDATE} } }`,
        {
          input: { store, scope: 'RECENT', limit: 20 },
        },
      );
      const byId = new Map(reflect.map((c) => [c.memory.id, c]));
      const deploy = byId.get(ids.deployA);
      expect(kinds(deploy)).toEqual(expect.arrayContaining(['CLAIM', 'RECLASSIFY', 'CONSOLIDATE', 'FORGET', 'KEEP']));
      expect(deploy.actions.find((a: any) => a.kind === 'CONSOLIDATE').memories.map((m: any) => m.id)).toEqual([
        ids.deployB,
      ]);
      expect(deploy.actions.find((a: any) => a.kind === 'FORGET').needsConsent).toBe(true);
      // A fresh LONG_TERM memory: is it part of who you are? An ACTIVE_CONTEXT one: keep it beyond the session?
      expect(deploy.actions.find((a: any) => a.kind === 'RECLASSIFY').tier).toBe('IDENTITY_CORE');
      expect(byId.get(ids.active).actions.find((a: any) => a.kind === 'RECLASSIFY').tier).toBe('LONG_TERM');
      // Every candidate can be left as it is; the other store's memory is never offered.
      for (const c of reflect) expect(kinds(c).at(-1)).toBe('KEEP');
      const offered = reflect.flatMap((c) => c.actions.flatMap((a: any) => a.memories.map((m: any) => m.id)));
      expect(offered).not.toContain(ids.foreign);
      expect(byId.has(ids.foreign)).toBe(false);
    },
  );
});

describe('a reflect session', () => {
  it(
    'walks every candidate, applies each answer through its owner and records what was decided ' +
      'and why on the memories',
    async () => {
      const { reflectSession: r } = await t.ok<{ reflectSession: any }>(OPEN, {
        input: { store, scope: 'RECENT', limit: 20 },
      });
      expect(r.id).toMatch(/^rfl_/);
      expect(r.store).toBe(store);
      const candidateIds = r.candidates.map((c: any) => c.memory.id).sort();
      expect(candidateIds).toEqual([ids.deployA, ids.deployB, ids.coffee, ids.active, ids.lunch, ids.garden].sort());
      expect(r.remaining).toBe(6);
      expect(r.next.memory.id).toBe(r.candidates[0].memory.id);
      expect(r.answers).toEqual([]);
      // The prompt names the reflection and every candidate with its actions.
      expect(r.prompt).toContain(r.id);
      for (const id of candidateIds) expect(r.prompt).toContain(id);
      expect(r.prompt).toMatch(/FORGET.*consent/);
      const offeredOf = (id: string, kind: string) =>
        r.candidates.find((c: any) => c.memory.id === id).actions.find((a: any) => a.kind === kind);

      // Refused answers change nothing.
      const notCandidate = await answer({ reflectionId: r.id, memoryId: ids.foreign, action: 'KEEP', why: 'not mine' });
      expect(notCandidate.errors?.[0]?.extensions?.code).toBe('CORTEX.NOT_A_CANDIDATE');
      const noConsent = await answer({ reflectionId: r.id, memoryId: ids.lunch, action: 'FORGET', why: 'trivial' });
      expect(noConsent.errors?.[0]?.extensions?.code).toBe('CORTEX.FORGET_NOT_CONFIRMED');
      expect(await t.cypher('MATCH (m:Memory {id: $id}) RETURN m.id', { id: ids.lunch })).toHaveLength(1);
      const noWhy = await answer({ reflectionId: r.id, memoryId: ids.coffee, action: 'CLAIM', why: '  ' });
      expect(noWhy.errors?.[0]?.extensions?.code).toBe('CORTEX.TEXT_REQUIRED');
      const unknown = await answer({ reflectionId: 'rfl_nope', memoryId: ids.coffee, action: 'CLAIM', why: 'x' });
      expect(unknown.errors?.[0]?.extensions?.code).toBe('CORTEX.REFLECTION_NOT_FOUND');
      const other = await t.gql(
        ANSWER,
        { input: { reflectionId: r.id, memoryId: ids.coffee, action: 'CLAIM', why: 'x' } },
        { 'x-instance-id': 'someone-else' },
      );
      // (Opened without an instance name: any caller of the store may answer; see the named case below.)
      expect(other.errors ?? []).toEqual([]);

      // coffee: claimed above by the answer of the other caller; a different answer now is refused.
      const twice = await answer({ reflectionId: r.id, memoryId: ids.coffee, action: 'KEEP', why: 'changed my mind' });
      expect(twice.errors?.[0]?.extensions?.code).toBe('CORTEX.ALREADY_ANSWERED');

      const claim = await answer({ reflectionId: r.id, memoryId: ids.coffee, action: 'CLAIM', why: 'x' });
      expect(claim.data?.answerReflection.memory.claimed).toBe(true);

      const active = await answer({
        reflectionId: r.id,
        memoryId: ids.active,
        action: 'RECLASSIFY',
        why: 'the login test fix is worth keeping',
      });
      expect(active.errors ?? []).toEqual([]);
      expect(active.data?.answerReflection.memory.tier).toBe(offeredOf(ids.active, 'RECLASSIFY').tier);

      // Another store's memory is out of reach: refused before any link is made.
      const crossStore = await answer({
        reflectionId: r.id,
        memoryId: ids.garden,
        action: 'ASSOCIATE',
        why: 'x',
        with: [ids.lunch, ids.foreign],
      });
      expect(crossStore.errors?.[0]?.extensions?.code).toBe('CORTEX.CROSS_STORE');
      expect(
        await t.cypher('MATCH (:Memory {id: $a})-[r]-(:Memory {id: $b}) WHERE r.origin = "SEMANTIC" RETURN r', {
          a: ids.garden,
          b: ids.lunch,
        }),
      ).toHaveLength(0);
      const associate = await answer({
        reflectionId: r.id,
        memoryId: ids.garden,
        action: 'ASSOCIATE',
        why: 'both are evening chores',
        with: [ids.lunch],
        associationType: 'CAUSAL',
      });
      expect(associate.errors ?? []).toEqual([]);
      const link = await t.cypher<{ origin: string }>(
        'MATCH (:Memory {id: $a})-[r:CAUSAL]-(:Memory {id: $b}) RETURN r.origin AS origin',
        { a: ids.garden, b: ids.lunch },
      );
      expect(link).toEqual([{ origin: 'SEMANTIC' }]);

      expect(offeredOf(ids.deployA, 'CONSOLIDATE').memories.map((m: any) => m.id)).toEqual([ids.deployB]);
      const merge = await answer({
        reflectionId: r.id,
        memoryId: ids.deployA,
        action: 'CONSOLIDATE',
        why: 'the same fact twice',
      });
      expect(merge.errors ?? []).toEqual([]);
      const merged = merge.data?.answerReflection;
      expect(merged.answer.with).toEqual([ids.deployB]);
      expect(merged.answer.resultMemoryId).toBe(merged.memory.id);
      const originals = await t.cypher<{ id: string }>(
        'MATCH (:Memory {id: $id})-[:CONSOLIDATED_FROM]->(o) RETURN o.id AS id ORDER BY id',
        { id: merged.memory.id },
      );
      expect(originals.map((o) => o.id)).toEqual([ids.deployA, ids.deployB].sort());

      const keep = await answer({
        reflectionId: r.id,
        memoryId: ids.deployB,
        action: 'KEEP',
        why: 'the consolidation covers it; keep the original anyway',
      });
      expect(keep.data?.answerReflection.reflection.remaining).toBe(1);
      expect(keep.data?.answerReflection.reflection.next.memory.id).toBe(ids.lunch);

      const forget = await answer({
        reflectionId: r.id,
        memoryId: ids.lunch,
        action: 'FORGET',
        why: 'nothing to remember',
        confirmId: ids.lunch,
      });
      expect(forget.errors ?? []).toEqual([]);
      expect(forget.data?.answerReflection.memory).toBeNull();
      expect(forget.data?.answerReflection.reflection).toMatchObject({ remaining: 0, next: null });
      expect(await t.cypher('MATCH (m:Memory {id: $id}) RETURN m.id', { id: ids.lunch })).toHaveLength(0);

      // The whole session as it stands: every candidate answered once, with the reason.
      const { reflection: done } = await t.ok<{ reflection: any }>(
        `query ($id: ID!) { reflection(id: $id) { ${REFLECTION} } }`,
        { id: r.id },
      );
      expect(done.remaining).toBe(0);
      expect(done.answers.map((a: any) => [a.memoryId, a.action]).sort()).toEqual(
        [
          [ids.coffee, 'CLAIM'],
          [ids.active, 'RECLASSIFY'],
          [ids.garden, 'ASSOCIATE'],
          [ids.deployA, 'CONSOLIDATE'],
          [ids.deployB, 'KEEP'],
          [ids.lunch, 'FORGET'],
        ].sort(),
      );
      expect(done.candidates.map((c: any) => c.memory.id)).not.toContain(ids.lunch);
      expect(done.prompt).toMatch(/nothing left to review/);

      // Each decision sits in the memory's own trail next to the change it made.
      const history = async (id: string) =>
        (await t.ok<{ memory: { history: { type: string; payload: any }[] } }>(HISTORY, { id })).memory.history;
      const coffee = await history(ids.coffee);
      expect(coffee.map((e) => e.type)).toEqual(expect.arrayContaining(['MemoryClaimed', 'ReflectionAnswered']));
      expect(coffee.find((e) => e.type === 'ReflectionAnswered')?.payload).toMatchObject({
        reflectionId: r.id,
        action: 'CLAIM',
        why: 'x',
      });
      const activeTrail = await history(ids.active);
      expect(activeTrail.find((e) => e.type === 'MemoryReclassified')?.payload).toMatchObject({
        reason: 'the login test fix is worth keeping',
        by: 'MIND',
      });
      expect(activeTrail.find((e) => e.type === 'ReflectionAnswered')?.payload).toMatchObject({
        action: 'RECLASSIFY',
        why: 'the login test fix is worth keeping',
      });
      // The associated memory and the consolidation's originals carry the answer too.
      expect((await history(ids.lunch).catch(() => null)) ?? []).toEqual([]); // forgotten: no memory to read
      expect((await history(ids.deployB)).map((e) => e.type)).toEqual(
        expect.arrayContaining(['MemoryConsolidated', 'ReflectionAnswered']),
      );
      // The forgotten memory's answer survives in the store's events, beside its tombstone.
      const events = await t.cypher<{ type: string }>('MATCH (e:Event {memoryId: $id}) RETURN e.type AS type', {
        id: ids.lunch,
      });
      expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['MemoryForgotten', 'ReflectionAnswered']));
    },
  );

  it("a reflection opened by a named instance is that instance's alone", async () => {
    const open = await t.gql<{ reflectSession: any }>(
      OPEN,
      { input: { store, scope: 'RECENT', limit: 5 } },
      { 'x-instance-id': 'mind-a' },
    );
    const r = open.data!.reflectSession;
    const seen = await t.gql<{ reflection: any }>(
      'query ($id: ID!) { reflection(id: $id) { id } }',
      { id: r.id },
      { 'x-instance-id': 'mind-b' },
    );
    expect(seen.data?.reflection).toBeNull();
    const foreign = await t.gql(
      ANSWER,
      { input: { reflectionId: r.id, memoryId: r.candidates[0].memory.id, action: 'KEEP', why: 'x' } },
      { 'x-instance-id': 'mind-b' },
    );
    expect(foreign.errors?.[0]?.extensions?.code).toBe('CORTEX.REFLECTION_NOT_FOUND');
    const own = await t.gql(
      ANSWER,
      { input: { reflectionId: r.id, memoryId: r.candidates[0].memory.id, action: 'KEEP', why: 'fine as it is' } },
      { 'x-instance-id': 'mind-a' },
    );
    expect(own.errors ?? []).toEqual([]);
  });
});
