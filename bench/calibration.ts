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
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';
import { buildGraphQLSchema, startGraphQLServer } from '../src/adapters/graphql/index.js';
import {
  Recall,
  DEFAULT_INJECT_FLOOR,
  DEFAULT_LIVE_FLOOR,
  type Calibration,
  type Calibrations,
  type RankedHit,
  type Signals,
} from '../src/contexts/recall/index.js';
import { pack, directFeatures, DEFAULT_CALIBRATIONS, ALL_SIGNALS } from '../src/contexts/recall/testing.js';
import { dropBenchStores, graphqlClient, markdownTable, rng, writeResults } from './lib.js';
import { expectedCalibrationError, fitNonNegative, reliability, reliabilitySvg, type Example } from './calibrate.js';
import { DEFAULT_LOCOMO_DIR, loadConversations, type Conversation } from './locomo-data.js';
import { loadScenarios } from './everyday-data.js';
import { startBench } from './conditions.js';

// The machine must be quiet (or BENCH_BUSY_OK=1); the results file records how it was.
await startBench();

const args = process.argv.slice(2);
const fit = args.includes('--fit');
const quick = args.includes('--quick');
const dir = resolve(
  args.find((a, i) => !a.startsWith('--') && !['--dump', '--rounds'].includes(args[i - 1] ?? '')) ?? DEFAULT_LOCOMO_DIR,
);
const random = rng(20);

// ── the stores ─────────────────────────────────────────────────────────────
interface Input {
  key: string;
  content: string;
  people: string[];
  tags: string[];
  occurredAt: string;
  sessionId: string | null;
}
interface Asked {
  q: string;
  answers: string[];
  group?: string;
}
interface Plan {
  store: string;
  source: 'locomo' | 'everyday';
  group: string;
  split: 'dev' | 'heldout';
  kind: string;
  inputs: Input[];
  questions: Asked[];
}

