/**
 * Cold storage at scale (issue 25 item 3): a store of N memories with 384-d
 * vectors; the background's first checkpoint (a full export checked while a
 * client keeps changing the store); a full export and its verification, 1,000 changes through
 * GraphQL (stores, claims, links, forgets), the delta shutdown would write and
 * its verification, then a day's decay sweep and the delta after it (with,
 * for comparison, the delta the sweep made before version 3, when it stamped
 * every memory it rescored), a checkpoint (a delta) while the client changes
 * the store and the shutdown's delta after it, the compaction (the
 * background's full export) and the chain's import — times and file sizes.
 * Levels not taken keep the previous results' rows. Run: npm run bench:cold-storage
 * (BENCH_COLD_LEVELS=100000,1000000; BENCH_COLD_CHANGES=1000; BENCH_COLD_RESTORE=0 skips the
 * compaction and the import, and reports those of the previous results file, marked as such;
 * BENCH_COLD_BEFORE_V3=0 skips the before-version-3 comparison, about 30 minutes at 1M).
 *
 * The memories are seeded straight into Neo4j with UNWIND (benchmark set-up,
 * not the code under test), each with two audit events (stored, accessed) and
 * five associations to its neighbours, float32 vectors as the model makes
 * them: 3 nodes and 7 relationships a memory. Everything is scoped to the
 * bench store; the store is removed at the end.
 */
import 'reflect-metadata';
import neo4j from 'neo4j-driver';
import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';
import { buildGraphQLSchema, startGraphQLServer } from '../src/adapters/graphql/index.js';
import { ColdStorage } from '../src/adapters/cold-storage/index.js';
import { decodeVector } from '../src/adapters/cold-storage/testing.js';
import { message, storeKeyOf } from '../src/domain/index.js';
import { graphqlClient, markdownTable, rng, writeResults } from './lib.js';
import { startBench } from './conditions.js';

await startBench();

process.env.TOTAL_RECALL_EMBEDDINGS ??= 'off';
const LEVELS = (process.env.BENCH_COLD_LEVELS ?? '100000').split(',').map(Number);
const CHANGES = Number(process.env.BENCH_COLD_CHANGES ?? 1000);
const DIM = 384;
const BATCH = 10_000;
const RESTORE = process.env.BENCH_COLD_RESTORE !== '0';
const BEFORE_V3 = process.env.BENCH_COLD_BEFORE_V3 !== '0';
const RESULTS = new URL('./results/cold-storage.json', import.meta.url);
/** The previous run's compaction and import by level (reported when this run skips them). */
const earlier = new Map<number, Record<string, number | boolean | string>>(
  existsSync(RESULTS)
    ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as { results: Record<string, number>[] }).results.map((r) => [
        r.memories as number,
        r,
      ])
    : [],
);

const config = { ...loadConfig(), port: 0 };
const app = await createApp(config);
const server = await startGraphQLServer(await buildGraphQLSchema(), app.ports, '127.0.0.1', 0);
const gql = graphqlClient(server.url);
const db = { database: config.neo4j.database };
const random = rng(7);
const vector = () => Array.from({ length: DIM }, () => Math.fround(random() * 2 - 1) / 8);
const VECTORS = Array.from({ length: 512 }, vector);

const SEED_MEMORIES = `
UNWIND range($from, $to - 1) AS i
CREATE (m:Memory:LONG_TERM {
  id: $prefix + toString(i), store: $store, storeKey: $storeKey, tier: 'LONG_TERM', claimed: false,
  content: 'Memory number ' + toString(i) + ' of the cold-storage benchmark, about ' + $topics[i % size($topics)],
  tags: [$topics[i % size($topics)]], people: [], emotions: [], sessionId: 'bench-session-' + toString(i % 500),
  embedding: $vectors[i % size($vectors)], embeddingStatus: 'DONE', embeddingModel: 'client',
  occurredAt: datetime({epochMillis: $now - i * 1000}), createdAt: datetime({epochMillis: $now - i * 1000}),
  accessCount: 1, changedAt: $stamp
})
CREATE (s:Event {id: 'evt_s' + $prefix + toString(i), type: 'MemoryStored', store: $store, memoryId: m.id,
  at: m.createdAt, payload: '{}', changedAt: $stamp})-[:ABOUT]->(m)
CREATE (a:Event {id: 'evt_a' + $prefix + toString(i), type: 'MemoryAccessed', store: $store, memoryId: m.id,
  at: m.createdAt, changedAt: $stamp})-[:ABOUT]->(m)`;

