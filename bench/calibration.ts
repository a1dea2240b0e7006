/**
 * Confidence calibration across store sizes, through the service's own Recall.
 *   npm run bench:calibration -- [--fit] [--quick] [LOCOMO_DIR]
 *
 * Stores: sub-stores of the development LoCoMo conversations (read at run
 * time from ../shared/data/locomo, never copied): for groups of questions,
 * their evidence turns plus 0 to 600 other turns of the conversation; tiny
 * stores of one question's evidence plus 0 to 8 others; each whole
 * conversation; all five in one store (2,760 turns). And every everyday
 * scenario (test/fixtures/everyday/scenarios.json): split "dev" is fitted on,
 * "heldout" is only reported. Every question is asked with `rankOnly` (the
 * search's own code, without recording), all signals, limit 10.
 *
 * --fit [--rounds N] refits the two logistic models (with and without a query vector) on
 * the development data and rewrites src/contexts/recall/calibration.ts.
 * Association enters as a seed's confidence times what reached the memory,
 * so the fit is repeated over fresh rankings (two rounds).
 * Reported: reliability per decile in each store-size band, the expected
 * calibration error (ECE), leave-one-conversation-out ECE for LoCoMo, the
 * held-out everyday scenarios apart, a reliability plot (SVG), and what
 * contextFor would inject (default floors, 400 tokens).
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';
import { buildGraphQLSchema, startGraphQLServer } from '../src/adapters/graphql/index.js';
import { Recall, type Calibrations } from '../src/contexts/recall/index.js';
import { DEFAULT_CALIBRATIONS, ALL_SIGNALS } from '../src/contexts/recall/testing.js';
import { dropBenchStores, graphqlClient, rng } from './lib.js';
import { DEFAULT_LOCOMO_DIR, loadConversations } from './locomo-data.js';
import { startBench } from './conditions.js';
import { asker, LEXICAL } from './calibration/ask.js';
import { dumpCandidates } from './calibration/dump.js';
import { measure } from './calibration/measure.js';
import { examplesOf, fitBalanced, toCalibration, writeCalibration } from './calibration/model.js';
import { planStores } from './calibration/plans.js';
import { report } from './calibration/report.js';
import { storeAll } from './calibration/store.js';

// The machine must be quiet (or BENCH_BUSY_OK=1); the results file records how it was.
await startBench();

const args = process.argv.slice(2);
const fit = args.includes('--fit');
const quick = args.includes('--quick');
const dir = resolve(
  args.find((a, i) => !a.startsWith('--') && !['--dump', '--rounds'].includes(args[i - 1] ?? '')) ?? DEFAULT_LOCOMO_DIR,
);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 2;
const random = rng(20);

// ── the stores ─────────────────────────────────────────────────────────────
const conversations = loadConversations(dir);
const plans = planStores(conversations, quick, random);

// ── the service ────────────────────────────────────────────────────────────
const base = loadConfig();
const config = {
  ...base,
  port: 0,
  scopeStores: plans.map((p) => p.store),
  subconscious: { ...base.subconscious, queuePrefix: `bench-calib-${randomUUID().slice(0, 8)}` },
};
const app = await createApp(config, { embeddingWorker: true });
const recall = new Recall(app.recallDeps);
const server = await startGraphQLServer(await buildGraphQLSchema(), app.ports, '127.0.0.1', 0);
const gql = graphqlClient(server.url);
const { keyOf, stored, started } = await storeAll(app, config, gql, plans);

// ── asking ─────────────────────────────────────────────────────────────────
const askAll = asker(recall, plans, started);
const dropAll = () =>
  dropBenchStores(
    plans.map((p) => p.store),
    app,
    server,
    config,
  );

// --dump FILE: every candidate's evidence for every question, for fitting offline (then exit).
const dumpAt = args.indexOf('--dump');
if (dumpAt >= 0) {
  await dumpCandidates(askAll, keyOf, args[dumpAt + 1]!);
  await dropAll();
  process.exit(0);
}

let calibrations: Calibrations = DEFAULT_CALIBRATIONS;
const fitRounds: Record<string, unknown>[] = [];
if (fit) {
  for (let round = 1; round <= rounds; round++) {
    const fused = examplesOf(await askAll(calibrations, ALL_SIGNALS, 10), keyOf).filter((e) => e.split === 'dev');
    const lexical = examplesOf(await askAll(calibrations, LEXICAL, 10), keyOf).filter((e) => e.split === 'dev');
    calibrations = {
      fused: toCalibration(fitBalanced(fused), false),
      lexical: toCalibration(fitBalanced(lexical), true),
    };
    fitRounds.push({ round, examples: { fused: fused.length, lexical: lexical.length }, ...calibrations });
    console.log(`fit round ${round}`, JSON.stringify(calibrations));
  }
}

// ── measuring ──────────────────────────────────────────────────────────────
const measured = await measure(askAll, calibrations, keyOf, conversations);
if (fit) writeCalibration(calibrations);

// ── clean up and report ────────────────────────────────────────────────────
await dropAll();
report(
  { plans, conversations: conversations.length, dir, stored, quick, fit, rounds, calibrations, fitRounds },
  measured,
);