const plans: Plan[] = [];
const conversations = loadConversations(dir);
const turnInput = (conv: Conversation, store: string, i: number): Input => {
  const { turn, at, session } = conv.turns[i]!;
  return {
    key: `${conv.name}/${turn.dia_id}`,
    content: `${turn.speaker}: ${turn.text}${turn.blip_caption ? ` [shares a photo: ${turn.blip_caption}]` : ''}`,
    people: [turn.speaker],
    tags: [],
    occurredAt: new Date(at).toISOString(),
    sessionId: `${store}:session-${session}`,
  };
};
const newStore = (label: string) => `calib-${label}-${randomUUID().slice(0, 8)}`;
const shuffle = <T>(xs: readonly T[]) => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
};
const OTHERS = quick ? [0, 30, 150, 600] : [0, 10, 30, 80, 150, 300, 600];
const GROUP = quick ? 40 : 20;
const TINY = quick ? 10 : 30;
for (const conv of conversations) {
  const index = new Map(conv.turns.map((t, i) => [t.turn.dia_id, i]));
  const questions = conv.questions
    .filter((q) => q.category !== 5 && Array.isArray(q.evidence) && q.evidence.some((e) => index.has(e)))
    .map((q) => ({ q: q.question, answers: q.evidence!.filter((e) => index.has(e)).map((e) => `${conv.name}/${e}`) }));
  const evidenceOf = (qs: Asked[]) => new Set(qs.flatMap((q) => q.answers.map((a) => index.get(a.split('/')[1]!)!)));
  const subStore = (qs: Asked[], others: number, kind: string) => {
    const store = newStore(conv.name);
    const evidence = evidenceOf(qs);
    const rest = shuffle(conv.turns.map((_, i) => i).filter((i) => !evidence.has(i))).slice(0, others);
    const turns = [...evidence, ...rest].sort((a, b) => a - b);
    plans.push({
      store,
      source: 'locomo',
      group: conv.name,
      split: 'dev',
      kind,
      inputs: turns.map((i) => turnInput(conv, store, i)),
      questions: qs,
    });
  };
  const order = shuffle(questions);
  for (let g = 0, n = 0; g < order.length; g += GROUP, n++)
    subStore(order.slice(g, g + GROUP), OTHERS[n % OTHERS.length]!, 'sub-store');
  for (const q of shuffle(questions).slice(0, TINY)) subStore([q], Math.floor(random() * 9), 'tiny');
  const whole = newStore(conv.name);
  plans.push({
    store: whole,
    source: 'locomo',
    group: conv.name,
    split: 'dev',
    kind: 'conversation',
    inputs: conv.turns.map((_, i) => turnInput(conv, whole, i)),
    questions,
  });
}
if (!quick) {
  const all = newStore('all');
  plans.push({
    store: all,
    source: 'locomo',
    group: 'all',
    split: 'dev',
    kind: 'all conversations',
    inputs: conversations.flatMap((c) => c.turns.map((_, i) => turnInput(c, all, i))),
    questions: plans
      .filter((p) => p.kind === 'conversation')
      .flatMap((p) => p.questions.map((q) => ({ ...q, group: p.group }))),
  });
}
const scenarios = loadScenarios();
const now = Date.now();
for (const s of scenarios) {
  const store = newStore('everyday');
  plans.push({
    store,
    source: 'everyday',
    group: s.name,
    split: s.split,
    kind: 'everyday',
    inputs: s.memories.map((m) => ({
      key: `${s.name}/${m.key}`,
      content: m.content,
      people: m.people ?? [],
      tags: m.tags ?? [],
      occurredAt: new Date(now - (m.minutesAgo ?? 0) * 60_000).toISOString(),
      sessionId: null,
    })),
    questions: s.questions.map((q) => ({ q: q.q, answers: q.answer === null ? [] : [`${s.name}/${q.answer}`] })),
  });
}

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
const STORE_MANY = 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }';
const keyOf = new Map<string, string>(); // memory id → key
const started = performance.now();
let stored = 0;
const vectorOf = new Map<string, number[]>(); // LoCoMo key → the vector the service gave it in its whole conversation
async function ingest(plan: Plan, withVectors: boolean): Promise<void> {
  const bySession = new Map<string | null, Input[]>();
  for (const i of plan.inputs) bySession.set(i.sessionId, [...(bySession.get(i.sessionId) ?? []), i]);
  for (const inputs of bySession.values()) {
    for (let from = 0; from < inputs.length; from += 500) {
      const part = inputs.slice(from, from + 500);
      const { storeMany } = await gql<{ storeMany: { id: string }[] }>(STORE_MANY, {
        inputs: part.map((i) => ({
          store: plan.store,
          content: i.content,
          people: i.people,
          tags: i.tags,
          occurredAt: i.occurredAt,
          sessionId: i.sessionId,
          metadata: { key: i.key },
          ...(withVectors ? { embedding: vectorOf.get(i.key) } : {}),
        })),
      });
      storeMany.forEach((r, n) => keyOf.set(r.id, part[n]!.key));
    }
  }
  stored += plan.inputs.length;
}
async function embedded(): Promise<void> {
  await app.bus.idle();
  await app.embeddings!.idle(3_600_000);
  await app.bus.idle();
}
// The service embeds each turn once, in its whole conversation (with the turn before it as context) and
// every everyday memory; sub-stores reuse a turn's vector as a client's own (so the context of a turn
// whose predecessor is not in the sub-store is still that predecessor: noted in the results).
const model = await (app.embedder as { start?: () => Promise<{ state: string }> }).start?.();
if (model?.state !== 'ready' || !app.embeddings)
  throw new Error('the embedding model is not ready: run node scripts/services/model.mjs');