const SEED_LINKS = `
UNWIND range($from, $to - 1) AS i
MATCH (m:Memory {id: $prefix + toString(i)})
UNWIND [[1, 'TEMPORAL'], [2, 'THEMATIC'], [3, 'THEMATIC'], [7, 'PERSON'], [11, 'EMOTIONAL']] AS link
MATCH (o:Memory {id: $prefix + toString((i + link[0]) % $count)})
CREATE (m)-[:$(link[1]) {strength: 0.5 + toFloat(i % 50) / 100.0, origin: 'MECHANICAL',
  createdAt: m.createdAt, updatedAt: m.createdAt, changeId: 'seed'}]->(o)`;

const TOPICS = ['the garden', 'the release', 'Lisbon', 'the budget', 'the bike', 'a concert', 'the roof', 'tea'];

async function seed(store: string, count: number): Promise<number> {
  const start = performance.now();
  const params = {
    store,
    storeKey: storeKeyOf(store),
    prefix: `mem_${store.slice(-8)}_`,
    now: neo4j.int(Date.now()),
    stamp: neo4j.int(Date.now() - 3_600_000),
    topics: TOPICS,
    vectors: VECTORS,
    count: neo4j.int(count),
  };
  for (let from = 0; from < count; from += BATCH) {
    const range = { from: neo4j.int(from), to: neo4j.int(Math.min(count, from + BATCH)) };
    await app.driver.executeQuery(SEED_MEMORIES, { ...params, ...range }, db);
    process.stdout.write(`\rseeded ${Math.min(count, from + BATCH)} memories`);
  }
  for (let from = 0; from < count; from += BATCH) {
    const range = { from: neo4j.int(from), to: neo4j.int(Math.min(count, from + BATCH)) };
    await app.driver.executeQuery(SEED_LINKS, { ...params, ...range }, db);
  }
  await app.driver.executeQuery('CALL db.awaitIndexes(3600)', {}, db);
  console.log('');
  return (performance.now() - start) / 1000;
}

async function drop(store: string): Promise<void> {
  const session = app.driver.session(db);
  try {
    await session.run('MATCH (n) WHERE n.store = $store CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS', {
      store,
    });
    await session.run('MATCH (h:ColdStorageHead {scope: $store}) DELETE h', { store });
  } finally {
    await session.close();
  }
}

/** Memories forgotten so far, by store: no later change picks them. */
const forgottenIn = new Map<string, Set<string>>();

/** The `n`th change of a store through GraphQL: 40% new memories (with vectors), 40% claims, 15% links, 5% forgets. */
async function oneChange(store: string, n: number, existing: number): Promise<void> {
  const prefix = `mem_${store.slice(-8)}_`;
  const forgotten = forgottenIn.get(store) ?? new Set<string>();
  forgottenIn.set(store, forgotten);
  const pick = (): string => {
    const id = `${prefix}${Math.floor(random() * existing)}`;
    return forgotten.has(id) ? pick() : id;
  };
  const kind = n % 20;
  if (kind < 8) {
    await gql('mutation ($in: StoreInput!) { store(input: $in) { id } }', {
      in: { store, content: `A change after the full export, number ${n}`, embedding: vector() },
    });
  } else if (kind < 16) {
    await gql('mutation ($id: ID!) { claim(id: $id) { id } }', { id: pick() });
  } else if (kind < 19) {
    const [a, b] = [pick(), pick()];
    if (a !== b)
      await gql('mutation ($in: AssociateInput!) { associate(input: $in) { strength } }', {
        in: { a, b, type: 'CAUSAL', strength: 0.6 },
      });
  } else {
    const id = pick();
    forgotten.add(id);
    await gql('mutation ($in: ForgetInput!) { forget(input: $in) { forgotten } }', {
      in: { id, confirmId: id, reason: 'bench' },
    });
  }
}

