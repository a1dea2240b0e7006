/**
 * Semantic recall end to end on the real Neo4j, Redis and model: a paraphrase
 * that shares no word with the query is recalled by meaning, through the
 * in-process copy of a small store's vectors and through the vector index;
 * the copy catches up with new vectors and forgets forgotten memories;
 * filters hold for vector hits; without the model recall is lexical.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { dropQueues, eventually, queuePrefix, startBackgroundApp } from '../background.js';
import { Recall } from '../../src/contexts/recall/index.js';
import { ALL_SIGNALS, DEFAULT_WEIGHTS } from '../../src/contexts/recall/testing.js';
import type { ThreadedEmbedder } from '../../src/adapters/embeddings/index.js';
import { IndexNotReadyError, UnavailableError, type GraphPort } from '../../src/domain/index.js';

const store = randomStore('semantic');
const prefix = queuePrefix();
let t: TestApp;

const STORE_MANY = 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id content } }';
const SEARCH =
  `query ($input: SearchInput!) { search(input: $input) { frame hits { memory { id content } relevance ` +
  `confidence path } } }`;

interface Hit {
  memory: { id: string; content: string };
  relevance: number;
  confidence: number;
  path: string[];
}

const MEMORIES = [
  { content: 'We spent two weeks in Lisbon last summer, walking the old town every evening.', tier: 'LONG_TERM' },
  { content: 'The quarterly report is due to the finance team on Friday.', tier: 'LONG_TERM' },
  { content: 'My sister adopted a grey kitten from the shelter.', tier: 'ACTIVE_CONTEXT' },
  { content: 'The build broke because a dependency changed its license.', tier: 'LONG_TERM' },
];
const MEMORIES_LATE = 'Our flight to Tokyo leaves at dawn; the hotel is near Shinjuku station.';
const ids = new Map<string, string>();
const HOLIDAY = 'where did she go on holiday';

async function search(
  app: TestApp,
  query: string,
  extra: Record<string, unknown> = {},
): Promise<{ frame: string; hits: Hit[] }> {
  return (
    await app.ok<{ search: { frame: string; hits: Hit[] } }>(SEARCH, { input: { query, store, limit: 5, ...extra } })
  ).search;
}

/** A Recall on the real graph, searching through the vector index, whose vector search fails with `error`. */
function whoseVectorSearchFails(error: Error, lines: string[]): Recall {
  const graph = t.app.recallDeps.graph;
  const failing: GraphPort = {
    ...graph,
    read: (statement, params) =>
      statement.file === 'recall/vector-candidates.cypher' ? Promise.reject(error) : graph.read(statement, params),
  };
  return new Recall({
    ...t.app.recallDeps,
    graph: failing,
    vectors: { dimensions: 384, maxVectors: 0 },
    log: (line) => lines.push(line),
  });
}

/** Asks `recall` about this file's store: five hits, no associations, no filters. */
function asking(recall: Recall) {
  const filters = { tiers: null, from: null, to: null, tags: null, people: null, sessionId: null };
  return (query: string) =>
    recall.rankOnly({ query, store, limit: 5, includeAssociations: false, minConfidence: null, filters });
}

async function settle(): Promise<void> {
  await t.app.bus.idle();
  await t.app.embeddings!.idle();
  await t.app.bus.idle(); // MemoriesEmbedded reaches Recall
}

beforeAll(async () => {
  t = await startBackgroundApp(store, prefix, { TOTAL_RECALL_EMBEDDINGS: 'on' });
  expect((await (t.app.embedder as ThreadedEmbedder).start()).state).toBe('ready');
  const { storeMany } = await t.ok<{ storeMany: { id: string; content: string }[] }>(STORE_MANY, {
    inputs: MEMORIES.map((m) => ({ store, ...m })),
  });
  for (const m of storeMany) ids.set(m.content.split(' ').slice(0, 3).join(' '), m.id);
  await settle();
});

afterAll(async () => {
  await t.dropStore(store);
  await t.stop();
  await dropQueues(prefix);
});

