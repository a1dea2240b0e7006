// bench/results/scale.{json,md,svg}: latencies, memory and sweeps of one store as it grows, against issue 25's targets.
import { writeFileSync } from 'node:fs';
import { type LatencySummary, markdownTable, writeResults } from '../lib.js';
import type { Settled, SweepReport } from './measure.js';

type Sweep = SweepReport & { readonly perSecond: number };

export interface Level {
  readonly memories: number;
  readonly associations: number;
  readonly seeded: { readonly seconds: number; readonly added: number; readonly settled: Settled };
  /** The first search after the service started (ms): it loads the store's term statistics. */
  readonly firstSearch: { readonly search: number; readonly lexical: number };
  readonly idle: LatencySummary;
  readonly search: LatencySummary;
  readonly lexical: LatencySummary;
  readonly context: LatencySummary;
  readonly store: LatencySummary;
  readonly activation: LatencySummary;
  readonly resident: { readonly service: number | null; readonly neo4j: number | null };
  readonly sweeps: {
    readonly first: Sweep;
    readonly cadence: Sweep;
    readonly dayLater: Sweep;
    readonly underLoad: LatencySummary;
  };
}

/** Issue 25's targets at 1M memories. */
const TARGETS = { searchP95: 50, contextP95: 60, storeP95: 15, sweepSeconds: 60, serviceRssMiB: 1024 };

const CURVES = [
  ['search, all signals', '#1f77b4', (l: Level) => l.search.p95],
  ['search, lexical', '#2ca02c', (l: Level) => l.lexical.p95],
  ['contextFor', '#d62728', (l: Level) => l.context.p95],
  ['store (paced, 20/s)', '#9467bd', (l: Level) => l.store.p95],
  ['activation (10 seeds, 2 hops)', '#ff7f0e', (l: Level) => l.activation.p95],
] as const;

/** p95 against memories (log scale), one line per request kind. */
function plot(levels: readonly Level[]): string {
  const W = 720;
  const H = 320;
  const pad = { l: 60, r: 200, t: 30, b: 40 };
  const sizes = levels.map((l) => l.memories);
  const [lo, hi] = [Math.log10(Math.min(...sizes)), Math.log10(Math.max(...sizes))];
  const x = (n: number) => pad.l + ((W - pad.l - pad.r) * (Math.log10(n) - lo)) / Math.max(hi - lo, 1e-9);
  const top = Math.max(TARGETS.contextP95, ...levels.flatMap((l) => CURVES.map(([, , f]) => f(l)))) * 1.1;
  const y = (ms: number) => H - pad.b - ((H - pad.t - pad.b) * ms) / top;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<line x1="${pad.l}" y1="${H - pad.b}" x2="${W - pad.r}" y2="${H - pad.b}" stroke="#333"/>`,
    `<line x1="${pad.l}" y1="${pad.t}" x2="${pad.l}" y2="${H - pad.b}" stroke="#333"/>`,
    ...levels.map(
      (l) =>
        `<text x="${x(l.memories)}" y="${H - pad.b + 15}" text-anchor="middle">` +
        `${l.memories.toLocaleString('en')}</text>`,
    ),
    `<text x="${(pad.l + W - pad.r) / 2}" y="${H - 8}" text-anchor="middle">memories in the store (log scale)</text>`,
    `<text x="${pad.l - 8}" y="${pad.t - 10}" text-anchor="middle">p95 ms</text>`,
    `<text x="${pad.l - 5}" y="${pad.t + 4}" text-anchor="end">${Math.round(top)}</text>`,
    `<text x="${pad.l - 5}" y="${H - pad.b}" text-anchor="end">0</text>`,
    `<line x1="${pad.l}" y1="${y(TARGETS.searchP95)}" x2="${W - pad.r}" y2="${y(TARGETS.searchP95)}" ` +
      'stroke="#1f77b4" stroke-dasharray="2,4"/>',
    `<text x="${W - pad.r + 5}" y="${y(TARGETS.searchP95) + 4}" fill="#1f77b4">search target at 1M</text>`,
    ...CURVES.flatMap(([name, colour, f], i) => [
      `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${levels
        .map((l) => `${x(l.memories).toFixed(1)},${y(f(l)).toFixed(1)}`)
        .join(' ')}"/>`,
      `<text x="${W - pad.r + 5}" y="${pad.t + 30 + 14 * i}" fill="${colour}">${name}</text>`,
    ]),
    '</svg>',
  ];
  return `${parts.join('\n')}\n`;
}