const first = plans.filter((p) => p.kind === 'conversation' || p.source === 'everyday');
for (const plan of first) await ingest(plan, false);
await embedded();
console.log(`stored and embedded ${stored} memories in ${((performance.now() - started) / 1000).toFixed(0)} s`);
for (const plan of first.filter((p) => p.kind === 'conversation')) {
  const session = app.driver.session({ database: config.neo4j.database });
  const rows = await session.run('MATCH (m:Memory) WHERE m.store = $store RETURN m.id AS id, m.embedding AS e', {
    store: plan.store,
  });
  await session.close();
  for (const r of rows.records) vectorOf.set(keyOf.get(r.get('id'))!, (r.get('e') as number[]).map(Number));
}
for (const plan of plans.filter((p) => !first.includes(p))) await ingest(plan, true);
await app.bus.idle();
console.log(
  `all ${plans.length} stores (${stored} memories) ready after ${((performance.now() - started) / 1000).toFixed(0)} s`,
);

// ── asking ─────────────────────────────────────────────────────────────────
const BANDS = [
  [1, 10],
  [11, 100],
  [101, 1000],
  [1001, Infinity],
] as const;
const bandOf = (size: number) => {
  const b = BANDS.find(([lo, hi]) => size >= lo && size <= hi)!;
  return b[1] === Infinity ? `>${b[0] - 1}` : `${b[0]}–${b[1]}`;
};
interface Row {
  plan: Plan;
  asked: Asked;
  hits: RankedHit[];
}
const NO_FILTERS = { tiers: null, from: null, to: null, tags: null, people: null, sessionId: null };
const LEXICAL: Signals = { ...ALL_SIGNALS, semantic: false };

