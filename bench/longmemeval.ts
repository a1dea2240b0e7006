/**
 * LongMemEval-style retrieval (../shared/data/longmemeval/dev-sample.json, read
 * at run time, never copied; its README gives the measure):
 *   npm run bench:longmemeval -- [--questions N]   (30 by default)
 * One store per question, one memory per turn ("<role>: <content>", occurredAt
 * from the session's date, one session per haystack session), the question
 * searched as it is through GraphQL; turn-level recall_any@k (a turn with
 * has_answer in the top k) and session-level recall_any@k, beside plain BM25
 * (Okapi, k1 1.5, b 0.75, lower-cased words, no stemming or stop words) over
 * the same turns.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';
import { buildGraphQLSchema, startGraphQLServer } from '../src/adapters/graphql/index.js';
import { dropBenchStores, graphqlClient, markdownTable, summarise, writeResults } from './lib.js';
import { startBench } from './conditions.js';
import {
  type Example,
  expectedCalibrationError,
  RELIABILITY_HEADER,
  reliability,
  reliabilityRows,
} from './calibrate.js';
import {
  LONGMEMEVAL_ASKED,
  loadLongMemEval,
  neverFitted,
  sessionDate,
  spread,
  turnContent,
} from './longmemeval-data.js';

// The machine must be quiet (or BENCH_BUSY_OK=1); the results file records how it was.
await startBench();

const args = process.argv.slice(2);
const n = Number(args[args.indexOf('--questions') + 1]) || LONGMEMEVAL_ASKED;
// N questions spread evenly over the file; of the default 30, none was fitted on (the calibration fits on the
// others: longmemeval-data.ts).
const all = loadLongMemEval();
const items = spread(all, n);
// The calibration fits on the questions the default run does not ask; more than those 30 includes some of them.
const heldOut = neverFitted(all);
const fitted = items.filter((it) => !heldOut.has(it)).length;
const KS = [1, 5, 10, 20];

const stores = items.map((it) => `lme-${it.question_id}-${randomUUID().slice(0, 8)}`);
const base = loadConfig();
const config = {
  ...base,
  port: 0,
  scopeStores: stores,
  subconscious: { ...base.subconscious, queuePrefix: `bench-lme-${randomUUID().slice(0, 8)}` },
};
const app = await createApp(config, { embeddingWorker: true });
const server = await startGraphQLServer(await buildGraphQLSchema(), app.ports, '127.0.0.1', 0);
const gql = graphqlClient(server.url);
const STORE_MANY = 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }';
const SEARCH = 'query ($input: SearchInput!) { search(input: $input) { hits { confidence memory { id } } } }';

interface Ref {
  evidence: boolean;
  session: string;
  text: string;
}
const refOf = new Map<string, Ref>();
const turnsOf: Ref[][] = [];
const started = performance.now();
for (const [q, it] of items.entries()) {
  const refs: Ref[] = [];
  for (const [s, session] of it.haystack_sessions.entries()) {
    const sid = it.haystack_session_ids[s]!;
    const inputs = session.map((t) => ({
      store: stores[q],
      content: turnContent(t),
      occurredAt: sessionDate(it.haystack_dates[s]!),
      sessionId: `${stores[q]}:${sid}`,
    }));
    const { storeMany } = await gql<{ storeMany: { id: string }[] }>(STORE_MANY, { inputs });
    storeMany.forEach((m, i) => {
      const ref = { evidence: session[i]!.has_answer === true, session: sid, text: inputs[i]!.content };
      refOf.set(m.id, ref);
      refs.push(ref);
    });
  }
  turnsOf.push(refs);
}
await app.bus.idle();
const model = await (app.embedder as { start?: () => Promise<{ state: string }> }).start?.();
if (model?.state !== 'ready' || !app.embeddings) throw new Error('the embedding model is not ready');
await app.embeddings.idle(7_200_000);
await app.bus.idle();
const seconds = (performance.now() - started) / 1000;
console.log(`stored and embedded ${refOf.size} turns in ${seconds.toFixed(0)} s`);

// Plain BM25 over the same turns.
const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
function bm25Rank(refs: Ref[], query: string): Ref[] {
  const docs = refs.map((r) => words(r.text));
  const avg = docs.reduce((s, d) => s + d.length, 0) / docs.length;
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
  const q = words(query);
  const scores = docs.map((d) => {
    const tf = new Map<string, number>();
    for (const w of d) tf.set(w, (tf.get(w) ?? 0) + 1);
    return q.reduce((s, w) => {
      const f = tf.get(w) ?? 0;
      const dfw = df.get(w) ?? 0;
      const idf = Math.log((docs.length - dfw + 0.5) / (dfw + 0.5) + 1);
      return s + (f === 0 ? 0 : (idf * f * 2.5) / (f + 1.5 * (0.25 + (0.75 * d.length) / avg)));
    }, 0);
  });
  return refs
    .map((r, i) => ({ r, s: scores[i]! }))
    .sort((a, b) => b.s - a.s)
    .map((x) => x.r);
}

const rows: { type: string; service: Ref[]; bm25: Ref[]; answerSessions: string[] }[] = [];
const latencies: number[] = [];
// Each question's top 10 hits: the confidence the service gave, and whether the hit is an evidence turn.
const calibration: Example[] = [];
for (const [q, it] of items.entries()) {
  const t0 = performance.now();
  const { search } = await gql<{ search: { hits: { confidence: number; memory: { id: string } }[] } }>(SEARCH, {
    input: { query: it.question, store: stores[q], limit: 20 },
  });
  latencies.push(performance.now() - t0);
  for (const h of search.hits.slice(0, 10))
    calibration.push({ features: [], label: refOf.get(h.memory.id)!.evidence ? 1 : 0, confidence: h.confidence });
  rows.push({
    type: it.question_type,
    service: search.hits.map((h) => refOf.get(h.memory.id)!),
    bm25: bm25Rank(turnsOf[q]!, it.question).slice(0, 20),
    answerSessions: it.answer_session_ids,
  });
}
const mean = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 1000) / 1000;
const measure = (pick: (r: (typeof rows)[number]) => Ref[]) => ({
  turn: Object.fromEntries(
    KS.map((k) => [
      k,
      mean(
        rows.map((r) =>
          pick(r)
            .slice(0, k)
            .some((x) => x.evidence)
            ? 1
            : 0,
        ),
      ),
    ]),
  ),
  session: Object.fromEntries(
    KS.map((k) => [
      k,
      mean(
        rows.map((r) =>
          pick(r)
            .slice(0, k)
            .some((x) => r.answerSessions.includes(x.session))
            ? 1
            : 0,
        ),
      ),
    ]),
  ),
});
const service = measure((r) => r.service);
const bm25 = measure((r) => r.bm25);
console.log('service', service, 'bm25', bm25);

await dropBenchStores(stores, app, server, config);

const latency = summarise(latencies);
const bins = reliability(calibration);
const ece = expectedCalibrationError(bins);
const md = [
  `Data: ${items.length} questions of ../shared/data/longmemeval/dev-sample.json, ${refOf.size} turns (one store per ` +
    `question); stored and embedded in ${seconds.toFixed(0)} s. ` +
    (fitted === 0
      ? 'None of these questions was fitted on (the calibration fits on the others).'
      : `${fitted} of these questions were fitted on by the calibration: only the default 30 are held out.`),
  '',
  markdownTable(
    ['ranking', 'turn @1', '@5', '@10', '@20', 'session @1', '@5', '@10', '@20'],
    [
      [
        'service (GraphQL search, all signals)',
        ...KS.map((k) => service.turn[k]!),
        ...KS.map((k) => service.session[k]!),
      ],
      ['plain BM25', ...KS.map((k) => bm25.turn[k]!), ...KS.map((k) => bm25.session[k]!)],
    ],
  ),
  '',
  `Search p50 ${latency.p50} ms, p95 ${latency.p95} ms: each question is the first search of its own store, which ` +
    "loads that store's vectors and text statistics.",
  '',
  `Confidence on these histories (each question's top 10 hits; label: an evidence turn): ${calibration.length} ` +
    `hits, expected calibration error ${ece}.`,
  '',
  markdownTable(RELIABILITY_HEADER, reliabilityRows(bins)),
].join('\n');
writeResults(
  'longmemeval',
  { questions: items.length, turns: refOf.size, service, bm25, latency, calibration: { ece, bins } },
  md,
);
