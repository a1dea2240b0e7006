/**
 * Many large stores in one database (issue 25, item 2): does a search in one
 * store slow down because other stores' vectors share the vector index?
 *
 * One store of S memories is seeded alone, measured, then 9 more stores of S
 * memories each are seeded into the same database and the same queries are
 * measured again. Each query runs, interleaved, through:
 *   - the old design (main before Neo4j 2026): db.index.vector.queryNodes over
 *     every store with k neighbours, kept when of the store (k as Recall chose
 *     it: its 40 candidates over the store's share, ×1.2, at most 2,000; and
 *     k = 2,000, the cap),
 *   - the new design: Cypher 25 SEARCH filtered by store inside the index
 *     (recall/vector-candidates.cypher, k = 40 as Recall asks),
 *   - the exact scan in process (StoreVectors, what stores up to 20k use),
 *   - `search` through GraphQL, and Recall.rankOnly with no in-process copy
 *     (every search through the index), both with the query text embedded.
 * recall@10 is the share of the store's exact 10 nearest (by cosine, from the
 * vectors the client seeded) that a design returns in its top 10.
 *
 * Vectors are client-supplied 384-d unit vectors around 256 topic centres all
 * stores share (so other stores' memories are near a store's own), written in
 * bulk through Cypher (UNWIND, 1,000 a transaction) with the shape
 * store-memories.cypher gives a memory.
 *
 * Run: npm run bench:stores   (BENCH_STORES_SIZE=S, default 100000; BENCH_STORES_SAMPLES, default 200;
 * BENCH_STORES_REBUILD=0 skips timing a rebuild of the index; BENCH_KEEP=1 keeps the stores)
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import neo4j, { type Driver } from 'neo4j-driver';
import { loadConfig } from '../src/config.js';
import { storeKeyOf } from '../src/domain/index.js';
import { createApp } from '../src/app.js';
import { Recall } from '../src/contexts/recall/index.js';
import { StoreVectors } from '../src/contexts/recall/store-vectors.js';
import { buildGraphQLSchema, startGraphQLServer } from '../src/adapters/graphql/index.js';
import { schemaStatements } from '../src/adapters/neo4j/testing.js';
import { graphqlClient, markdownTable, rng, summarise, writeResults, type LatencySummary } from './lib.js';
import { startBench } from './conditions.js';

const conditions = await startBench();

const SIZE = Number(process.env.BENCH_STORES_SIZE ?? 100_000);
const STORES = 10;
const SAMPLES = Number(process.env.BENCH_STORES_SAMPLES ?? 200);
const REBUILD = process.env.BENCH_STORES_REBUILD !== '0';
const DIMS = 384;
const CENTRES = 256;
const BATCH = 1_000;
/** Recall's semantic candidates (scoring.ts semanticCandidates) for a search without filters. */
const WANT = 40;
const MAX_INDEX_K = 2_000;

const run = randomUUID().slice(0, 8);
const stores = Array.from({ length: STORES }, (_, i) => `bench-stores-${run}-${i}`);
const target = stores[0] as string;
const base = loadConfig();
const config = {
  ...base,
  port: 0,
  scopeStores: stores,
  subconscious: { ...base.subconscious, queuePrefix: `bench-stores-${run}` },
};
const app = await createApp(config, { embeddingWorker: false });
const server = await startGraphQLServer(await buildGraphQLSchema(), app.ports, '127.0.0.1', 0);
const gql = graphqlClient(server.url);
// The query texts of the service's searches are embedded by the model: wait until it is loaded.
const model = await (app.embedder as { start?: () => Promise<{ state: string }> }).start?.();
if (model?.state !== 'ready')
  throw new Error(`the embedding model is not ready (${JSON.stringify(app.embedder.status())})`);
const driver: Driver = app.driver;
const database = config.neo4j.database;

// ---------------------------------------------------------------- vectors