describe('recall by meaning', () => {
  it('recalls a paraphrase that shares no word with the query, as a direct match', async () => {
    await search(t, 'warm up'); // the first semantic search of a store loads its vectors in the background
    await t.app.bus.idle();
    const { hits, frame } = await search(t, HOLIDAY);
    expect(hits[0]?.memory.content).toMatch(/^We spent two weeks in Lisbon/);
    expect(hits[0]?.path).toEqual([]);
    expect(hits[0]?.relevance).toBeGreaterThan(0);
    expect(frame).not.toMatch(/^Nothing remembered/);
    // Nothing else is about travel: the Lisbon memory leads clearly.
    expect(hits[0]!.relevance).toBeGreaterThan(2 * (hits[1]?.relevance ?? 0));
  });

  it('finds the same through the vector index when the store is too large to copy', async () => {
    const viaIndex = new Recall({
      ...t.app.recallDeps,
      // maxVectors 0: no copy in process. The index searches this store's vectors
      // only, however many memories other files add meanwhile.
      vectors: { dimensions: 384, maxVectors: 0 },
    });
    const filters = { tiers: null, from: null, to: null, tags: null, people: null, sessionId: null };
    const hits = await viaIndex.rankOnly({
      query: HOLIDAY,
      store,
      limit: 5,
      includeAssociations: false,
      minConfidence: null,
      filters,
    });
    expect(hits[0]?.memory.content).toMatch(/^We spent two weeks in Lisbon/);
    expect(hits[0]?.similarity).toBeGreaterThan(0.2);
    // A text match gets its similarity too (read from its vector beside the vector search).
    const [report] = await viaIndex.rankOnly({
      query: 'quarterly report',
      store,
      limit: 1,
      includeAssociations: false,
      minConfidence: null,
      filters,
    });
    expect(report).toMatchObject({ memory: { content: MEMORIES[1]!.content }, coverage: 1 });
    expect(report?.similarity).toBeGreaterThan(0.75);
    const lexical = await viaIndex.rankOnly({
      query: HOLIDAY,
      store,
      limit: 5,
      includeAssociations: false,
      minConfidence: null,
      filters,
      signals: { ...ALL_SIGNALS, semantic: false },
    });
    expect(lexical).toEqual([]);
  });

  it("counts similarity above the memory's own baseline, the same in process and through the index", async () => {
    const filters = { tiers: null, from: null, to: null, tags: null, people: null, sessionId: null };
    const ask = (recall: Recall) =>
      recall.rankOnly({ query: HOLIDAY, store, limit: 5, includeAssociations: false, minConfidence: null, filters });
    const [inProcess] = await ask(new Recall(t.app.recallDeps));
    const [viaIndex] = await ask(new Recall({ ...t.app.recallDeps, vectors: { dimensions: 384, maxVectors: 0 } }));
    expect(inProcess?.memory.id).toBe(viaIndex?.memory.id);
    // A memory's mean cosine to questions about nothing in particular: e5's cosines sit around 0.7-0.85.
    expect(inProcess?.baseline).toBeGreaterThan(0.6);
    expect(inProcess?.baseline).toBeLessThan(0.95);
    expect(viaIndex?.baseline).toBeCloseTo(inProcess!.baseline!, 3);
    expect(viaIndex?.similarity).toBeCloseTo(inProcess!.similarity!, 3);
    expect(viaIndex?.confidence).toBe(inProcess?.confidence);
  });

  it('serves while the vector index is being built: word matches keep their similarity, nothing fails', async () => {
    // Neo4j answers the vector search as it does while an upgrade rebuilds the index (51N63).
    const lines: string[] = [];
    const ask = asking(whoseVectorSearchFails(new IndexNotReadyError('memory_embedding'), lines));
    const [report] = await ask('quarterly report');
    expect(report).toMatchObject({ memory: { content: MEMORIES[1]!.content }, coverage: 1 });
    expect(report?.similarity).toBeGreaterThan(0.75);
    // Found by meaning alone, the holiday waits for the index; the search still answers.
    expect((await ask(HOLIDAY)).map((h) => h.memory.content)).not.toContain(MEMORIES[0]!.content);
    await ask(HOLIDAY);
    expect(lines.filter((l) => l.includes('memory_embedding index is still being built'))).toHaveLength(1);
  });

  it('serves when Neo4j fails inside the vector search: word matches answer, the log says why', async () => {
    // The vector search fails as Neo4j's did once under a test load.
    const lines: string[] = [];
    const internal = new Error('Index 33554431 out of bounds for length 1 (recall/vector-candidates.cypher)');
    const ask = asking(whoseVectorSearchFails(internal, lines));
    const [report] = await ask('quarterly report');
    expect(report).toMatchObject({ memory: { content: MEMORIES[1]!.content }, coverage: 1 });
    expect(report?.similarity).toBeGreaterThan(0.75);
    expect((await ask(HOLIDAY)).map((h) => h.memory.content)).not.toContain(MEMORIES[0]!.content);
    expect(lines.filter((l) => l.includes('the vector index failed (Index 33554431'))).toHaveLength(1);
    // The service's own failures still fail the search.
    const down = asking(whoseVectorSearchFails(new UnavailableError('neo4j', 'connection refused'), []));
    await expect(down('quarterly report')).rejects.toThrow(UnavailableError);
  });

  it('spreads activation from the nearest memories by meaning when no word matches', async () => {
    const lisbon = ids.get('We spent two') as string;
    const build = ids.get('The build broke') as string;
    await t.ok('mutation ($input: AssociateInput!) { associate(input: $input) { type } }', {
      input: { a: lisbon, b: build, type: 'CAUSAL', strength: 0.9 },
    });
    const recall = new Recall(t.app.recallDeps);
    const filters = { tiers: null, from: null, to: null, tags: null, people: null, sessionId: null };
    const ask = (includeAssociations: boolean) =>
      recall.rankOnly({ query: HOLIDAY, store, limit: 5, includeAssociations, minConfidence: null, filters });
    await ask(false); // loads the store's vectors
    await t.app.bus.idle();
    // No memory shares a word with the question: the Lisbon memory is found by meaning alone, and seeds the spread.
    expect((await ask(false)).every((h) => h.textScore === 0)).toBe(true);
    const linked = (await ask(true)).find((h) => h.memory.id === build);
    expect(linked?.activation).toBeGreaterThan(0);
    expect((await ask(false)).find((h) => h.memory.id === build)?.activation ?? 0).toBe(0);
  });

  it('gives a memory reached by association one closeness and confidence, in process or via the index', async () => {
    const report = ids.get('The quarterly report') as string;
    const kitten = ids.get('My sister adopted') as string;
    await t.ok('mutation ($input: AssociateInput!) { associate(input: $input) { type } }', {
      input: { a: report, b: kitten, type: 'CAUSAL', strength: 0.9 },
    });
    const filters = { tiers: null, from: null, to: null, tags: null, people: null, sessionId: null };
    const reachedBy = async (recall: Recall) =>
      (
        await recall.rankOnly({
          query: 'quarterly report',
          store,
          limit: 5,
          includeAssociations: true,
          minConfidence: null,
          filters,
        })
      ).find((h) => h.memory.id === kitten);
    // One nearest memory by meaning (the report itself): the kitten is reached by association alone.
    const weights = { ...DEFAULT_WEIGHTS, semanticCandidates: 1 };
    const copied = new Recall({ ...t.app.recallDeps, weights });
    const inProcess = await eventually(async () => {
      const hit = await reachedBy(copied); // the first search loads the store's vectors in the background
      return hit?.similarity != null ? hit : undefined;
    });
    const viaIndex = await reachedBy(
      new Recall({ ...t.app.recallDeps, weights, vectors: { dimensions: 384, maxVectors: 0 } }),
    );
    expect(inProcess).toMatchObject({ path: ['CAUSAL'], textScore: 0 });
    expect(viaIndex).toMatchObject({ path: ['CAUSAL'], textScore: 0 });
    expect(viaIndex?.similarity).toBeCloseTo(inProcess!.similarity!, 3);
    expect(viaIndex?.baseline).toBeCloseTo(inProcess!.baseline!, 3);
    expect(viaIndex?.confidence).toBe(inProcess?.confidence);
  });

  it('keeps filters for vector hits', async () => {
    const { hits } = await search(t, HOLIDAY, { tiers: ['ACTIVE_CONTEXT'] });
    expect(hits.map((h) => h.memory.content)).not.toContain(MEMORIES[0]!.content);
    const { hits: kitten } = await search(t, 'a new pet cat', { tiers: ['ACTIVE_CONTEXT'] });
    expect(kitten[0]?.memory.content).toBe(MEMORIES[2]!.content);
  });

  it('recalls a memory embedded after the store was loaded, and stops recalling a forgotten one', async () => {
    const { storeMany } = await t.ok<{ storeMany: { id: string }[] }>(STORE_MANY, {
      inputs: [{ store, content: MEMORIES_LATE }],
    });
    await settle();
    const travel = (await search(t, 'when does our plane to Japan depart')).hits;
    expect(
      travel.map((h) => h.memory.content),
      JSON.stringify(travel),
    ).toContain(MEMORIES_LATE);
    expect(travel[0]?.memory.id).toBe(storeMany[0]!.id);

    // Forgotten (this test's own memory: the others stay for the tests after it).
    const tokyo = storeMany[0]!.id;
    await t.ok('mutation ($input: ForgetInput!) { forget(input: $input) { id } }', {
      input: { id: tokyo, confirmId: tokyo, reason: 'test of forgetting' },
    });
    await t.app.bus.idle();
    const after = (await search(t, 'when does our plane to Japan depart')).hits;
    expect(after.map((h) => h.memory.id)).not.toContain(tokyo);
  });
});

