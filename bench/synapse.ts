/**
 * Synapse: what mechanical linking costs a store, and how fast spreading
 * activation is on a big graph. Seeds a store with BENCH_MEMORIES (100k)
 * synthetic memories through Hippocampus and the bus (so Synapse links them as
 * in service: sessions of 20, Zipf-distributed tags and people), tops the graph
 * up to about BENCH_ASSOCIATIONS (1M) associations with direct Cypher if the
 * mechanical links fall short, then measures:
 *   - store latency with mechanical linking on and off (two apps on the same
 *     store, alternating blocks): back to back, paced at several rates
 *     (BENCH_RATES, stores per second: 20, 30, 40 and 50 unless it says
 *     otherwise), and until its links exist; process CPU per store;
 *   - activation from 5 seeds over 2 hops, and neighbourhood(depth 2).
 * Run: flock /tmp/total-recall-bench.lock npm run bench:synapse
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { createApp, type App } from '../src/app.js';
import { cpus, loadavg } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownTable, rng, summarise, timed, writeResults, zipfPick } from './lib.js';
import { syntheticMemories } from './corpus.js';
import { startBench } from './conditions.js';

// The machine must be quiet (or BENCH_BUSY_OK=1); the results file records how it was.
await startBench();

const MEMORIES = Number(process.env.BENCH_MEMORIES ?? 100_000);
const ASSOCIATIONS = Number(process.env.BENCH_ASSOCIATIONS ?? 1_000_000);
const STORE_SAMPLES = Number(process.env.BENCH_STORE_SAMPLES ?? 400);
const ACTIVATION_SAMPLES = Number(process.env.BENCH_ACTIVATION_SAMPLES ?? 1000);
const SESSION_SIZE = 20;
const T0 = Date.parse('2024-01-01T00:00:00Z');
const caller = { instanceId: 'bench', sessionId: null };

const base = loadConfig();
const on = await createApp({ ...base, synapse: { ...base.synapse, mechanicalLinking: true } });
const off = await createApp(
  { ...base, synapse: { ...base.synapse, mechanicalLinking: false } },
  { applySchema: false },
);
// BENCH_STORE reuses a store kept by an earlier run (BENCH_KEEP): no seeding, for quick re-measures.
const reused = process.env.BENCH_STORE ?? null;
const store = reused ?? `bench-synapse-${randomUUID()}`;
const random = rng(11);

let made = 0;
let batchSeed = 1;
/**
 * Content with a natural term distribution: bench/corpus.ts draws its sentences
 * from about a hundred words, so every keyword query would match most of the
 * store. Here words come Zipf-distributed from a 20,000-word vocabulary
 * (pseudo-words built from syllables), 8 to 20 per memory, after the person;
 * the hundred most frequent ranks are English stop words, as in real text.
 */
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'to',
  'sa',
  'vel',
  'dun',
  'pri',
  'os',
  'ta',
  'ber',
  'qui',
  'mon',
  'el',
  'zar',
  'fi',
  'gus',
  'ha',
  'nor',
];
const VOCABULARY = Array.from({ length: 20_000 }, (_, i) => {
  let word = '';
  for (let n = i + 400; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word;
});
const STOP = [
  'the',
  'and',
  'with',
  'for',
  'that',
  'this',
  'was',
  'from',
  'have',
  'but',
  'then',
  'after',
  'about',
  'into',
  'over',
];
const RANKS = VOCABULARY.map((_, i) => i);
const words = rng(5);
function sentence(person: string): string {
  const count = 8 + Math.floor(words() * 13);
  const word = () => {
    const rank = zipfPick(RANKS, words, 1.05);
    return rank < 100 ? (STOP[rank % STOP.length] as string) : (VOCABULARY[rank] as string);
  };
  return `${person} and I ${Array.from({ length: count }, word).join(' ')}.`;
}

/** The next memories of the store's timeline: one a minute, sessions of SESSION_SIZE. */
function next(count: number) {
  return syntheticMemories(count, batchSeed++).map((m) => {
    const i = made++;
    const content = sentence(m.people[0] ?? 'someone');
    return {
      ...m,
      content,
      store,
      occurredAt: T0 + i * 60_000,
      sessionId: `bench-session-${Math.floor(i / SESSION_SIZE)}`,
    };
  });
}

async function cypher<T = Record<string, unknown>>(text: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const result = await on.driver.executeQuery(text, params, { database: base.neo4j.database });
  return result.records.map((r) => r.toObject() as T);
}

async function associationCount(): Promise<number> {
  const rows = await cypher<{ n: number }>(
    'MATCH (m:Memory {store: $store}) RETURN sum(COUNT { (m)-[:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]->() }) AS n',
    { store },
  );
  return Number(rows[0]?.n ?? 0);
}

// ── seed ────────────────────────────────────────────────────────────────────
const seedStart = performance.now();
if (reused)
  made = Number(
    (await cypher<{ n: number }>('MATCH (m:Memory {store: $store}) RETURN count(m) AS n', { store }))[0]?.n ?? 0,
  );
while (made < MEMORIES) {
  await on.ports.memory.store(next(Math.min(1000, MEMORIES - made)), caller);
  await on.bus.idle();
  if (made % 10_000 === 0) console.log(`${made} memories, ${((performance.now() - seedStart) / 1000).toFixed(0)} s`);
}
const seedSeconds = (performance.now() - seedStart) / 1000;
const mechanical = await associationCount();
console.log(`seeded ${made} memories with ${mechanical} mechanical associations in ${seedSeconds.toFixed(0)} s`);

// Top up with semantic links between memories close in the timeline (setup only, direct Cypher).
let topUp = 0;
if (mechanical < ASSOCIATIONS * 0.95) {
  const perMemory = Math.ceil((ASSOCIATIONS - mechanical) / made);
  const session = on.driver.session({ database: base.neo4j.database });
  await session.run(
    `MATCH (m:Memory {store: $store})
     CALL (m) {
       UNWIND range(1, $perMemory) AS k
       WITH m, 'bench-session-' + toString(toInteger((m.occurredAt.epochMillis - $t0) / 60000 / $sessionSize) + 1 + toInteger(rand() * 2000)) AS session
       CALL (session) {
         MATCH (o:Memory) WHERE o.sessionId = session AND o.occurredAt IS NOT NULL AND o.store = $store
         RETURN o ORDER BY rand() LIMIT 1
       }
       WITH CASE WHEN m.id < o.id THEN [m, o] ELSE [o, m] END AS ends
       WITH ends[0] AS lo, ends[1] AS hi
       MERGE (lo)-[r:CAUSAL]->(hi)
         ON CREATE SET r.strength = 0.3 + rand() * 0.6, r.origin = 'SEMANTIC', r.createdAt = datetime(), r.updatedAt = datetime()
     } IN TRANSACTIONS OF 2000 ROWS`,
    { store, perMemory, t0: T0, sessionSize: SESSION_SIZE },
  );
  await session.close();
  topUp = (await associationCount()) - mechanical;
}
const total = mechanical + topUp;
const byType = Object.fromEntries(
  (
    await cypher<{ type: string; n: number }>(
      'MATCH (m:Memory {store: $store})-[r:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]->() RETURN type(r) AS type, count(r) AS n ORDER BY type',
      { store },
    )
  ).map((r) => [r.type, Number(r.n)]),
);
console.log('by type', JSON.stringify(byType));
console.log(`graph: ${made} memories, ${total} associations (${topUp} added directly)`);

// ── store latency, linking on and off ────────────────────────────────────────
// The two apps (linking on, off) take turns on the same store, in blocks of
// BLOCK stores, three ways:
//   back to back: the next store as soon as the last returned (closed loop: the
//     client saturates the machine, and linking's work competes with the next
//     store for the two cores);
//   paced: at each rate of RATES, a store every 1000/rate ms whatever the last
//     took (open loop: below what the machine takes back to back, so the
//     stores leave linking idle CPU to use; the rates show up to which load
//     linking stays out of the stores' way);
//   store then wait until the bus is idle, i.e. until its links exist.
// After each block the app's bus goes idle (its links written) before the
// other's block starts, so linking of one block never spills into the other's.
// Process CPU per store (Neo4j's from /proc, this process's from cpuUsage) is
// summed over the back-to-back blocks, idle wait included.
const BLOCK = 50;
const RATES = (process.env.BENCH_RATES ?? '20,30,40,50')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
type Mode = 'on' | 'off';
const modes: [Mode, App][] = [
  ['on', on],
  ['off', off],
];
const calls: Record<Mode, number[]> = { on: [], off: [] };
const paced = new Map<number, Record<Mode, number[]>>(RATES.map((rate) => [rate, { on: [], off: [] }]));
const linked: Record<Mode, number[]> = { on: [], off: [] };
const cpu: Record<Mode, { neo4j: number; node: number }> = { on: { neo4j: 0, node: 0 }, off: { neo4j: 0, node: 0 } };
const neo4jPid = (() => {
  const file = join(process.env.TOTAL_RECALL_DATA || '.data', 'neo4j', 'run', 'neo4j.pid');
  return process.env.NEO4J_URI || !existsSync(file) ? null : readFileSync(file, 'utf8').trim();
})();
/** Neo4j's user + system CPU so far (ms), when this machine runs it. */
function neo4jCpuMs(): number {
  if (!neo4jPid) return 0;
  const fields = (readFileSync(`/proc/${neo4jPid}/stat`, 'utf8').split(') ')[1] as string).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 1/100 s
}
const nodeCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadBefore = loadavg()[0] as number;
for (let done = 0; done < STORE_SAMPLES; done += BLOCK) {
  for (const [mode, app] of modes) {
    const [neo4j0, node0] = [neo4jCpuMs(), nodeCpuMs()];
    for (const memory of next(BLOCK)) {
      const [, ms] = await timed(() => app.ports.memory.store([memory], caller));
      calls[mode].push(ms);
    }
    await app.bus.idle();
    cpu[mode].neo4j += neo4jCpuMs() - neo4j0;
    cpu[mode].node += nodeCpuMs() - node0;
  }
  for (const rate of RATES) {
    for (const [mode, app] of modes) {
      const samples = paced.get(rate)![mode];
      let due = performance.now();
      const pending: Promise<unknown>[] = [];
      for (const memory of next(BLOCK)) {
        due += 1000 / rate;
        await sleep(Math.max(0, due - performance.now()));
        pending.push(timed(() => app.ports.memory.store([memory], caller)).then(([, ms]) => samples.push(ms)));
      }
      await Promise.all(pending);
      await app.bus.idle();
    }
  }
  // Store then wait: the modes alternate sample by sample, so both see the same load.
  for (let i = 0; i < BLOCK / 5; i++) {
    for (const [mode, app] of modes) {
      const [memory] = next(1);
      const start = performance.now();
      await app.ports.memory.store([memory!], caller);
      await app.bus.idle();
      linked[mode].push(performance.now() - start);
    }
  }
}
const store95 = {
  on: summarise(calls.on),
  off: summarise(calls.off),
  onLinked: summarise(linked.on),
  offLinked: summarise(linked.off),
};
const cpuPerStore = Object.fromEntries(
  modes.map(([mode]) => [
    mode,
    {
      neo4jMs: Math.round((cpu[mode].neo4j / calls[mode].length) * 100) / 100,
      nodeMs: Math.round((cpu[mode].node / calls[mode].length) * 100) / 100,
    },
  ]),
) as Record<Mode, { neo4jMs: number; nodeMs: number }>;
const pacedStores = RATES.map((rate) => {
  const samples = paced.get(rate)!;
  return { rate, on: summarise(samples.on), off: summarise(samples.off) };
});
console.log(
  'store',
  JSON.stringify(store95),
  'paced',
  JSON.stringify(pacedStores),
  'cpu per store',
  JSON.stringify(cpuPerStore),
);

// ── activation and neighbourhood ─────────────────────────────────────────────
const ids = (
  await cypher<{ id: string }>(
    'MATCH (m:Memory {store: $store}) WITH m, rand() AS r ORDER BY r LIMIT 5000 RETURN m.id AS id',
    { store },
  )
).map((r) => r.id);
const pick = () => ids[Math.floor(random() * ids.length)] as string;
const WEIGHTS = [1, 0.8, 0.6, 0.4, 0.2];
const activation: number[] = [];
const reached: number[] = [];
const neighbourhood: number[] = [];
for (let i = 0; i < 100; i++)
  await on.synapse.activate(
    store,
    WEIGHTS.map((weight) => ({ id: pick(), weight })),
  ); // warm-up
for (let i = 0; i < ACTIVATION_SAMPLES; i++) {
  const [result, ms] = await timed(() =>
    on.synapse.activate(
      store,
      WEIGHTS.map((weight) => ({ id: pick(), weight })),
      { maxHops: 2 },
    ),
  );
  activation.push(ms);
  reached.push(result.length);
}
// Recall seeds its ten best direct matches, weighted by relative text score.
const TEN = Array.from({ length: 10 }, (_, i) => 1 - i * 0.09);
const activation10: number[] = [];
for (let i = 0; i < Math.min(500, ACTIVATION_SAMPLES); i++) {
  const [, ms] = await timed(() =>
    on.synapse.activate(
      store,
      TEN.map((weight) => ({ id: pick(), weight })),
      { maxHops: 2 },
    ),
  );
  activation10.push(ms);
}
for (let i = 0; i < Math.min(500, ACTIVATION_SAMPLES); i++) {
  const [, ms] = await timed(() => on.synapse.neighbourhood(pick(), { depth: 2, limit: 100 }));
  neighbourhood.push(ms);
}
const act = summarise(activation);
const act10 = summarise(activation10);
const hood = summarise(neighbourhood);
const meanReached = Math.round(reached.reduce((a, b) => a + b, 0) / reached.length);
console.log('activation', JSON.stringify(act), 'reached', meanReached, 'neighbourhood', JSON.stringify(hood));

// ── clean up (batched deletes) ───────────────────────────────────────────────
if (process.env.BENCH_KEEP) console.log(`kept store ${store} (BENCH_KEEP)`);
else {
  const cleanup = on.driver.session({ database: base.neo4j.database });
  await cleanup.run('MATCH (n) WHERE n.store = $store CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 2000 ROWS', {
    store,
  });
  await cleanup.close();
}
await off.close();
await on.close();

const loadAfter = loadavg()[0] as number;
const round = (x: number) => Math.round(x * 100) / 100;
const added = round(store95.on.p95 - store95.off.p95);
const addedPaced = pacedStores.map(({ rate, on, off }) => ({ rate, addsMs: round(on.p95 - off.p95) }));
// The highest rate up to which linking adds under 5 ms at every rate measured.
const firstOver = addedPaced.findIndex((p) => p.addsMs >= 5);
const withinTarget = (firstOver === -1 ? addedPaced.at(-1) : addedPaced[firstOver - 1])?.rate ?? null;
const addedLinked = round(store95.onLinked.p95 - store95.offLinked.p95);
const settings = base.synapse;
writeResults(
  'synapse',
  {
    targets: { activationP95Ms: 20, linkingAddsToStoreP95Ms: 5 },
    graph: {
      memories: made,
      associations: total,
      byType,
      mechanical,
      addedDirectly: topUp,
      reused: reused !== null,
      seedSeconds: Math.round(seedSeconds),
      seedPerSecond: reused ? null : Math.round(MEMORIES / seedSeconds),
    },
    settings,
    store: { ...store95, paced: pacedStores },
    linkingAddsToStoreP95Ms: {
      backToBack: added,
      paced: addedPaced,
      storeThenLinked: addedLinked,
      withinTargetUpToStoresPerSecond: withinTarget,
    },
    cpuPerStoreBackToBack: neo4jPid ? cpuPerStore : null,
    loadAverage: { before: loadBefore, after: loadAfter },
    activation: { ...act, seeds: WEIGHTS.length, maxHops: 2, meanReached },
    activation10Seeds: { ...act10, seeds: TEN.length, maxHops: 2 },
    neighbourhoodDepth2: hood,
  },
  `Store of ${made.toLocaleString('en')} synthetic memories (sessions of ${SESSION_SIZE}, one a minute; Zipf-like tags, people and emotions from bench/corpus.ts; ` +
    `content of 8–20 words drawn Zipf-like from a 20,000-word vocabulary, its 100 most frequent ranks stop words) ` +
    `seeded through Hippocampus with mechanical linking on (${reused ? 'seeded by an earlier run and reused' : `${Math.round(MEMORIES / seedSeconds)} memories/s including linking`}), ` +
    `${total.toLocaleString('en')} associations (${mechanical.toLocaleString('en')} mechanical, ${topUp.toLocaleString('en')} semantic added by direct Cypher; ` +
    `by type ${Object.entries(byType)
      .map(([t, n]) => `${t} ${n.toLocaleString('en')}`)
      .join(', ')}). ` +
    `Calls go through the Memory Port in-process (no HTTP).\n\n` +
    markdownTable(
      ['measure', 'samples', 'p50 ms', 'p95 ms', 'p99 ms'],
      [
        ['store back to back, linking off', store95.off.n, store95.off.p50, store95.off.p95, store95.off.p99],
        ['store back to back, linking on', store95.on.n, store95.on.p50, store95.on.p95, store95.on.p99],
        ...pacedStores.flatMap(({ rate, on, off }) => [
          [`store paced at ${rate}/s, linking off`, off.n, off.p50, off.p95, off.p99],
          [`store paced at ${rate}/s, linking on`, on.n, on.p50, on.p95, on.p99],
        ]),
        [
          'store then wait for the bus, linking off',
          store95.offLinked.n,
          store95.offLinked.p50,
          store95.offLinked.p95,
          store95.offLinked.p99,
        ],
        [
          'store then wait until its links exist, linking on',
          store95.onLinked.n,
          store95.onLinked.p50,
          store95.onLinked.p95,
          store95.onLinked.p99,
        ],
        [`activation, 5 seeds, 2 hops (mean ${meanReached} memories reached)`, act.n, act.p50, act.p95, act.p99],
        ['activation, 10 seeds (as Recall seeds), 2 hops', act10.n, act10.p50, act10.p95, act10.p99],
        ['neighbourhood, depth 2, limit 100', hood.n, hood.p50, hood.p95, hood.p99],
      ],
    ) +
    `\n\nLinking adds ${added} ms to store p95 back to back (on − off); paced, ${addedPaced.map((p) => `${p.addsMs} ms at ${p.rate}/s`).join(', ')} ` +
    `(under 5 ms ${withinTarget === null ? 'at none of these rates' : `up to ${withinTarget} stores/s`}); ` +
    `${addedLinked} ms when each store waits until its links exist (links are written at most every ${settings.linkWriteMs} ms per store). ` +
    (neo4jPid
      ? `Process CPU per store back to back: Neo4j ${cpuPerStore.on.neo4jMs} ms with linking, ${cpuPerStore.off.neo4jMs} ms without; ` +
        `this process ${cpuPerStore.on.nodeMs} ms and ${cpuPerStore.off.nodeMs} ms — on two cores, back to back, linking's work competes with the next store. `
      : '') +
    `Targets: activation p95 < 20 ms; linking adds < 5 ms to store p95. ` +
    `Load average (1 min) ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after the latency runs, on ${cpus().length} cores shared with other work.`,
);