const cell = (s: LatencySummary) => `${s.p50} / ${s.p95}`;
const seconds = (s: Sweep) => `${(s.ms / 1000).toFixed(1)} s (${s.perSecond.toLocaleString('en')}/s)`;

export function report(levels: readonly Level[], setup: { samples: number; batch: number; poolTexts: number }): void {
  writeFileSync(new URL('../results/scale.svg', import.meta.url), plot(levels));
  const latencyRows = levels.map((l) => [
    l.memories.toLocaleString('en'),
    l.associations.toLocaleString('en'),
    cell(l.idle),
    cell(l.search),
    cell(l.lexical),
    cell(l.context),
    cell(l.store),
    cell(l.activation),
    `${l.firstSearch.search} / ${l.firstSearch.lexical}`,
    `${l.resident.service ?? '–'} / ${l.resident.neo4j ?? '–'}`,
  ]);
  const sweepRows = levels.map((l) => [
    l.memories.toLocaleString('en'),
    seconds(l.sweeps.first),
    seconds(l.sweeps.cadence),
    seconds(l.sweeps.dayLater),
    cell(l.sweeps.underLoad),
  ]);
  const seedRows = levels.map((l) => [
    l.memories.toLocaleString('en'),
    l.seeded.added.toLocaleString('en'),
    l.seeded.seconds.toFixed(0),
    Math.round(l.seeded.added / Math.max(l.seeded.seconds, 1e-9)).toLocaleString('en'),
    `${l.seeded.settled.seconds} s${l.seeded.settled.quiet ? '' : ` (still ${l.seeded.settled.cores} cores)`}`,
  ]);
  writeResults(
    'scale',
    { targets: TARGETS, setup, levels },
    'One store grown to each size in place: memories recombined from the LoCoMo conversations (bench/corpus.ts), ' +
      `each with a vector made from its parts' model vectors (${setup.poolTexts.toLocaleString('en')} distinct turns ` +
      'and sentences embedded once; bench/scale/vectors.ts), stored with `storeMany` in batches of ' +
      `${setup.batch.toLocaleString('en')} through the memory port, linked by Synapse as in service. ` +
      `Latencies are ${setup.samples} sequential requests each, as a client sees them through GraphQL over loopback ` +
      "HTTP (activation: in process); questions are the conversations' own; stores are paced at 20 a second, " +
      "without a vector (the service's embedding worker embeds them). The service (with the model) and its " +
      'lexical twin each run in a process of their own, started after the store grew (bench/scale/service.ts); ' +
      "resident memory: the service's process after its requests, and Neo4j's.\n\n" +
      markdownTable(
        [
          'memories',
          'associations',
          'RETURN 1 p50/p95 ms',
          'search p50/p95 ms',
          'lexical search p50/p95',
          'contextFor p50/p95',
          'store p50/p95',
          'activation p50/p95',
          'first search ms (all signals / lexical)',
          'RSS MiB service / Neo4j',
        ],
        latencyRows,
      ) +
      '\n\n![p95 against store size](scale.svg)\n\nDecay sweeps of the whole store (SweepDecay through the bus): ' +
      'the first after seeding, the next 15 minutes later, then one a day later while a client alternates stores ' +
      'and searches (its latencies in the last column).\n\n' +
      markdownTable(
        ['memories', 'first sweep', '15 minutes later', 'a day later, under load', 'store/search p50/p95 during'],
        sweepRows,
      ) +
      '\n\nSeeding (storeMany with vectors, linking drained after each batch); before anything is measured, ' +
      "Neo4j's own CPU use must fall below 0.15 of a core over 5 s (its index merges and checkpoint after the " +
      'load; at most 3 minutes):\n\n' +
      markdownTable(['memories', 'added', 'seconds', 'memories/s', 'Neo4j quiet after'], seedRows) +
      `\n\nTargets at 1M: search p95 < ${TARGETS.searchP95} ms, contextFor p95 < ${TARGETS.contextP95} ms, store ` +
      `p95 < ${TARGETS.storeP95} ms, every sweep < ${TARGETS.sweepSeconds} s, service RSS < 1 GB.`,
  );
}