/** `count` changes in a row (seconds taken). */
async function change(store: string, count: number, existing: number): Promise<number> {
  const start = performance.now();
  for (let n = 0; n < count; n++) await oneChange(store, n, existing);
  await app.bus.idle();
  return (performance.now() - start) / 1000;
}

/** `work` while one client goes on changing the store, as a mind would: its result, and how many changes it saw. */
async function whileChanging<T>(store: string, existing: number, work: () => Promise<T>): Promise<[T, number]> {
  let running = true;
  let made = 0;
  const client = (async () => {
    for (let n = 0; running; n++) {
      await oneChange(store, n, existing);
      made++;
    }
  })();
  let result: T;
  try {
    result = await work();
  } finally {
    running = false;
    await client;
    await app.bus.idle();
  }
  return [result, made];
}

/** The file's size had its vectors been JSON numbers (version 1), for comparison. */
async function version1Bytes(path: string): Promise<number> {
  let bytes = 0;
  for await (const text of createInterface({ input: createReadStream(path, { encoding: 'utf8' }) })) {
    bytes += Buffer.byteLength(text) + 1;
    if (!text.includes('"Vector<')) continue;
    const line = JSON.parse(text) as { props: Record<string, string>; types: Record<string, string> };
    for (const [key, type] of Object.entries(line.types)) {
      if (!type.startsWith('Vector<')) continue;
      const b64 = line.props[key] as string;
      bytes += JSON.stringify(decodeVector(b64, type)).length - JSON.stringify(b64).length;
    }
  }
  return bytes;
}

const time = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const start = performance.now();
  const value = await fn();
  return [value, (performance.now() - start) / 1000];
};

const MB = (bytes: number) => Math.round(bytes / 1e5) / 10;
const DAY = 86_400_000;

/**
 * A day's decay sweep of the store, then the delta shutdown writes; then the
 * same rescored memories stamped as the sweep stamped them before version 3
 * (derived score left out all the same), and the delta that makes.
 */
async function sweepAndDeltas(cold: ColdStorage, store: string, dir: string) {
  const now = Date.now() + DAY;
  const [sweep, sweepSeconds] = await time(() => app.bus.ask(message('SweepDecay', { store, now }, 'subconscious')));
  await app.bus.idle();
  const [delta, write] = await time(() => cold.write(dir));
  const [check, verify] = await time(() => cold.verify(delta.path));
  console.log(
    `sweep ${sweepSeconds.toFixed(1)} s (${sweep.updated} rescored); delta after it: ${delta.nodes} nodes, ` +
      `${MB(delta.bytes)} MB, ${write.toFixed(2)} s, verify ${verify.toFixed(2)} s (${check.verified})`,
  );
  const afterSweep = {
    sweepSeconds,
    sweepRescored: sweep.updated,
    sweepDeltaNodes: delta.nodes,
    sweepDeltaMB: MB(delta.bytes),
    sweepDeltaSeconds: write + verify,
    sweepDeltaVerified: check.verified,
  };
  if (!BEFORE_V3) return { paths: [delta.path], ...afterSweep };
  const session = app.driver.session(db);
  try {
    await session.run(
      'MATCH (m:Memory {store: $store}) WHERE m.salienceAt = datetime({epochMillis: $now}) ' +
        'CALL (m) { SET m.changedAt = timestamp() } IN TRANSACTIONS OF 10000 ROWS',
      { store, now: neo4j.int(now) },
    );
  } finally {
    await session.close();
  }
  const [old, oldWrite] = await time(() => cold.write(dir));
  const [oldCheck, oldVerify] = await time(() => cold.verify(old.path));
  console.log(`as before version 3: ${old.nodes} nodes, ${MB(old.bytes)} MB, ${oldWrite.toFixed(1)} s`);
  return {
    paths: [delta.path, old.path],
    ...afterSweep,
    oldSweepDeltaNodes: old.nodes,
    oldSweepDeltaMB: MB(old.bytes),
    oldSweepDeltaSeconds: oldWrite + oldVerify,
    oldSweepDeltaVerified: oldCheck.verified,
  };
}

