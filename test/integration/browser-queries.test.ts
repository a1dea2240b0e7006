/**
 * Every slide of the Browser guide is one query that runs as written on a
 * real store and shows what its title promises: memories by tier, one
 * memory's trail, its associations two hops out, what faded, a session's
 * memories and decisions, CAUSAL chains, consolidations, a reflection.
 * Also: memories carry their tier as a label, following the tier.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message } from '../../src/domain/index.js';
import { SLIDES, slideQuery } from '../../src/adapters/browser/testing.js';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
const store = randomStore('guide');
const ids = {} as Record<'core' | 'plan' | 'review' | 'fix' | 'dupA' | 'dupB' | 'faded' | 'merged', string>;
const instanceId = `guide-${Math.random().toString(36).slice(2)}`;

const remember = async (
  content: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  into = store,
) => {
  const res = await t.gql<{ store: { id: string } }>(
    'mutation ($in: StoreInput!) { store(input: $in) { id } }',
    { in: { store: into, content, ...extra } },
    headers,
  );
  if (res.errors) throw new Error(JSON.stringify(res.errors));
  return res.data!.store.id;
};
const associate = (a: string, b: string, type: string, strength: number) =>
  t.ok('mutation ($in: AssociateInput!) { associate(input: $in) { type } }', { in: { a, b, type, strength } });

beforeAll(async () => {
  t = await startTestApp();
  await t.ok('mutation ($in: StartSessionInput!) { startSession(input: $in) { id } }', {
    in: { instanceId, mindType: 'test', store, task: 'thesis review' },
  });
  const mine = { 'x-instance-id': instanceId };
  ids.core = await remember('I keep my promises.', { tier: 'IDENTITY_CORE' });
  ids.plan = await remember('Promised Ana to review her thesis by Friday.', { tier: 'ACTIVE_CONTEXT' }, mine);
  ids.review = await remember('Reviewed the thesis: chapter three needs work.', {}, mine);
  ids.fix = await remember('Ana rewrote chapter three.', {}, mine);
  ids.dupA = await remember('The deploy script needs the staging key.');
  ids.dupB = await remember('The staging key is needed by the deploy script.');
  ids.faded = await remember('A note nobody looked at again.', { tier: 'ACTIVE_CONTEXT' });
  await t.gql(
    'mutation ($i: String!, $t: String!) { logDecision(instanceId: $i, text: $t) { id } }',
    { i: instanceId, t: 'Review chapter three first' },
    mine,
  );
  await associate(ids.core, ids.plan, 'CAUSAL', 0.7);
  await associate(ids.plan, ids.review, 'CAUSAL', 0.9);
  await associate(ids.review, ids.fix, 'CAUSAL', 0.8);
  await associate(ids.review, ids.plan, 'PERSON', 0.5);
  await t.ok('mutation ($id: ID!) { claim(id: $id) { id } }', { id: ids.review });
  ids.merged = (
    await t.ok<{ consolidate: { id: string } }>(
      'mutation ($ids: [ID!]!) { consolidate(ids: $ids, strategy: COMBINE) { id } }',
      { ids: [ids.dupA, ids.dupB] },
    )
  ).consolidate.id;
  // Salience demotes one memory (the real write path: Hippocampus checks the rule and records TierChanged).
  await t.app.bus.ask(
    message(
      'TierChangeBatch',
      {
        changes: [
          message(
            'DemoteTier',
            {
              id: ids.faded,
              from: 'ACTIVE_CONTEXT',
              to: 'LONG_TERM',
              salience: 0.2,
              reason: 'salience 0.200 fell below the demotion threshold',
            },
            'salience',
          ),
        ],
      },
      'salience',
    ),
  );
  const reflection = await t.ok<{ reflectSession: { id: string; candidates: { memory: { id: string } }[] } }>(
    'mutation ($in: ReflectInput!) { reflectSession(input: $in) { id candidates { memory { id } } } }',
    { in: { store, scope: 'RECENT', limit: 3 } },
  );
  const first = reflection.reflectSession.candidates[0]!.memory.id;
  await t.ok('mutation ($in: ReflectAnswerInput!) { answerReflection(input: $in) { answer { id } } }', {
    in: { reflectionId: reflection.reflectSession.id, memoryId: first, action: 'KEEP', why: 'fine' },
  });
  await t.app.bus.idle();
});
afterAll(async () => {
  await t.dropStore(store);
  await t.stop();
});

/** A slide's query as the Browser would run it: every node and relationship in its rows. */
async function run(title: string) {
  const slide = SLIDES.find((s) => s.title.startsWith(title));
  if (!slide) throw new Error(`no slide ${title}`);
  const result = await t.app.driver.executeQuery(slideQuery(slide, store), {}, { database: t.config.neo4j.database });
  const nodes = new Map<string, { labels: string[]; props: Record<string, unknown> }>();
  const rels: { type: string; props: Record<string, unknown> }[] = [];
  const visit = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    const x = v as Record<string, any>;
    if (Array.isArray(x)) {
      for (const item of x) visit(item);
      return;
    }
    if ('labels' in x && 'properties' in x) nodes.set(String(x.elementId), { labels: x.labels, props: x.properties });
    else if ('type' in x && 'properties' in x && 'startNodeElementId' in x)
      rels.push({ type: x.type, props: x.properties });
    else if ('segments' in x) {
      visit(x.start);
      for (const s of x.segments) visit([s.relationship, s.end]);
    }
  };
  for (const r of result.records) r.forEach(visit);
  const memoryIds = [...nodes.values()].filter((n) => n.labels.includes('Memory')).map((n) => String(n.props.id));
  return { nodes: [...nodes.values()], rels, memoryIds, rows: result.records };
}