describe('a memory whose embedding is still queued', () => {
  it('is recalled by its words, as confident as without the model, in process and through the index', async () => {
    // An API-only process: the model answers questions, no worker embeds memories, so they stay PENDING.
    const apiOnly = await startTestApp({}, { ...process.env, TOTAL_RECALL_EMBEDDINGS: 'on' });
    const fresh = randomStore('unembedded');
    try {
      expect((await (apiOnly.app.embedder as ThreadedEmbedder).start()).state).toBe('ready');
      const deploy = 'The deploy failed because the disk on build-7 filled up with old logs.';
      const rotation = 'We moved log rotation to a bigger volume.';
      const { storeMany: stored } = await apiOnly.ok<{ storeMany: { id: string }[] }>(STORE_MANY, {
        inputs: [deploy, rotation, 'Lunch on Friday is at the Thai place.'].map((content) => ({
          store: fresh,
          content,
        })),
      });
      await apiOnly.ok('mutation ($in: AssociateInput!) { associate(input: $in) { type } }', {
        in: { a: stored[0]!.id, b: stored[1]!.id, type: 'CAUSAL', strength: 0.9 },
      });
      const status = await apiOnly.cypher<{ s: string }>(
        'MATCH (m:Memory {store: $store}) RETURN DISTINCT m.embeddingStatus AS s',
        { store: fresh },
      );
      expect(status).toEqual([{ s: 'PENDING' }]);
      const filters = { tiers: null, from: null, to: null, tags: null, people: null, sessionId: null };
      const request = { query: 'why did the deploy fail?', store: fresh, limit: 5, includeAssociations: false };
      const ask = (recall: Recall, signals = ALL_SIGNALS) =>
        recall.rankOnly({ ...request, minConfidence: null, filters, signals });
      const [byWords] = await ask(new Recall(apiOnly.app.recallDeps), { ...ALL_SIGNALS, semantic: false });
      const [inProcess] = await ask(new Recall(apiOnly.app.recallDeps));
      const [viaIndex] = await ask(
        new Recall({ ...apiOnly.app.recallDeps, vectors: { dimensions: 384, maxVectors: 0 } }),
      );
      expect(byWords).toMatchObject({ memory: { content: deploy } });
      expect(byWords!.confidence).toBeGreaterThan(0.5);
      for (const hit of [inProcess, viaIndex]) {
        expect(hit).toMatchObject({ memory: { content: deploy }, similarity: null, unembedded: true });
        expect(hit!.confidence).toBe(byWords!.confidence);
      }
      // Reached only by association from it, in process: judged by its words too, its seed's share bounded as ever.
      const spread = { ...request, includeAssociations: true };
      const reachedBy = async (recall: Recall, signals = ALL_SIGNALS) =>
        (await recall.rankOnly({ ...spread, minConfidence: null, filters, signals })).find(
          (h) => h.memory.content === rotation,
        );
      const lexicalReach = await reachedBy(new Recall(apiOnly.app.recallDeps), { ...ALL_SIGNALS, semantic: false });
      // Once the store's (empty) copy of vectors is in process: through the index, a reached memory's is not read.
      const withCopy = new Recall(apiOnly.app.recallDeps);
      const reached = await eventually(async () => {
        const hit = await reachedBy(withCopy);
        return hit?.unembedded ? hit : undefined;
      });
      expect(lexicalReach).toMatchObject({ path: ['CAUSAL'] });
      expect(reached).toMatchObject({ path: ['CAUSAL'], similarity: null, unembedded: true });
      expect(reached!.confidence).toBe(lexicalReach!.confidence);
      // As a client sees it: a plain answer, not a guess.
      const { search: answer } = await apiOnly.ok<{ search: { frame: string; hits: Hit[] } }>(SEARCH, {
        input: request,
      });
      expect(answer.hits[0]).toMatchObject({ memory: { content: deploy }, confidence: byWords!.confidence });
      expect(answer.frame).not.toMatch(/weak matches/i);
    } finally {
      await apiOnly.dropStore(fresh);
      await apiOnly.stop();
    }
  });
});

describe('without the model', () => {
  it('recalls lexically: the paraphrase is not found, word matches still are', async () => {
    const lexical = await startTestApp({}, { ...process.env, TOTAL_RECALL_EMBEDDINGS: 'off' });
    try {
      // The Lisbon memory is there (the model's recall finds it), but no word of the question matches it.
      expect((await search(t, HOLIDAY)).hits.map((h) => h.memory.content)).toContain(MEMORIES[0]!.content);
      expect((await search(lexical, HOLIDAY)).frame).toMatch(/^Nothing remembered/);
      const { hits } = await search(lexical, 'quarterly finance report');
      expect(hits[0]?.memory.content).toBe(MEMORIES[1]!.content);
    } finally {
      await lexical.stop();
    }
  });
});
