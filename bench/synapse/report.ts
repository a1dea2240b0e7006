// bench/results/synapse.{json,md}: the graph, store latency with linking on and off, activation and neighbourhood.
import { cpus, loadavg } from 'node:os';
import type { loadConfig } from '../../src/config.js';
import { markdownTable, type summarise, writeResults } from '../lib.js';
import type { StoreLatency } from './latency.js';

type Summary = ReturnType<typeof summarise>;

export interface SynapseRun {
  readonly MEMORIES: number;
  readonly SESSION_SIZE: number;
  readonly settings: ReturnType<typeof loadConfig>['synapse'];
  readonly graph: {
    readonly made: number;
    readonly total: number;
    readonly byType: Record<string, number>;
    readonly mechanical: number;
    readonly topUp: number;
    readonly reused: string | null;
    readonly seedSeconds: number;
  };
  readonly latency: StoreLatency;
  readonly activation: {
    readonly act: Summary;
    readonly act10: Summary;
    readonly hood: Summary;
    readonly meanReached: number;
    readonly seeds: number;
    readonly seeds10: number;
  };
}

export function report(run: SynapseRun): void {
  const { MEMORIES, SESSION_SIZE, settings } = run;
  const { made, total, byType, mechanical, topUp, reused, seedSeconds } = run.graph;
  const { store95, cpuPerStore, pacedStores, neo4jPid, loadBefore } = run.latency;
  const { act, act10, hood, meanReached } = run.activation;
  const loadAfter = loadavg()[0] as number;
  const round = (x: number) => Math.round(x * 100) / 100;
  const added = round(store95.on.p95 - store95.off.p95);
  const addedPaced = pacedStores.map(({ rate, on, off }) => ({ rate, addsMs: round(on.p95 - off.p95) }));
  // The highest rate up to which linking adds under 5 ms at every rate measured.
  const firstOver = addedPaced.findIndex((p) => p.addsMs >= 5);
  const withinTarget = (firstOver === -1 ? addedPaced.at(-1) : addedPaced[firstOver - 1])?.rate ?? null;
  const addedLinked = round(store95.onLinked.p95 - store95.offLinked.p95);
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
      activation: { ...act, seeds: run.activation.seeds, maxHops: 2, meanReached },
      activation10Seeds: { ...act10, seeds: run.activation.seeds10, maxHops: 2 },
      neighbourhoodDepth2: hood,
    },
    `Store of ${made.toLocaleString('en')} synthetic memories (sessions of ${SESSION_SIZE}, one a minute; Zipf-like ` +
      `tags, people and emotions from bench/corpus.ts; ` +
      `content of 8–20 words drawn Zipf-like from a 20,000-word vocabulary, its 100 most frequent ranks stop words) ` +
      'seeded through Hippocampus with mechanical linking on (' +
      (reused
        ? 'seeded by an earlier run and reused'
        : `${Math.round(MEMORIES / seedSeconds)} memories/s including linking`) +
      '), ' +
      `${total.toLocaleString('en')} associations (${mechanical.toLocaleString('en')} mechanical, ` +
      `${topUp.toLocaleString('en')} semantic added by direct Cypher; ` +
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
      `\n\nLinking adds ${added} ms to store p95 back to back (on − off); paced, ` +
      `${addedPaced.map((p) => `${p.addsMs} ms at ${p.rate}/s`).join(', ')} ` +
      `(under 5 ms ${withinTarget === null ? 'at none of these rates' : `up to ${withinTarget} stores/s`}); ` +
      `${addedLinked} ms when each store waits until its links exist (links are written at most every ` +
      `${settings.linkWriteMs} ms per store). ` +
      (neo4jPid
        ? `Process CPU per store back to back: Neo4j ${cpuPerStore.on.neo4jMs} ms with linking, ` +
          `${cpuPerStore.off.neo4jMs} ms without; ` +
          `this process ${cpuPerStore.on.nodeMs} ms and ${cpuPerStore.off.nodeMs} ms — on two cores, back to back, ` +
          `linking's work competes with the next store. `
        : '') +
      `Targets: activation p95 < 20 ms; linking adds < 5 ms to store p95. ` +
      `Load average (1 min) ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after the latency runs, on ` +
      `${cpus().length} cores.`,
  );
}