const random = rng(25);
function gaussian(): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}
function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  const s = 1 / Math.sqrt(n);
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) * s;
  return v;
}
const centres = Array.from({ length: CENTRES }, () => unit(Float32Array.from({ length: DIMS }, gaussian)));
/** A point near a random centre: the centre plus noise about as long as the centre (cosine to it ≈ 0.7). */
function near(): Float32Array {
  const c = centres[Math.floor(random() * CENTRES)] as Float32Array;
  const sigma = 1 / Math.sqrt(DIMS);
  return unit(Float32Array.from(c, (x) => x + sigma * gaussian()));
}

const WORDS = ['garden', 'recipe', 'release', 'Lisbon', 'budget', 'painting', 'bike', 'concert', 'school', 'roof'];
const SEED = `
UNWIND $rows AS row
CREATE (m:Memory {id: row.id})
SET m.store = $store, m.storeKey = $storeKey, m.content = row.content, m.tier = 'LONG_TERM', m.claimed = false,
  m.tags = [], m.people = [], m.emotions = [], m.metadata = null, m.sessionId = null, m.embedding = row.embedding,
  m.embeddingStatus = 'DONE', m.embeddingModel = 'client', m.embeddedAt = datetime({epochMillis: $now}),
  m.occurredAt = datetime({epochMillis: row.at}), m.createdAt = datetime({epochMillis: $now}), m.accessCount = 0
SET m:LONG_TERM`;