/** The compaction of the chain, then (the store dropped) the import of the chain, checked against a full export. */
async function compactAndImport(cold: ColdStorage, store: string, dir: string, chain: string[]) {
  const reference = await cold.write(join(dir, 'reference'), { full: true });
  // The chain as shutdown left it (the compaction replaces its files), for the import.
  const chainDir = join(dir, 'chain');
  await mkdir(chainDir);
  for (const path of chain) await copyFile(path, join(chainDir, basename(path)));
  const [compacted, compactSeconds] = await time(() => cold.compact());
  console.log(`compaction ${compactSeconds.toFixed(1)} s`);
  await drop(store);
  const [restored, importSeconds] = await time(() => cold.import(chainDir, { allowNonEmpty: true, batchSize: 2000 }));
  const same = restored.verified && (await cold.write(join(dir, 'after'), { full: true })).digest === reference.digest;
  console.log(`import ${importSeconds.toFixed(1)} s, verified ${restored.verified}, same graph ${same}`);
  return {
    compactSeconds,
    compactedMB: compacted.compacted ? MB(compacted.bytes) : 0,
    importSeconds,
    importVerified: restored.verified,
    sameGraphAfterImport: same,
  };
}
const results: Record<string, number | boolean | string>[] = [];
const stores: string[] = [];
try {
  for (const level of LEVELS) {
    const store = `bench-cold-${randomUUID()}`;
    stores.push(store);
    const dir = await mkdtemp(join(tmpdir(), 'total-recall-bench-cold-'));
    const cold = new ColdStorage({ neo4j: config.neo4j, stores: [store], service: 'bench' });
    try {
      const seedSeconds = await seed(store, level);
      console.log(`${level} memories seeded in ${seedSeconds.toFixed(1)} s`);
      // The background's first checkpoint (no head yet: a full export) while a client keeps changing the store.
      const [[first, firstChanges], firstSeconds] = await time(() =>
        whileChanging(store, level, () => cold.checkpoint(join(dir, 'first-checkpoint'))),
      );
      console.log(`first checkpoint ${firstSeconds.toFixed(1)} s, ${firstChanges} changes meanwhile`, first);
      const [full, fullWrite] = await time(() => cold.write(dir, { full: true }));
      const [fullCheck, fullVerify] = await time(() => cold.verify(full.path));
      console.log(
        `full: ${full.nodes} nodes, ${full.relationships} relationships, ${MB(full.bytes)} MB, ` +
          `${fullWrite.toFixed(1)} s; verify ${fullVerify.toFixed(1)} s (${fullCheck.verified})`,
      );
      const v1 = await version1Bytes(full.path);
      const changeSeconds = await change(store, CHANGES, level);
      const [delta, deltaWrite] = await time(() => cold.write(dir));
      const [deltaCheck, deltaVerify] = await time(() => cold.verify(delta.path));
      console.log(
        `delta: ${delta.nodes} nodes, ${delta.relationships} relationships, ${delta.deleted} deleted, ` +
          `${MB(delta.bytes)} MB, ${deltaWrite.toFixed(2)} s; ` +
          `verify ${deltaVerify.toFixed(2)} s (${deltaCheck.verified})`,
      );
      const { paths, ...afterSweep } = await sweepAndDeltas(cold, store, dir);
      // Changes for a checkpoint (a delta) to carry, which runs while the client goes on; then a shutdown's delta.
      await change(store, CHANGES, level);
      const [[next, nextChanges], nextSeconds] = await time(() =>
        whileChanging(store, level, () => cold.checkpoint(dir)),
      );
      const [last, lastWrite] = await time(() => cold.write(dir));
      const [lastCheck, lastVerify] = await time(() => cold.verify(last.path));
      console.log(
        `checkpoint ${nextSeconds.toFixed(2)} s, ${nextChanges} changes meanwhile; then shutdown's delta ` +
          `${last.nodes} nodes, ${(lastWrite + lastVerify).toFixed(2)} s (${lastCheck.verified})`,
        next,
      );
      const chain = [full.path, delta.path, ...paths, ...(next.checkpointed ? [next.path] : []), last.path];
      const restore = RESTORE ? await compactAndImport(cold, store, dir, chain) : null;
      const before = earlier.get(level);
      results.push({
        memories: level,
        nodes: full.nodes,
        relationships: full.relationships,
        seedSeconds,
        firstCheckpointSeconds: firstSeconds,
        firstCheckpointChanges: firstChanges,
        firstCheckpointRecords: first.checkpointed ? first.records : 0,
        firstCheckpointLeft: first.checkpointed ? first.left : 0,
        firstCheckpointVerified: first.checkpointed,
        checkpointSeconds: nextSeconds,
        checkpointChanges: nextChanges,
        checkpointRecords: next.checkpointed ? next.records : 0,
        checkpointLeft: next.checkpointed ? next.left : 0,
        checkpointVerified: next.checkpointed,
        shutdownAfterCheckpointNodes: last.nodes,
        shutdownAfterCheckpointSeconds: lastWrite + lastVerify,
        shutdownAfterCheckpointVerified: lastCheck.verified,
        fullWriteSeconds: fullWrite,
        fullVerifySeconds: fullVerify,
        fullVerified: fullCheck.verified,
        fullMB: MB(full.bytes),
        fullMBasVersion1: MB(v1),
        changes: CHANGES,
        changeSeconds,
        deltaNodes: delta.nodes,
        deltaRelationships: delta.relationships,
        deltaDeleted: delta.deleted,
        deltaMB: MB(delta.bytes),
        deltaWriteSeconds: deltaWrite,
        deltaVerifySeconds: deltaVerify,
        deltaVerified: deltaCheck.verified,
        ...afterSweep,
        ...(restore ?? {
          compactSeconds: before?.compactSeconds ?? '–',
          compactedMB: before?.compactedMB ?? '–',
          importSeconds: before?.importSeconds ?? '–',
          importVerified: before?.importVerified ?? '–',
          sameGraphAfterImport: before?.sameGraphAfterImport ?? '–',
          restoreFromEarlierRun: before !== undefined,
        }),
      });
    } finally {
      await cold.close();
      await rm(dir, { recursive: true, force: true });
    }
  }
} finally {
  for (const store of stores) await drop(store).catch((error) => console.error(error));
  await server.stop();
  await app.close();
}