describe("the guide's queries", () => {
  it('1: memories by tier, with their tier labels and the links among them', async () => {
    const r = await run('A store');
    expect(new Set(r.memoryIds)).toEqual(new Set(Object.values(ids)));
    for (const n of r.nodes) expect(n.labels).toContain(n.props.tier);
    expect(r.rels.map((x) => x.type)).toEqual(expect.arrayContaining(['CAUSAL', 'PERSON']));
  });

  it('2: one memory and its audit trail', async () => {
    const r = await run('One memory');
    const events = r.nodes.filter((n) => n.labels.includes('Event')).map((n) => n.props.type);
    expect(r.memoryIds).toHaveLength(1);
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(r.rels.every((x) => x.type === 'ABOUT')).toBe(true);
  });

  it('3: associations of each type, two hops out', async () => {
    const r = await run('Its associations');
    expect(r.memoryIds).toEqual(expect.arrayContaining([ids.plan, ids.review, ids.core, ids.fix]));
    // (Synapse's mechanical links are there too: TEMPORAL within the session, THEMATIC by words.)
    expect([...new Set(r.rels.map((x) => x.type))]).toEqual(expect.arrayContaining(['CAUSAL', 'PERSON']));
  });

  it('4: what faded this week', async () => {
    const r = await run('What faded');
    expect(r.memoryIds).toEqual([ids.faded]);
  });

  it('5: what a session stored and decided', async () => {
    const r = await run('What a session');
    expect(new Set(r.memoryIds)).toEqual(new Set([ids.plan, ids.review, ids.fix]));
    expect(r.nodes.filter((n) => n.labels.includes('Decision')).map((n) => n.props.text)).toEqual([
      'Review chapter three first',
    ]);
  });

  it('6: the strongest CAUSAL chains, strongest first', async () => {
    const r = await run('The strongest');
    const strengths = r.rows.map((row) => row.get('strength') as number);
    expect(strengths.length).toBeGreaterThan(0);
    expect(strengths).toEqual([...strengths].sort((a, b) => b - a));
    // The review's claim strengthened its links a little (0.9 → 0.91).
    expect(strengths[0]).toBeGreaterThanOrEqual(0.9);
    expect(r.memoryIds).toEqual(expect.arrayContaining([ids.core, ids.plan, ids.review, ids.fix]));
  });

  it('7: consolidations and their originals', async () => {
    const r = await run('Consolidations');
    expect(new Set(r.memoryIds)).toEqual(new Set([ids.merged, ids.dupA, ids.dupB]));
  });

  it("8: a reflection's answers", async () => {
    const r = await run('A reflect');
    expect(r.nodes.some((n) => n.labels.includes('Reflection'))).toBe(true);
    expect(r.nodes.filter((n) => n.labels.includes('Event')).map((n) => n.props.type)).toEqual(['ReflectionAnswered']);
  });
});

/** The operators of a slide's plan, as PROFILE runs it on the real store. */
async function operators(slide: (typeof SLIDES)[number]): Promise<string[]> {
  const database = t.config.neo4j.database;
  const result = await t.app.driver.executeQuery(`PROFILE ${slideQuery(slide, store)}`, {}, { database });
  const ops: string[] = [];
  const walk = (p: { operatorType: string; children: unknown[] }): void => {
    ops.push(p.operatorType);
    for (const c of p.children) walk(c as typeof p);
  };
  walk(result.summary.profile as unknown as { operatorType: string; children: unknown[] });
  return ops;
}

describe("the guide's plans", () => {
  it('start from the store: none reads every node of a label or relationship of a type in the database', async () => {
    // Other stores' consolidations, for the planner to weigh against this store's memories.
    const other = randomStore('guide-other');
    const a = await remember('elsewhere one', {}, {}, other);
    const b = await remember('elsewhere two', {}, {}, other);
    await t.ok('mutation ($ids: [ID!]!) { consolidate(ids: $ids, strategy: COMBINE) { id } }', { ids: [a, b] });
    try {
      const scans: string[] = [];
      for (const slide of SLIDES)
        for (const op of await operators(slide))
          if (/AllNodesScan|NodeByLabelScan|RelationshipTypeScan/.test(op)) scans.push(`${slide.title}: ${op}`);
      expect(scans).toEqual([]);
    } finally {
      await t.dropStore(other);
    }
  });
});

describe('tier labels', () => {
  it("follow the tier through salience demotions, the mind's reclassify and consolidation", async () => {
    const labelsOf = async (id: string) =>
      (await t.cypher<{ l: string[] }>('MATCH (m:Memory {id: $id}) RETURN labels(m) AS l', { id }))[0]!.l.sort();
    expect(await labelsOf(ids.faded)).toEqual(['LONG_TERM', 'Memory']);
    await t.ok('mutation ($id: ID!) { reclassify(id: $id, tier: ARCHIVE, reason: "done with it") { tier } }', {
      id: ids.faded,
    });
    expect(await labelsOf(ids.faded)).toEqual(['ARCHIVE', 'Memory']);
    expect(await labelsOf(ids.core)).toEqual(['IDENTITY_CORE', 'Memory']);
    expect(await labelsOf(ids.merged)).toEqual(['LONG_TERM', 'Memory']);
  });
});