/** Seeds one store; keeps its vectors (the exact answers) when asked. */
async function seed(store: string, keep: StoreVectors | null): Promise<number> {
  const started = performance.now();
  const now = Date.now();
  for (let i = 0; i < SIZE; i += BATCH) {
    const rows = [];
    for (let j = i; j < Math.min(SIZE, i + BATCH); j++) {
      const vector = near();
      const id = `${store}-${j}`;
      keep?.upsert(id, vector);
      const words = [0, 1, 2].map(() => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
      rows.push({
        id,
        content: `Memory ${j}: ${words}`,
        embedding: Array.from(vector),
        at: neo4j.int(now - j * 60_000),
      });
    }
    await driver.executeQuery(
      SEED,
      { rows, store, storeKey: storeKeyOf(store), now: neo4j.int(now) },
      { database, routing: 'WRITE' },
    );
  }
  return (performance.now() - started) / 1000;
}

// ---------------------------------------------------------------- the designs

const OLD = `
CALL db.index.vector.queryNodes('memory_embedding', $k, $vector) YIELD node, score
WITH node, score WHERE node.store = $store
WITH node, score ORDER BY score DESC, node.id LIMIT $limit
RETURN node.id AS id, 2 * score - 1 AS similarity`;
const NEW = `
CYPHER 25
MATCH (node:Memory)
  SEARCH node IN (VECTOR INDEX memory_embedding FOR $vector WHERE node.store = $store LIMIT $k) SCORE AS score
WITH node, score ORDER BY score DESC, node.id LIMIT $limit
RETURN node.id AS id, 2 * score - 1 AS similarity`;

async function ids(text: string, vector: Float32Array, k: number): Promise<string[]> {
  const { records } = await driver.executeQuery(
    text,
    { vector: Array.from(vector), k: neo4j.int(k), limit: neo4j.int(WANT), store: target },
    { database, routing: 'READ' },
  );
  return records.map((r) => r.get('id') as string);
}

async function memoriesInDatabase(): Promise<number> {
  const { records } = await driver.executeQuery('MATCH (m:Memory) RETURN count(m) AS n', {}, { database });
  return Number(records[0]?.get('n'));
}

/** k as Recall chose it on main: its candidates over the store's share of all memories, ×1.2, at most 2,000. */
function mainK(total: number): number {
  const share = SIZE / Math.max(total, SIZE);
  return Math.min(MAX_INDEX_K, Math.max(WANT, Math.ceil((WANT / share) * 1.2)));
}

const QUESTIONS = WORDS.flatMap((a) => WORDS.map((b) => `What do I remember about the ${a} and the ${b}?`));
const filters = { tiers: null, from: null, to: null, tags: null, people: null, sessionId: null };
const viaIndex = new Recall({ ...app.recallDeps, vectors: { dimensions: DIMS, maxVectors: 0 } });
const SEARCH = 'query ($input: SearchInput!) { search(input: $input) { hits { memory { id } } } }';

type Variant = { name: string; run: (vector: Float32Array, question: string) => Promise<string[] | null> };

async function measure(phase: string, exact: StoreVectors): Promise<Record<string, unknown>> {
  const total = await memoriesInDatabase();
  const k = mainK(total);
  const variants: Variant[] = [
    { name: "old: queryNodes with main's k, filter by store", run: (v) => ids(OLD, v, k) },
    { name: `old: queryNodes k=${MAX_INDEX_K} (main's cap), filter by store`, run: (v) => ids(OLD, v, MAX_INDEX_K) },
    { name: `new: SEARCH … WHERE store, k=${WANT}`, run: (v) => ids(NEW, v, WANT) },
    { name: 'exact scan in process (StoreVectors)', run: async (v) => exact.top(v, WANT).map((t) => t.id) },
    {
      name: 'search through GraphQL (query embedded, default cache)',
      run: async (_, q) => {
        await gql(SEARCH, { input: { store: target, query: q, limit: 10 } });
        return null;
      },
    },
    {
      name: 'Recall.rankOnly, every search through the index',
      run: async (_, q) => {
        await viaIndex.rankOnly({
          query: q,
          store: target,
          limit: 10,
          includeAssociations: false,
          minConfidence: null,
          filters,
        });
        return null;
      },
    },
  ];
  const samples = new Map(variants.map((v) => [v.name, [] as number[]]));
  const recall = new Map(variants.map((v) => [v.name, [] as number[]]));
  const queries = Array.from({ length: SAMPLES + 10 }, near);
  for (let i = 0; i < queries.length; i++) {
    const vector = queries[i] as Float32Array;
    const question = QUESTIONS[i % QUESTIONS.length] as string;
    const truth = new Set(exact.top(vector, 10).map((t) => t.id));
    // Interleaved, each query starting with another design.
    for (let j = 0; j < variants.length; j++) {
      const variant = variants[(i + j) % variants.length] as Variant;
      const started = performance.now();
      const found = await variant.run(vector, question);
      const ms = performance.now() - started;
      if (i < 10) continue; // warm-up
      samples.get(variant.name)?.push(ms);
      if (found) recall.get(variant.name)?.push(found.slice(0, 10).filter((id) => truth.has(id)).length / 10);
    }
  }
  const out: Record<string, { latency: LatencySummary; recallAt10: number | null }> = {};
  for (const v of variants) {
    const r = recall.get(v.name) ?? [];
    out[v.name] = {
      latency: summarise(samples.get(v.name) ?? []),
      recallAt10: r.length > 0 ? Math.round((r.reduce((a, b) => a + b, 0) / r.length) * 1000) / 1000 : null,
    };
    console.log(phase, v.name, out[v.name]);
  }
  return {
    memoriesInDatabase: total,
    mainK: k,
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
    variants: out,
  };
}

// ---------------------------------------------------------------- the run

const exact = new StoreVectors(DIMS, SIZE);
const seedSeconds: number[] = [];
seedSeconds.push(await seed(target, exact));
console.log(`seeded ${target}: ${SIZE} memories in ${seedSeconds[0]?.toFixed(1)} s`);
await driver.executeQuery('CALL db.awaitIndexes(3600)', {}, { database });
const alone = await measure('alone', exact);
for (const store of stores.slice(1)) {
  seedSeconds.push(await seed(store, null));
  console.log(`seeded ${store}: ${SIZE} memories in ${seedSeconds.at(-1)?.toFixed(1)} s`);
}
await driver.executeQuery('CALL db.awaitIndexes(3600)', {}, { database });
const crowded = await measure('with 9 others', exact);

// What the move from Neo4j 5 costs once: the index dropped and built anew over every store's vectors.
let rebuildSeconds: number | null = null;
if (REBUILD) {
  // The statement the service applies (SHOW INDEXES gives no createStatement for an index with filter properties).
  const create = schemaStatements().find((s) => s.file.endsWith('memory-embedding-vector.cypher'))?.text as string;
  const started = performance.now();
  await driver.executeQuery('DROP INDEX memory_embedding', {}, { database });
  await driver.executeQuery(create, {}, { database });
  await driver.executeQuery("CALL db.awaitIndex('memory_embedding', 7200)", {}, { database });
  rebuildSeconds = Math.round((performance.now() - started) / 100) / 10;
  console.log(`rebuilt memory_embedding over ${crowded.memoriesInDatabase} memories in ${rebuildSeconds} s`);
}

if (process.env.BENCH_KEEP) console.log(`kept stores ${stores.join(', ')} (BENCH_KEEP)`);
else {
  for (const store of stores) {
    const session = driver.session({ database }); // CALL … IN TRANSACTIONS needs an implicit transaction
    await session.run('MATCH (n) WHERE n.store = $store CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS', {
      store,
    });
    await session.close();
  }
}
await server.stop();
await app.close();

const phases = [
  ['alone', alone],
  ['with 9 others', crowded],
] as const;
const names = Object.keys(alone.variants as object);
const row = (name: string) => {
  const a = (alone.variants as Record<string, { latency: LatencySummary; recallAt10: number | null }>)[name];
  const c = (crowded.variants as Record<string, { latency: LatencySummary; recallAt10: number | null }>)[name];
  const slower = a && c ? `${Math.round((c.latency.p50 / a.latency.p50 - 1) * 100)}%` : '';
  const r = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(3));
  return [
    name,
    a?.latency.p50 ?? '',
    a?.latency.p95 ?? '',
    r(a?.recallAt10),
    c?.latency.p50 ?? '',
    c?.latency.p95 ?? '',
    r(c?.recallAt10),
    slower,
  ];
};
const seedTotal = seedSeconds.reduce((a, b) => a + b, 0);
writeResults(
  'stores',
  { storeSize: SIZE, stores: STORES, samples: SAMPLES, seedSeconds, rebuildSeconds, alone, crowded },
  [
    `One store of ${SIZE.toLocaleString('en')} memories searched alone, then with ${STORES - 1} more stores of ` +
      `${SIZE.toLocaleString('en')} in the same database (${crowded.memoriesInDatabase} memories in all, other ` +
      `benchmarks' and tests' leftovers included). ${SAMPLES} queries per phase, each through every design in turn ` +
      '(interleaved), after 10 warm-up queries; client-supplied 384-d unit vectors around 256 topic centres all ' +
      "stores share. Latency in ms; recall@10: the share of the store's exact 10 nearest (by cosine) in the top 10 " +
      'returned (– where the design returns no ids here).',
    '',
    markdownTable(
      [
        'design',
        'alone p50',
        'alone p95',
        'alone recall@10',
        'with others p50',
        'with others p95',
        'with others recall@10',
        'p50 change',
      ],
      names.map(row),
    ),
    '',
    `Seeding (the index kept up to date as the memories were written, ${BATCH} a transaction): ` +
      `${seedTotal.toFixed(0)} s for ${(SIZE * STORES).toLocaleString('en')} memories ` +
      `(${Math.round((SIZE * STORES) / seedTotal)} a second). ` +
      (rebuildSeconds === null
        ? ''
        : `Rebuilding the index over all of them (what the upgrade from Neo4j 5 does once): ${rebuildSeconds} s.`),
    '',
    `Load average at the start ${conditions.loadAverage.join(' ')}; after the alone phase ` +
      `${(alone.loadAverage as number[]).join(' ')}; after the crowded phase ` +
      `${(crowded.loadAverage as number[]).join(' ')}.`,
    ...phases.map(([name, p]) => `- ${name}: ${p.memoriesInDatabase} memories in the database, main's k ${p.mainK}`),
  ].join('\n'),
);
process.exit(0);
