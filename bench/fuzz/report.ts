// bench/results/fuzz.{json,md}: crashes, untyped errors, writes that must not happen, the bystander's p95.
import { loadavg } from 'node:os';
import type { loadConfig } from '../../src/config.js';
import { markdownTable, summarise, writeResults } from '../lib.js';
import { slowest, tally, untypedSamples } from './classify.js';

export interface FuzzRun {
  readonly concurrency: number;
  readonly admission: ReturnType<typeof loadConfig>['admission'];
  readonly seconds: number;
  readonly victimBefore: string;
  readonly victimAfter: string;
  readonly refusedSampled: number;
  readonly refusedWrites: number;
  readonly healthAfter: { status: number; text: string };
  /** The bystander's search times idle and while the fuzzer ran (ms). */
  readonly idle: number[];
  readonly during: number[];
  readonly loadBefore: number[];
}

export function report(run: FuzzRun): void {
  const { seconds, victimBefore, victimAfter, refusedSampled, refusedWrites, healthAfter, idle, during, loadBefore } =
    run;
  const CONCURRENCY = run.concurrency;
  const idleSummary = summarise(idle);
  const duringSummary = summarise(during);
  const ratio = Math.round((duringSummary.p95 / idleSummary.p95) * 100) / 100;
  const result = {
    requests: tally.sent,
    concurrency: CONCURRENCY,
    seconds: Math.round(seconds),
    crashes: tally.crashes,
    untypedErrors: tally.untyped,
    victimChanged: victimBefore !== victimAfter,
    refusedSampled,
    refusedWrites,
    okResponses: tally.ok,
    typedErrors: tally.typedErrors,
    healthAfter: healthAfter.status === 200 && JSON.parse(healthAfter.text).data?.health?.neo4j === true,
    wellBehaved: { idle: idleSummary, during: duringSummary, p95Ratio: ratio },
    codes: Object.fromEntries([...tally.byCode.entries()].sort((a, b) => b[1] - a[1])),
    statuses: Object.fromEntries(tally.byStatus),
    untypedSamples,
    slowest,
  };
  console.log(JSON.stringify(result, null, 2));
  const md = [
    `${tally.sent} requests generated from the schema (every Query and Mutation field; hostile argument values, ` +
      'sizes and types; random selections up to 12 deep; up to 50 aliases; broken bodies, batches, forged and ' +
      `missing tokens), ${CONCURRENCY} at a time, sent by a mind token of its own store. A victim store the ` +
      'attacker names by its ids and name; a bystander (a reader token of a third store) searches throughout. ' +
      'The service runs in its own process (`npm run serve -- --api-only`), with admission as `npm start` runs it ' +
      `(${run.admission.maxConcurrent} at once, ${run.admission.maxPerCaller} per token, ` +
      `${run.admission.maxQueued} waiting); the rate limit is lifted, so that every request reaches the ` +
      `resolvers. Load average before: ${loadBefore.map((x) => x.toFixed(2)).join(' ')}; after: ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}.`,
    '',
    markdownTable(
      ['measure', 'target', 'result'],
      [
        ['crashes (server stopped answering, transport errors, health failing)', '0', tally.crashes],
        ['untyped errors (no extensions.code, INTERNAL_SERVER_ERROR, non-JSON answers)', '0', tally.untyped],
        ['writes to the victim store', '0', victimBefore === victimAfter ? 0 : 'changed'],
        [`writes from refused calls (sampled: ${refusedSampled} refused calls run alone)`, '0', refusedWrites],
        [
          'bystander search p95 while fuzzing / idle',
          '≤ 2×',
          `${duringSummary.p95} / ${idleSummary.p95} ms = ${ratio}×`,
        ],
        ['health after', 'answers', result.healthAfter ? 'answers' : 'failed'],
      ],
    ),
    '',
    `Throughput: ${Math.round(tally.sent / seconds)} requests/s over ${Math.round(seconds)} s; ${tally.ok} answered ` +
      `without error, ${tally.typedErrors} typed errors.`,
    '',
    'Error codes seen:',
    '',
    markdownTable(
      ['code', 'count'],
      [...tally.byCode.entries()].sort((a, b) => b[1] - a[1]).map(([c, n]) => [c, n]),
    ),
    '',
    `HTTP statuses: ${[...tally.byStatus.entries()].map(([s, n]) => `${s}: ${n}`).join(', ')}.`,
    untypedSamples.length
      ? `\nUntyped samples:\n\n${untypedSamples.map((s) => `- \`${s.replace(/`/g, "'")}\``).join('\n')}`
      : '',
  ].join('\n');
  writeResults('fuzz', { ...result, loadAverage: { before: loadBefore, after: loadavg() } }, md);
}