async function askAll(calibrations: Calibrations, signals: Signals, limit: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const plan of plans) {
    for (const asked of plan.questions) {
      const hits = await recall.rankOnly({
        query: asked.q,
        store: plan.store,
        limit,
        includeAssociations: true,
        minConfidence: null,
        filters: NO_FILTERS,
        signals,
        calibrations,
      });
      rows.push({ plan, asked, hits });
    }
  }
  console.log(
    `asked ${rows.length} questions (${signals.semantic ? 'with vectors' : 'lexical'}) at ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return rows;
}

interface Labelled extends Example {
  band: string;
  source: string;
  group: string;
  split: string;
}
const examplesOf = (rows: readonly Row[], limit = 10): Labelled[] =>
  rows.flatMap(({ plan, asked, hits }) =>
    hits.slice(0, limit).map((h) => ({
      features: [...directFeatures(h), h.association],
      label: (asked.answers.includes(keyOf.get(h.memory.id) ?? '') ? 1 : 0) as 0 | 1,
      confidence: h.confidence,
      band: bandOf(plan.inputs.length),
      source: plan.source,
      group: asked.group ?? plan.group,
      split: plan.split,
    })),
  );

const NAMES = ['bias', 'similarity', 'coverage', 'exact', 'exactMiss', 'person', 'date', 'association'] as const;
const toCalibration = (w: readonly number[], lexical: boolean): Calibration =>
  Object.fromEntries(
    NAMES.map((n, i) => [n, n === 'similarity' && lexical ? 0 : Math.round((w[i] ?? 0) * 1000) / 1000]),
  ) as unknown as Calibration;
const predict = (c: Calibration, f: readonly number[]) => {
  const z = NAMES.reduce((s, n, i) => s + (i === 0 ? c.bias : (c[n] as number) * (f[i - 1] ?? 0)), 0);
  return 1 / (1 + Math.exp(-z));
};

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
  // Association weighed strongly so that the memories it reaches are among the 100 dumped (the features do not depend on it).
  const strong = (c: Calibration) => ({ ...c, association: 3 });
  const rows = await askAll(
    { fused: strong(DEFAULT_CALIBRATIONS.fused), lexical: strong(DEFAULT_CALIBRATIONS.lexical) },
    ALL_SIGNALS,
    100,
  );
  const out = rows.map(({ plan, asked, hits }) => ({
    source: plan.source,
    split: plan.split,
    group: asked.group ?? plan.group,
    kind: plan.kind,
    size: plan.inputs.length,
    q: asked.q,
    answers: asked.answers,
    hits: hits.map((h) => ({
      key: keyOf.get(h.memory.id),
      sim: h.similarity,
      cov: h.coverage,
      exact: h.exact,
      miss: h.exactMiss,
      person: h.personMatch,
      date: h.dateMatch,
      act: h.activation,
      assoc: h.association,
      conf: h.confidence,
      via: h.via === null ? null : (keyOf.get(h.via) ?? null),
      text: h.textScore,
      content: h.memory.content,
    })),
  }));
  writeFileSync(args[dumpAt + 1]!, JSON.stringify(out));
  console.log(`dumped ${out.length} questions to ${args[dumpAt + 1]}`);
  await dropAll();
  process.exit(0);
}
/**
 * Every store-size band, and within it every source (LoCoMo, everyday),
 * carries the same total weight in the fit: otherwise the ~600-turn LoCoMo
 * stores, with fifty times the hits, decide alone what a hit in a store of
 * three memories is worth. Exact, person, date and association weights stay
 * non-negative (fitNonNegative).
 */
function fitBalanced(examples: readonly Labelled[]): number[] {
  const cell = (e: Labelled) => `${e.band}/${e.source}`;
  const totals = new Map<string, number>();
  for (const e of examples) totals.set(cell(e), (totals.get(cell(e)) ?? 0) + 1);
  const evidence = ['exact', 'person', 'date', 'association'].map(
    (n) => NAMES.indexOf(n as (typeof NAMES)[number]) - 1,
  );
  return fitNonNegative(examples, evidence, 1e-3, (e) => 1 / totals.get(cell(e as Labelled))!);
}

let calibrations: Calibrations = DEFAULT_CALIBRATIONS;
const fitRounds: Record<string, unknown>[] = [];
if (fit) {
  const rounds = Number(args[args.indexOf('--rounds') + 1]) || 2;
  for (let round = 1; round <= rounds; round++) {
    const fused = examplesOf(await askAll(calibrations, ALL_SIGNALS, 10)).filter((e) => e.split === 'dev');
    const lexical = examplesOf(await askAll(calibrations, LEXICAL, 10)).filter((e) => e.split === 'dev');
    calibrations = {
      fused: toCalibration(fitBalanced(fused), false),
      lexical: toCalibration(fitBalanced(lexical), true),
    };
    fitRounds.push({ round, examples: { fused: fused.length, lexical: lexical.length }, ...calibrations });
    console.log(`fit round ${round}`, JSON.stringify(calibrations));
  }
}

// ── measuring ──────────────────────────────────────────────────────────────
const fusedRows = await askAll(calibrations, ALL_SIGNALS, 24);
const lexicalRows = await askAll(calibrations, LEXICAL, 10);
const fusedExamples = examplesOf(fusedRows);
const lexicalExamples = examplesOf(lexicalRows);
const bandNames = BANDS.map(([lo, hi]) => bandOf(hi === Infinity ? lo : hi));
const byBand = (xs: readonly Labelled[]) =>
  bandNames.map((band) => ({
    band,
    bins: reliability(xs.filter((e) => e.band === band)),
    n: xs.filter((e) => e.band === band).length,
  }));
const dev = (xs: readonly Labelled[]) => xs.filter((e) => e.split === 'dev');
const fusedBands = byBand(dev(fusedExamples));
const lexicalBands = byBand(dev(lexicalExamples));
const heldout = reliability(fusedExamples.filter((e) => e.split === 'heldout'));

// Leave one LoCoMo conversation out: fit on the rest (and everyday dev), predict it.
const cv: Labelled[] = [];
for (const conv of conversations.map((c) => c.name)) {
  const train = dev(fusedExamples).filter((e) => !(e.source === 'locomo' && e.group === conv));
  const c = toCalibration(fitBalanced(train), false);
  for (const e of fusedExamples.filter((x) => x.source === 'locomo' && x.group === conv))
    cv.push({ ...e, confidence: predict(c, e.features) });
}
const cvBands = byBand(cv);

// What contextFor would inject: default floors, 400 tokens, 8 items (the pack contextFor builds from these hits).
const packed = fusedRows.map(({ plan, asked, hits }) => {
  const p = pack(hits, {
    query: asked.q,
    sessionId: null,
    maxTokens: 400,
    maxItems: 8,
    injectFloor: DEFAULT_INJECT_FLOOR,
    liveFloor: DEFAULT_LIVE_FLOOR,
  });
  const inPack = p.hits.some((h) => asked.answers.includes(keyOf.get(h.memory.id) ?? ''));
  return { plan, asked, inPack, empty: p.hits.length === 0, first: p.text.split('\n')[0] ?? '' };
});
const share = (xs: readonly boolean[]) =>
  xs.length ? Math.round((xs.filter(Boolean).length / xs.length) * 1000) / 1000 : NaN;
const packFigures = (['dev', 'heldout'] as const).map((split) => {
  const every = packed.filter((p) => p.plan.source === 'everyday' && p.plan.split === split);
  const answerable = every.filter((p) => p.asked.answers.length > 0);
  const none = every.filter((p) => p.asked.answers.length === 0);
  return {
    split,
    answerable: answerable.length,
    answerInPack: share(answerable.map((p) => p.inPack)),
    unanswerable: none.length,
    packEmpty: share(none.map((p) => p.empty)),
  };
});
const locomoPacked = packed.filter((p) => p.plan.kind === 'conversation');
const locomoPack = {
  questions: locomoPacked.length,
  evidenceInPack: share(locomoPacked.map((p) => p.inPack)),
  packEmpty: share(locomoPacked.map((p) => p.empty)),
};
const firstAt = (rows: readonly Row[], k: number, pred: (p: Plan) => boolean) =>
  share(
    rows
      .filter((r) => pred(r.plan) && r.asked.answers.length > 0)
      .map((r) => r.hits.slice(0, k).some((h) => r.asked.answers.includes(keyOf.get(h.memory.id) ?? ''))),
  );
const locomoRecall = Object.fromEntries(
  [1, 5, 10, 20].map((k) => [`recall_any@${k}`, firstAt(fusedRows, k, (p) => p.kind === 'conversation')]),
);
console.log('LoCoMo whole conversations', locomoRecall);
const everydayRecall = (['dev', 'heldout'] as const).map((split) => ({
  split,
  at1: firstAt(fusedRows, 1, (p) => p.source === 'everyday' && p.split === split),
  at5: firstAt(fusedRows, 5, (p) => p.source === 'everyday' && p.split === split),
}));

if (fit) {
  const path = new URL('../src/contexts/recall/calibration.ts', import.meta.url);
  let text = readFileSync(path, 'utf8');
  for (const [name, c] of [
    ['FUSED_CALIBRATION', calibrations.fused],
    ['LEXICAL_CALIBRATION', calibrations.lexical],
  ] as const) {
    const literal = `{\n${NAMES.map((n) => `  ${n}: ${c[n]}`).join(',\n')}\n}`;
    text = text.replace(
      new RegExp(`export const ${name}: Calibration = \\{[\\s\\S]*?\\};`),
      `export const ${name}: Calibration = ${literal};`,
    );
  }
  writeFileSync(path, text);
  console.log('calibration written to src/contexts/recall/calibration.ts');
}

// ── clean up and report ────────────────────────────────────────────────────
await dropAll();

const ece = (bins: ReturnType<typeof reliability>) => expectedCalibrationError(bins);
const binRows = (bins: ReturnType<typeof reliability>) =>
  bins.map((b) => [
    `${b.from.toFixed(1)}–${b.to.toFixed(1)}`,
    b.count,
    Number.isNaN(b.predicted) ? '–' : b.predicted,
    Number.isNaN(b.observed) ? '–' : b.observed,
  ]);
const bandSection = (title: string, bands: ReturnType<typeof byBand>) => [
  `### ${title}`,
  markdownTable(
    ['band (memories in store)', 'hits', 'ECE'],
    bands.map((b) => [b.band, b.n, ece(b.bins)]),
  ),
  '',
  ...bands.flatMap((b) => [
    `Band ${b.band}:`,
    markdownTable(['confidence', 'hits', 'mean predicted', 'observed share'], binRows(b.bins)),
    '',
  ]),
];
const sizes = plans.map((p) => p.inputs.length);
const md = [
  `Stores: ${plans.length} (${plans.filter((p) => p.source === 'locomo').length} from the ${conversations.length} development LoCoMo conversations in ${dir.replace(/.*\/shared\//, '../shared/')}, ${plans.filter((p) => p.source === 'everyday').length} everyday scenarios), ${stored} memories, store sizes ${Math.min(...sizes)}–${Math.max(...sizes)}. Questions asked: ${fusedRows.length}${quick ? ' (--quick)' : ''}.`,
  "Each hit is one of a question's top 10 (`rankOnly`: the search without recording). Label: the hit is an evidence turn (LoCoMo) or the answering memory (everyday).",
  fit
    ? `Models refitted in this run (--fit) on the development data, ${Number(args[args.indexOf('--rounds') + 1]) || 2} round(s), each store-size band and each source weighted equally (fitBalanced).`
    : 'Models as committed in src/contexts/recall/calibration.ts.',
  '',
  '## Models',
  markdownTable(
    ['model', ...NAMES],
    [
      ['with a query vector', ...NAMES.map((n) => calibrations.fused[n])],
      ['lexical (no model)', ...NAMES.map((n) => calibrations.lexical[n])],
    ],
  ),
  '',
  '## Expected calibration error per store-size band (development data, queries with a vector)',
  markdownTable(
    ['band', 'hits', 'ECE (fitted model)', 'ECE leave-one-conversation-out (LoCoMo)', 'ECE lexical model'],
    fusedBands.map((b, i) => [b.band, b.n, ece(b.bins), ece(cvBands[i]!.bins), ece(lexicalBands[i]!.bins)]),
  ),
  '',
  `Held-out everyday scenarios (never fitted on): ${fusedExamples.filter((e) => e.split === 'heldout').length} hits, ECE ${ece(heldout)}.`,
  markdownTable(['confidence', 'hits', 'mean predicted', 'observed share'], binRows(heldout)),
  '',
  '## contextFor (default floors: inject ' +
    DEFAULT_INJECT_FLOOR +
    ', live ' +
    DEFAULT_LIVE_FLOOR +
    '; 400 tokens, 8 items)',
  markdownTable(
    ['everyday split', 'answerable', 'answer in pack', 'unanswerable', 'pack empty'],
    packFigures.map((f) => [f.split, f.answerable, f.answerInPack, f.unanswerable, f.packEmpty]),
  ),
  '',
  `LoCoMo, whole development conversations: ${locomoPack.questions} questions, an evidence turn in the pack for ${locomoPack.evidenceInPack}, pack empty for ${locomoPack.packEmpty}. Ranking there (in process): ${Object.entries(
    locomoRecall,
  )
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}.`,
  '',
  markdownTable(
    ['everyday split', 'answer first', 'answer in top 5'],
    everydayRecall.map((r) => [r.split, r.at1, r.at5]),
  ),
  '',
  '![reliability](calibration.svg)',
  '',
  '## Reliability per band',
  ...bandSection('Queries with a vector, fitted model', fusedBands),
  ...bandSection('Queries with a vector, leave-one-conversation-out (LoCoMo stores only)', cvBands),
  ...bandSection('Lexical-only queries (the model missing or off)', lexicalBands),
].join('\n');
writeFileSync(
  new URL('./results/calibration.svg', import.meta.url),
  reliabilitySvg([
    ...fusedBands.map((b) => ({ name: `${b.band} memories`, bins: b.bins })),
    { name: 'held-out everyday', bins: heldout },
  ]),
);
writeResults(
  'calibration',
  {
    stores: plans.length,
    memories: stored,
    questions: fusedRows.length,
    quick,
    fitRounds,
    calibrations,
    bands: fusedBands,
    cv: cvBands,
    lexical: lexicalBands,
    heldout,
    pack: { everyday: packFigures, locomo: locomoPack },
    everydayRecall,
    locomoRecall,
  },
  md,
);