// Levels this run did not take keep the previous run's row (marked ²), so a run at 100k keeps the 1M figures.
const takenAt = existsSync(RESULTS)
  ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as { machine?: { date?: string } }).machine?.date
  : undefined;
for (const [level, row] of earlier)
  if (!LEVELS.includes(level)) results.push({ ...row, fromEarlierRun: row.fromEarlierRun ?? takenAt ?? true });
results.sort((a, b) => (a.memories as number) - (b.memories as number));
const mark = (r: Record<string, unknown>) => (r.fromEarlierRun ? ' ²' : '');

const s = (x: unknown) => (typeof x === 'number' ? x.toFixed(x < 10 ? 2 : 1) : String(x));
const exactness = (r: Record<string, unknown>) =>
  r.importVerified === true && r.sameGraphAfterImport === true ? 'exact' : 'NOT exact';
const rows = results.map((r) => [
  `${r.memories}${mark(r)}`,
  `${r.nodes} / ${r.relationships}`,
  `${s(r.fullWriteSeconds)} s, ${r.fullMB} MB (v1: ${r.fullMBasVersion1} MB)`,
  `${s(r.fullVerifySeconds)} s`,
  `${r.deltaNodes} / ${r.deltaRelationships} / ${r.deltaDeleted}`,
  `${s(r.deltaWriteSeconds)} s, ${r.deltaMB} MB`,
  `${s(r.deltaVerifySeconds)} s`,
  `${s(r.sweepSeconds)} s, ${r.sweepRescored}`,
  `${r.sweepDeltaNodes} nodes, ${r.sweepDeltaMB} MB, ${s(r.sweepDeltaSeconds)} s`,
  r.oldSweepDeltaSeconds === undefined
    ? 'not run (BENCH_COLD_BEFORE_V3=0)'
    : `${r.oldSweepDeltaNodes} nodes, ${r.oldSweepDeltaMB} MB, ${s(r.oldSweepDeltaSeconds)} s`,
  typeof r.compactSeconds === 'number' ? `${s(r.compactSeconds)} s${r.restoreFromEarlierRun ? ' ¹' : ''}` : 'not run',
  typeof r.importSeconds === 'number'
    ? `${s(r.importSeconds)} s (${exactness(r)})${r.restoreFromEarlierRun ? ' ¹' : ''}`
    : 'not run',
]);
const checkpointRows = results
  .filter((r) => typeof r.firstCheckpointSeconds === 'number')
  .map((r) => [
    `${r.memories}${mark(r)}`,
    `${s(r.firstCheckpointSeconds)} s, ${r.firstCheckpointChanges} changes meanwhile`,
    `${r.firstCheckpointVerified ? 'verified' : 'NOT verified'}: ${r.firstCheckpointRecords} records, ` +
      `${r.firstCheckpointLeft} left to the next delta`,
    `${s(r.checkpointSeconds)} s, ${r.checkpointChanges} changes meanwhile`,
    `${r.checkpointVerified ? 'verified' : 'NOT verified'}: ${r.checkpointRecords} records, ` +
      `${r.checkpointLeft} left to the next delta`,
    `${r.shutdownAfterCheckpointNodes} nodes, ${s(r.shutdownAfterCheckpointSeconds)} s` +
      `${r.shutdownAfterCheckpointVerified ? '' : ' (NOT verified)'}`,
  ]);
