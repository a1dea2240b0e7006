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
import { rng, summarise, timed } from './lib.js';
import { startBench } from './conditions.js';
import { type Mode, measureStoreLatency } from './synapse/latency.js';
import { report } from './synapse/report.js';
import { Timeline } from './synapse/timeline.js';

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
const timeline = new Timeline(store, T0, SESSION_SIZE);

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
  timeline.made = Number(
    (await cypher<{ n: number }>('MATCH (m:Memory {store: $store}) RETURN count(m) AS n', { store }))[0]?.n ?? 0,
  );
while (timeline.made < MEMORIES) {
  await on.ports.memory.store(timeline.next(Math.min(1000, MEMORIES - timeline.made)), caller);
  await on.bus.idle();
  if (timeline.made % 10_000 === 0)
    console.log(`${timeline.made} memories, ${((performance.now() - seedStart) / 1000).toFixed(0)} s`);
}
const seedSeconds = (performance.now() - seedStart) / 1000;
const mechanical = await associationCount();
console.log(
  `seeded ${timeline.made} memories with ${mechanical} mechanical associations in ${seedSeconds.toFixed(0)} s`,
);

// Top up with semantic links between memories close in the timeline (setup only, direct Cypher).
let topUp = 0;
if (mechanical < ASSOCIATIONS * 0.95) {
  const perMemory = Math.ceil((ASSOCIATIONS - mechanical) / timeline.made);
  const session = on.driver.session({ database: base.neo4j.database });
  await session.run(
    `MATCH (m:Memory {store: $store})
     CALL (m) {
       UNWIND range(1, $perMemory) AS k
       WITH m, 'bench-session-'
               + toString(toInteger((m.occurredAt.epochMillis - $t0) / 60000 / $sessionSize) + 1
                          + toInteger(rand() * 2000))
               AS session
       CALL (session) {
         MATCH (o:Memory) WHERE o.sessionId = session AND o.occurredAt IS NOT NULL AND o.store = $store
         RETURN o ORDER BY rand() LIMIT 1
       }
       WITH CASE WHEN m.id < o.id THEN [m, o] ELSE [o, m] END AS ends
       WITH ends[0] AS lo, ends[1] AS hi
       MERGE (lo)-[r:CAUSAL]->(hi)
         ON CREATE SET r.strength = 0.3 + rand() * 0.6, r.origin = 'SEMANTIC',
                       r.createdAt = datetime(), r.updatedAt = datetime()
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
      'MATCH (m:Memory {store: $store})-[r:TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON]->() RETURN type(r) AS type, ' +
        'count(r) AS n ORDER BY type',
      { store },
    )
  ).map((r) => [r.type, Number(r.n)]),
);
console.log('by type', JSON.stringify(byType));
console.log(`graph: ${timeline.made} memories, ${total} associations (${topUp} added directly)`);

// ── store latency, linking on and off ────────────────────────────────────────
const modes: [Mode, App][] = [
  ['on', on],
  ['off', off],
];
const latency = await measureStoreLatency(modes, timeline, caller, STORE_SAMPLES);

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

report({
  MEMORIES,
  SESSION_SIZE,
  settings: base.synapse,
  graph: { made: timeline.made, total, byType, mechanical, topUp, reused, seedSeconds },
  latency,
  activation: { act, act10, hood, meanReached, seeds: WEIGHTS.length, seeds10: TEN.length },
});
