/**
 * Recall a mind can trust, on the real Neo4j, Redis and model (issue 20):
 * confidence that does not move with the store's size, hits in descending
 * confidence with association bounded by its seed, contextFor over the
 * everyday scenarios (test/fixtures/everyday/scenarios.json) injecting what
 * answers and nothing for what nothing answers, and the seed-003 loop across
 * two processes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { randomStore, type TestApp } from '../helpers.js';
import { backgroundEnv, dropQueues, eventually, queuePrefix, startBackgroundApp } from '../background.js';
import type { ThreadedEmbedder } from '../../src/adapters/embeddings/index.js';
import { loadScenarios } from '../../bench/everyday-data.js';
import { longerThanAParagraph } from '../../src/contexts/recall/testing.js';

const prefix = queuePrefix();
// Every store this file uses, named up front: the background app is scoped to them.
const scenarios = loadScenarios();
const named = new Map<string, string>(
  [
    ...scenarios.map((s) => `everyday-${s.name}`),
    'sizes-0',
    'sizes-30',
    'sizes-200',
    'deploy',
    'long',
    'asked',
    'seed-003',
  ].map((l) => [l, randomStore(l)]),
);
const stores = [...named.values()];
const newStore = (label: string) => named.get(label)!;
let t: TestApp;

const STORE_MANY = 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id content } }';
const SEARCH =
  'query ($input: SearchInput!) { search(input: $input) { id frame hits { memory { id content } confidence relevance ' +
  'activation path } } }';
const CONTEXT =
  'query ($input: ContextInput!) { contextFor(input: $input) { recallId text dropped estimatedTokens hits { memory { ' +
  'id content } confidence } } }';
const ASSOCIATE = 'mutation ($input: AssociateInput!) { associate(input: $input) { type strength } }';
const MARK = 'mutation ($r: ID!, $ids: [ID!]) { markUsed(recallId: $r, memoryIds: $ids) { id } }';
const OUTCOME = 'mutation ($u: ID!, $o: OutcomeKind!) { reportOutcome(useId: $u, outcome: $o) { id outcome } }';

interface Hit {
  memory: { id: string; content: string };
  confidence: number;
  relevance: number;
  activation: number;
  path: string[];
}
interface Pack {
  recallId: string;
  text: string;
  dropped: number;
  estimatedTokens: number;
  hits: Hit[];
}

async function storeAll(store: string, inputs: Record<string, unknown>[]): Promise<{ id: string; content: string }[]> {
  const out: { id: string; content: string }[] = [];
  for (let i = 0; i < inputs.length; i += 500)
    out.push(
      ...(
        await t.ok<{ storeMany: { id: string; content: string }[] }>(STORE_MANY, {
          inputs: inputs.slice(i, i + 500).map((m) => ({ store, ...m })),
        })
      ).storeMany,
    );
  return out;
}
async function settle(): Promise<void> {
  await t.app.bus.idle();
  await t.app.embeddings!.idle(300_000);
  await t.app.bus.idle();
}
const search = async (store: string, query: string, limit = 10) =>
  (await t.ok<{ search: { id: string; frame: string; hits: Hit[] } }>(SEARCH, { input: { query, store, limit } }))
    .search;
const contextFor = async (store: string, query: string, extra: Record<string, unknown> = {}) =>
  (await t.ok<{ contextFor: Pack }>(CONTEXT, { input: { query, store, maxTokens: 400, ...extra } })).contextFor;

const everydayStore = new Map<string, string>();
const keyOf = new Map<string, string>();

beforeAll(async () => {
  t = await startBackgroundApp(stores.join(','), prefix, { TOTAL_RECALL_EMBEDDINGS: 'on' });
  expect((await (t.app.embedder as ThreadedEmbedder).start()).state).toBe('ready');
  for (const s of scenarios) {
    const store = newStore(`everyday-${s.name}`);
    everydayStore.set(s.name, store);
    const now = Date.now();
    const stored = await storeAll(
      store,
      s.memories.map((m) => ({
        content: m.content,
        tags: m.tags ?? [],
        people: m.people ?? [],
        occurredAt: new Date(now - (m.minutesAgo ?? 0) * 60_000).toISOString(),
      })),
    );
    stored.forEach((m, i) => keyOf.set(m.id, `${s.name}/${s.memories[i]!.key}`));
  }
  await settle();
}, 600_000);

afterAll(async () => {
  await t.app.jobs.close();
  await t.app.bus.idle();
  for (const s of stores) await t.dropStore(s);
  await t.stop();
  await dropQueues(prefix);
});

describe('contextFor on the everyday scenarios (default floors, 400 tokens)', () => {
  const results: {
    split: string;
    answer: string | null;
    longNote: boolean;
    inPack: boolean;
    empty: boolean;
    first: string;
  }[] = [];
  beforeAll(async () => {
    for (const s of scenarios) {
      for (const q of s.questions) {
        const p = await contextFor(everydayStore.get(s.name)!, q.q);
        const keys = p.hits.map((h) => keyOf.get(h.memory.id));
        if (process.env.RECALL_TRUST_LOG) {
          const all = (await search(everydayStore.get(s.name)!, q.q)).hits.map((h) => [
            keyOf.get(h.memory.id) === `${s.name}/${q.answer}` ? 1 : 0,
            h.confidence,
          ]);
          console.log(`CONF ${JSON.stringify({ split: s.split, answerable: q.answer !== null, all })}`);
        }
        const answering = s.memories.find((m) => m.key === q.answer);
        results.push({
          split: s.split,
          answer: q.answer,
          longNote: answering !== undefined && longerThanAParagraph(answering.content),
          inPack: q.answer !== null && keys.includes(`${s.name}/${q.answer}`),
          empty: p.hits.length === 0,
          first: p.text.split('\n')[0]!,
        });
      }
    }
  }, 600_000);
  const share = (xs: boolean[]) => xs.filter(Boolean).length / xs.length;

  // Issue 20 asks for 9 in 10 of each. With the committed model (bench/results/calibration.md, 2026-12-06
  // morning) the answer is in the pack for 85 of 100 (dev) and 57 of 66 (held out), and the pack is empty for 20
  // of 31 and 19 of 23 of the questions nothing answers: both targets are not met, and the evidence measured
  // cannot meet both at once (docs/recall.md, "What the evidence can tell apart"). These guard what is
  // reached, with room for a refit's spread: 11 in 20 of each.
  it.each(['dev', 'heldout'])(
    '%s: injects the answering memory for 11 in 20 or more of the answerable questions (target 9 in 10: not met)',
    (split) => {
      const answerable = results.filter((r) => r.split === split && r.answer !== null);
      expect(answerable.length).toBeGreaterThan(10);
      console.log(
        `everyday ${split}: answer in pack ${answerable.filter((r) => r.inPack).length}/${answerable.length}`,
      );
      expect(share(answerable.map((r) => r.inPack))).toBeGreaterThanOrEqual(0.55);
    },
  );

  it.each(['dev', 'heldout'])(
    '%s: injects nothing for 11 in 20 or more of the questions nothing answers (target 9 in 10: not met)',
    (split) => {
      const none = results.filter((r) => r.split === split && r.answer === null);
      expect(none.length).toBeGreaterThan(5);
      console.log(`everyday ${split}: pack empty ${none.filter((r) => r.empty).length}/${none.length}`);
      expect(share(none.map((r) => r.empty))).toBeGreaterThanOrEqual(0.55);
    },
  );

  // Notes kept whole (a meeting's notes, a recipe, a trip plan), asked for one detail. With the committed model 14
  // of the 22 such questions get their note injected (bench/results/calibration.md); the model fitted without these
  // scenarios gave 9 (its breadth weight, learned from LongMemEval's long assistant turns, held them under the floor).
  it('injects a long note for at least half of the questions that ask one detail of it', () => {
    const detail = results.filter((r) => r.longNote);
    expect(detail.length).toBeGreaterThanOrEqual(20);
    console.log(`everyday: a long note's detail in the pack ${detail.filter((r) => r.inPack).length}/${detail.length}`);
    expect(share(detail.map((r) => r.inPack))).toBeGreaterThanOrEqual(0.5);
  });

  it('writes the frame line first, saying how sure the pack is', () => {
    for (const r of results)
      expect(r.first).toMatch(/^(Nothing remembered about|Only weak matches for|Recalled \d+ memor)/);
    expect(results.some((r) => r.first.startsWith('Nothing remembered'))).toBe(true);
    expect(results.some((r) => /^Recalled \d+ memor.*confidence/.test(r.first))).toBe(true);
  });
});

describe('confidence that does not move with the store', () => {
  it('gives "remember the number 8231" about the same confidence alone, among 30 others ' +
    'and among 200 others', async () => {
    const others = scenarios
      .flatMap((s) => s.memories)
      .filter((m) => !/8231/.test(m.content))
      .map((m) => ({ content: m.content, tags: m.tags ?? [], people: m.people ?? [] }));
    expect(others.length).toBeGreaterThanOrEqual(150);
    const filler = Array.from({ length: 200 - Math.min(200, others.length) }, (_, i) => ({
      content: `Note ${i}: the ${['garden', 'invoice', 'train', 'recipe'][i % 4]} needs looking at on day ${i % 28}.`,
    }));
    const confidences: number[] = [];
    for (const n of [0, 30, 200]) {
      const store = newStore(`sizes-${n}`);
      await storeAll(store, [...others, ...filler].slice(0, n));
      await storeAll(store, [{ content: 'remember the number 8231' }]);
      await settle();
      const hits = (await search(store, 'what number did I ask you to remember?')).hits;
      const hit = hits.find((h) => h.memory.content === 'remember the number 8231');
      expect(hit).toBeDefined();
      confidences.push(hit!.confidence);
    }
    console.log('confidence alone / 30 / 200 others:', confidences);
    expect(Math.max(...confidences) - Math.min(...confidences)).toBeLessThanOrEqual(0.1);
    expect(confidences[0]).toBeGreaterThan(0);
  }, 300_000);
});

describe('ranking agrees with confidence', () => {
  it('puts the direct match above the memory its CAUSAL link reaches, names the link in path, and keeps the list in ' +
    'descending confidence', async () => {
    const store = newStore('deploy');
    const [deploy, rotation] = await storeAll(store, [
      { content: 'The deploy failed because the disk on build-7 filled up with old logs.' },
      { content: 'We moved log rotation to a bigger volume.' },
      { content: 'Lunch with Sam on Thursday at the noodle place.' },
    ]);
    await t.ok(ASSOCIATE, { input: { a: deploy!.id, b: rotation!.id, type: 'CAUSAL', strength: 0.9 } });
    await settle();
    const { hits } = await search(store, 'why did the deploy fail disk');
    expect(hits[0]!.memory.id).toBe(deploy!.id);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.confidence).toBeGreaterThanOrEqual(hits[i]!.confidence);
    const reached = hits.find((h) => h.memory.id === rotation!.id);
    expect(reached).toBeDefined();
    expect(reached!.path).toContain('CAUSAL');
    expect(reached!.confidence).toBeLessThanOrEqual(hits[0]!.confidence);
    expect(hits[0]!.confidence).toBeGreaterThan(reached!.confidence);
  }, 120_000);
});

describe('a long memory', () => {
  it('ranks below a short one that says the same, and is still recalled with confidence when it answers', async () => {
    const store = newStore('long');
    const sections = [
      'Incident review for the checkout outage on the ninth.',
      'Timeline: alerts fired at 14:02 when the error rate on the checkout service rose above five percent;',
      'the on-call engineer paged the payments team at 14:10 and the status page was updated at 14:15.',
      'Root cause: the TLS certificate on the payments gateway had expired, so every card payment failed.',
      'The renewal job had been disabled during the data centre move in the spring and nobody noticed.',
      'Impact: about forty minutes of failed card payments, roughly three thousand orders, no data lost.',
      'What went well: the rollback runbook was current, support answered customers quickly, and the',
      'dashboards showed the failing dependency within minutes. What went badly: the certificate expiry',
      'alert went to a mailing list nobody reads, the escalation policy named an engineer who left in June,',
      'and the status page stayed green for ten minutes. Follow-ups: move certificate renewal to the',
      'platform team, alert on expiry thirty days ahead in the paging channel, review every escalation',
      'policy each quarter, add a synthetic card payment to the smoke tests, rehearse the rollback in the',
      'next game day, and write down who owns each external certificate in the service catalogue.',
    ];
    // An appendix from the on-call chat makes it several times longer than the fit's longest memories.
    const chat = Array.from(
      { length: 40 },
      (_, i) =>
        `14:${String(10 + i).padStart(2, '0')} ${['Priya', 'Jonas', 'Mei', 'Tomás'][i % 4]}: ` +
        `${['still failing', 'retrying the gateway', 'no change on the dashboards', 'customers writing in'][i % 4]} ` +
        `after step ${i + 1} of the ${['rollback', 'restart', 'failover', 'cache flush'][i % 4]}.`,
    );
    const long = [...sections, 'Appendix, the on-call chat:', ...chat].join(' ');
    const short = 'The checkout outage was caused by an expired TLS certificate on the payments gateway.';
    const [longMemory, shortMemory] = await storeAll(store, [
      { content: long },
      { content: short },
      { content: 'Lunch with Sam on Thursday at the noodle place.' },
      { content: 'The office wifi password is taped under the printer.' },
    ]);
    await settle();
    const { hits } = await search(store, 'what caused the checkout outage?');
    const ranked = hits.map((h) => h.memory.id);
    console.log(
      'long memory:',
      hits.map((h) => `${h.confidence} ${h.memory.content.slice(0, 40)}`),
    );
    expect(ranked.slice(0, 2)).toEqual([shortMemory!.id, longMemory!.id]);
    const longHit = hits[1]!;
    expect(longHit.confidence).toBeLessThan(hits[0]!.confidence);
    expect(longHit.confidence).toBeGreaterThanOrEqual(0.15); // the default inject floor
  }, 120_000);
});

describe('questions put to the memory itself', () => {
  // "What do I remember about X?" is the question the service exists for. Its verb is about the asking, not about
  // what a memory holds: counted as a content word, no memory covered it and a store of three injected nothing.
  it('injects the memory a "what do I remember / know about …" or "tell me about …" question names', async () => {
    const store = newStore('asked');
    const [landlord, ana, deploy] = await storeAll(store, [
      { content: "Mr. O'Brien owns the flat we rent and fixes things slowly." },
      { content: 'Ana from the design team likes her coffee black.' },
      { content: 'The deploy failed because the disk on build-7 filled up with old logs.' },
    ]);
    await settle();
    const asked: [string, string][] = [
      ['what do I remember about Ana?', ana!.id],
      ["what do I know about O'Brien?", landlord!.id],
      ['what do we know about build-7?', deploy!.id],
      ['tell me about Ana', ana!.id],
      ['did I ever mention the deploy?', deploy!.id],
      ['anything about Ana?', ana!.id],
      ['recall Ana', ana!.id],
    ];
    for (const [question, answer] of asked) {
      const p = await contextFor(store, question);
      expect(p.hits[0]?.memory.id, question).toBe(answer);
      expect(p.text.split('\n')[0], question).toMatch(/^Recalled 1 memory about/);
    }
    expect((await contextFor(store, 'what do I remember about Lisbon?')).hits).toEqual([]);
  }, 120_000);
});

describe('the seed-003 loop across two processes', () => {
  it('resumes, injects what process one stored under a frame line, and ranks the memory that helped above an ' +
    'equal one never used', async () => {
    const store = newStore('seed-003');
    const instanceId = `magi-${randomUUID().slice(0, 8)}`;
    // Process one: its own service (API only: it enqueues the embedding, this process's worker embeds), stores in a
    // session and exits.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'test/fixtures/seed-003-first-process.ts'],
      {
        env: {
          ...backgroundEnv(store, prefix, { TOTAL_RECALL_EMBEDDINGS: 'on' }),
          STORE: store,
          INSTANCE_ID: instanceId,
        },
        timeout: 120_000,
      },
    );
    const first = JSON.parse(stdout.trim().split('\n').pop()!) as { sessionId: string; memoryId: string };

    // This process: resume, then ask.
    const R = 'query ($s: String, $i: String) { resume(store: $s, instanceId: $i) { session { id } } }';
    const { resume } = await t.ok<{ resume: { session: { id: string } | null } }>(R, { s: store, i: instanceId });
    expect(resume.session?.id).toBe(first.sessionId);
    await eventually(
      async () =>
        (
          await t.cypher<{ v: boolean }>('MATCH (m:Memory {id: $id}) RETURN m.embedding IS NOT NULL AS v', {
            id: first.memoryId,
          })
        )[0]?.v
          ? true
          : undefined,
      120_000,
    );
    await settle();
    const p = await contextFor(store, 'what number did I ask you to remember?', { maxTokens: 500 });
    const lines = p.text.split('\n');
    expect(lines[0]).toMatch(
      /^(Recalled 1 memory about|Only weak matches for) "what number did I ask you to remember\?"/,
    );
    expect(lines[1]).toMatch(/^\[Recalled memory, \d{4}-\d\d-\d\d, confidence \d+%\] remember the number 8231$/);
    expect(p.hits.map((h) => h.memory.id)).toEqual([first.memoryId]);

    // An equally matching memory, newer (so it ranks first while neither has been used).
    const [twin] = await storeAll(store, [{ content: 'remember the number 8231' }]);
    await settle();
    const before = (await search(store, 'what number did I ask you to remember?')).hits;
    expect(before.map((h) => h.memory.id)).toEqual([twin!.id, first.memoryId]);
    expect(before[0]!.confidence).toBe(before[1]!.confidence);

    const { markUsed } = await t.ok<{ markUsed: { id: string } }>(MARK, { r: p.recallId, ids: [first.memoryId] });
    await t.ok(OUTCOME, { u: markUsed.id, o: 'SUCCEEDED' });
    await t.app.bus.idle();
    const after = await eventually(async () => {
      const hits = (await search(store, 'what number did I ask you to remember?')).hits;
      return hits[0]?.memory.id === first.memoryId ? hits : undefined;
    });
    expect(after.map((h) => h.memory.id)).toEqual([first.memoryId, twin!.id]);
    expect(after[0]!.confidence).toBe(after[1]!.confidence);
  }, 300_000);
});