const checkpointTable =
  checkpointRows.length === 0
    ? ''
    : `\n\nBackground checkpoints (written and checked while one client keeps storing, claiming, linking and ` +
      `forgetting through GraphQL, records that changed after the export read them left to the next delta): the ` +
      `first, with no verified export yet (a full export), right after seeding; a later one (a delta) after the ` +
      `sweep's delta and ${CHANGES} more changes; then the delta a shutdown writes and verifies after it (steps 4 ` +
      `and 5), the client stopped. The ` +
      `import above restores the chain that ends in those two.\n\n${markdownTable(
        [
          'memories',
          'first checkpoint (full): time',
          'its check',
          'later checkpoint (delta): time',
          'its check',
          "shutdown's delta after it: export + verify",
        ],
        checkpointRows,
      )}`;
writeResults(
  'cold-storage',
  { levels: LEVELS, changes: CHANGES, results },
  `${markdownTable(
    [
      'memories',
      'nodes / relationships',
      'full export',
      'verify full',
      `delta after ${CHANGES} changes: nodes / rels / deleted`,
      'delta export',
      'verify delta',
      "a day's sweep: time, memories rescored",
      'delta after it: export + verify',
      'the same before version 3 (rescored memories stamped)',
      'compaction',
      'import',
    ],
    rows,
  )}\n\nSeeded straight into Neo4j: per memory 3 nodes (the memory with a 384-d float32 vector, two audit events) ` +
    `and 7 relationships (2 ABOUT, 5 associations). The ${CHANGES} changes go through GraphQL: 40% new memories ` +
    '(with vectors), 40% claims, 15% links of the mind, 5% forgets. Shutdown writes and verifies only the delta ' +
    '(its steps 4 and 5 = "delta export" + "verify delta"). Then a decay sweep a day later rescores the store, and ' +
    'the next delta is written and verified; the score is derived and left out of the files (format version 3), ' +
    'so the sweep adds only the tier changes it makes. For comparison, the rescored memories are then stamped as ' +
    'the sweep stamped them before version 3, and that delta is written and verified too (unless ' +
    'BENCH_COLD_BEFORE_V3=0). The compaction ' +
    'rewrites the chain as one file from the files alone. Import restores the chain (the full export, then its ' +
    'deltas) with batches of 2,000 and ' +
    'checks the result against it; "exact": a full export afterwards has the same digest as one taken before.' +
    (results.some((r) => r.restoreFromEarlierRun)
      ? '\n\n¹ From the previous run of this bench (BENCH_COLD_RESTORE=0 skipped them in this one); the code they ' +
        'measure (compaction, import) is the same.'
      : '') +
    (results.some((r) => r.fromEarlierRun)
      ? `\n\n² A level this run did not take (BENCH_COLD_LEVELS=${LEVELS.join(',')}): the row of the run of ` +
        `${results.find((r) => r.fromEarlierRun)?.fromEarlierRun}, before the background checkpoints existed.`
      : '') +
    checkpointTable,
);
