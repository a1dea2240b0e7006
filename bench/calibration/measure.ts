// The measurements: reliability per band, leave-one-conversation-out, what contextFor would inject, ranking.
import { type Calibrations, DEFAULT_INJECT_FLOOR, DEFAULT_LIVE_FLOOR } from '../../src/contexts/recall/index.js';
import { ALL_SIGNALS, longerThanAParagraph, pack } from '../../src/contexts/recall/testing.js';
import { reliability } from '../calibrate.js';
import type { Conversation } from '../locomo-data.js';
import { type AskAll, LEXICAL, type Row } from './ask.js';
import { byBand, examplesOf, fitBalanced, type Labelled, predict, toCalibration } from './model.js';
import type { Plan } from './plans.js';

export type Measurements = Awaited<ReturnType<typeof measure>>;

/** The answer is a note of more than a paragraph (breadth above 0), of which the question asks one detail. */
function isLongNote(plan: Plan, key: string): boolean {
  const input = plan.inputs.find((i) => i.key === key);
  return input !== undefined && longerThanAParagraph(input.content);
}

export async function measure(
  askAll: AskAll,
  calibrations: Calibrations,
  keyOf: ReadonlyMap<string, string>,
  conversations: readonly Conversation[],
) {
  const fusedRows = await askAll(calibrations, ALL_SIGNALS, 24);
  const lexicalRows = await askAll(calibrations, LEXICAL, 10);
  const fusedExamples = examplesOf(fusedRows, keyOf);
  const lexicalExamples = examplesOf(lexicalRows, keyOf);
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
    const byLongNote = answerable.filter((p) => p.asked.answers.some((a) => isLongNote(p.plan, a)));
    const none = every.filter((p) => p.asked.answers.length === 0);
    return {
      split,
      answerable: answerable.length,
      answerInPack: share(answerable.map((p) => p.inPack)),
      byLongNote: byLongNote.length,
      longNoteInPack: share(byLongNote.map((p) => p.inPack)),
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
  // The LongMemEval histories fitted on (bench:longmemeval reports the others).
  const historyRecall = Object.fromEntries(
    [1, 5, 10].map((k) => [`@${k}`, firstAt(fusedRows, k, (p) => p.source === 'longmemeval')]),
  );
  const everydayRecall = (['dev', 'heldout'] as const).map((split) => ({
    split,
    at1: firstAt(fusedRows, 1, (p) => p.source === 'everyday' && p.split === split),
    at5: firstAt(fusedRows, 5, (p) => p.source === 'everyday' && p.split === split),
  }));
  return {
    fusedRows,
    fusedExamples,
    fusedBands,
    lexicalBands,
    heldout,
    cvBands,
    packFigures,
    locomoPack,
    locomoRecall,
    everydayRecall,
    historyRecall,
  };
}
