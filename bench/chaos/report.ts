// bench/results/chaos.{json,md}: recovery per fault and the verdict of every run.
import { markdownTable, percentile, writeResults } from '../lib.js';
import type { Phase } from './load.js';
import { startFailures } from './processes.js';
import type { RunResult } from './run.js';
import { CLIENTS, FAULTS, LOAD_MS, RATE, RUNS } from './settings.js';

/**
 * Writes bench/results/chaos.{json,md} for the runs so far (after each run, so a long session keeps what it measured).
 */
export function report(runs: RunResult[], roundTrip: number, loadBefore: number[], loadAfter: number[]): void {
  const rows = FAULTS.map((fault) => {
    const ps = runs.map((r) => r.phases.find((p) => p.fault === fault) as Phase);
    const codes: Record<string, number> = {};
    for (const p of ps) for (const [code, n] of Object.entries(p.errors)) codes[code] = (codes[code] ?? 0) + n;
    const s = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)}`);
    return [
      fault,
      ps.map((p) => p.acknowledged).join(' / '),
      ps.map((p) => p.retriedAcks).join(' / '),
      ps.map((p) => s(p.restartedMs)).join(' / '),
      ps.map((p) => s(p.healthyMs)).join(' / '),
      ps.map((p) => s(p.firstAckMs)).join(' / '),
      ps.map((p) => s(p.jobsMs)).join(' / '),
      ps.map((p) => Math.round(percentile(p.storeMs, 95))).join(' / '),
      Object.entries(codes)
        .sort((a, b) => b[1] - a[1])
        .map(([c, n]) => `${c} ${n}`)
        .join(', ') || 'none',
    ];
  });
  const verdicts = runs.map((r, i) => [
    i + 1,
    r.verdict.acknowledged,
    r.verdict.lost,
    r.verdict.wrongContent,
    r.verdict.duplicateMemories,
    r.verdict.missingStoredEvent,
    r.verdict.duplicateStoredEvent,
    r.verdict.pendingLinks,
    r.verdict.pendingEmbeddings,
    (r.verdict.convergedMs / 1000).toFixed(1),
    `${r.sessions.open} of ${r.sessions.of}`,
  ]);
  const la = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const machine =
    loadBefore[0]! > 1.5
      ? ' **The machine was busy before the run (load average above 1.5 on 2 cores): times below are noisy.**'
      : " The machine was quiet before the run; the load after is the benchmark's own (the load, the restarts, " +
        'the catching up).';
  const md = [
    `Load: ${CLIENTS} clients storing with client-chosen ids, paced at ${RATE} stores/s in all (each retries with ` +
      `the same id until acknowledged; a client waits for each answer, so a slow service gets fewer), plus a ` +
      `search every tenth store; linking and embeddings on. ${LOAD_MS / 1000} s of load before each fault, half ` +
      `that after recovery. ${runs.length} of ${RUNS} runs done. \`npm start\` exited before serving ` +
      `${startFailures} times and was run again.`,
    `Idle \`RETURN 1\` round trip (median of 50): ${roundTrip} ms. Load average before: ${la(loadBefore)}; after: ` +
      `${la(loadAfter)}.${machine} The round trip is taken right after the servers started, before their caches are ` +
      'warm.',
    '',
    "Restarts, through the project's own scripts: Neo4j and Redis `npm run services:up`; the API `npm start -- " +
      '--api-only`; the worker `npm run serve -- --worker-only`; all at once `npm start -- --api-only` then the ' +
      'worker (nothing cleaned by hand).',
    '',
    '## Per fault (run 1 / run 2 / …)',
    '',
    markdownTable(
      [
        'fault',
        'acknowledged stores in the phase',
        'acknowledged after a retry',
        'restart done (s)',
        'health all up (s)',
        'first store acknowledged after the kill (s)',
        'scheduled jobs ran again (s)',
        'store p95 incl. retries (ms)',
        'errors seen by clients, by code (all runs)',
      ],
      rows,
    ),
    '',
    '## Every acknowledged store, checked in Neo4j after the load stopped',
    '',
    markdownTable(
      [
        'run',
        'acknowledged',
        'lost',
        'wrong content',
        'duplicate memories',
        'no MemoryStored event',
        'MemoryStored twice',
        'still unlinked',
        'not embedded (not DONE)',
        'linked and embedded after (s)',
        'client sessions still open',
      ],
      verdicts,
    ),
    '',
    'Lost = acknowledged (the store returned its id) but no Memory with that id in Neo4j. A retry with the same id ' +
      'must change nothing: one memory and one MemoryStored event per id. Sessions: a restart keeps sessions open ' +
      '(they live in Neo4j); the session sweep ends idle ones (TIMEOUT) and a new `startSession` of the same ' +
      'instance ends the old one (CRASH).',
  ].join('\n');
  writeResults(
    'chaos',
    { settings: { RUNS, CLIENTS, RATE, LOAD_MS }, roundTripMs: roundTrip, loadBefore, loadAfter, startFailures, runs },
    md,
  );
}
