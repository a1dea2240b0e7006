// bench/results/calibration.{json,md,svg}: the models, their calibration per band, and what contextFor injects.
import { writeFileSync } from 'node:fs';
import { type Calibrations, DEFAULT_INJECT_FLOOR, DEFAULT_LIVE_FLOOR } from '../../src/contexts/recall/index.js';
import {
  expectedCalibrationError,
  RELIABILITY_HEADER,
  type reliability,
  reliabilityRows,
  reliabilitySvg,
} from '../calibrate.js';
import { markdownTable, writeResults } from '../lib.js';
import type { Measurements } from './measure.js';
import { type byBand, NAMES } from './model.js';
import type { Plan } from './plans.js';

/** What the run was: its stores and settings. */
export interface RunInfo {
  readonly plans: readonly Plan[];
  /** How many LoCoMo conversations, and the folder they came from. */
  readonly conversations: number;
  readonly dir: string;
  readonly stored: number;
  readonly quick: boolean;
  readonly fit: boolean;
  readonly rounds: number;
  readonly calibrations: Calibrations;
  readonly fitRounds: Record<string, unknown>[];
}

export function report(run: RunInfo, measured: Measurements): void {
  const { plans, conversations, dir, stored, quick, fit, rounds, calibrations, fitRounds } = run;
  const { fusedRows, fusedExamples, fusedBands, lexicalBands, heldout, cvBands } = measured;
  const { packFigures, locomoPack, locomoRecall, everydayRecall, historyRecall } = measured;
  const ece = (bins: ReturnType<typeof reliability>) => expectedCalibrationError(bins);
  const bandSection = (title: string, bands: ReturnType<typeof byBand>) => [
    `### ${title}`,
    markdownTable(
      ['band (memories in store)', 'hits', 'ECE'],
      bands.map((b) => [b.band, b.n, ece(b.bins)]),
    ),
    '',
    ...bands.flatMap((b) => [`Band ${b.band}:`, markdownTable(RELIABILITY_HEADER, reliabilityRows(b.bins)), '']),
  ];
  const sizes = plans.map((p) => p.inputs.length);
  const md = [
    `Stores: ${plans.length} (${plans.filter((p) => p.source === 'locomo').length} from the ${conversations} ` +
      `development LoCoMo conversations in ${dir.replace(/.*\/shared\//, '../shared/')}, ` +
      `${plans.filter((p) => p.source === 'everyday').length} everyday scenarios, ` +
      `${plans.filter((p) => p.source === 'longmemeval').length} LongMemEval histories that bench:longmemeval does ` +
      `not ask about), ${stored} memories, store sizes ` +
      `${Math.min(...sizes)}–${Math.max(...sizes)}. Questions asked: ` +
      `${fusedRows.length}${quick ? ' (--quick)' : ''}.`,
    "Each hit is one of a question's top 10 (`rankOnly`: the search without recording). Label: the hit is an " +
      'evidence turn (LoCoMo, LongMemEval) or the answering memory (everyday).',
    fit
      ? `Models refitted in this run (--fit) on the development data, ${rounds} round(s), each store-size band and ` +
        `each source weighted equally (fitBalanced).`
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
    `Held-out everyday scenarios (never fitted on): ${fusedExamples.filter((e) => e.split === 'heldout').length} ` +
      `hits, ECE ${ece(heldout)}.`,
    markdownTable(RELIABILITY_HEADER, reliabilityRows(heldout)),
    '',
    '## contextFor (default floors: inject ' +
      DEFAULT_INJECT_FLOOR +
      ', live ' +
      DEFAULT_LIVE_FLOOR +
      '; 400 tokens, 8 items)',
    markdownTable(
      [
        'everyday split',
        'answerable',
        'answer in pack',
        'of them, a detail of a long note',
        'in pack',
        'unanswerable',
        'pack empty',
      ],
      packFigures.map((f) => [
        f.split,
        f.answerable,
        f.answerInPack,
        f.byLongNote,
        f.longNoteInPack,
        f.unanswerable,
        f.packEmpty,
      ]),
    ),
    '',
    `LoCoMo, whole development conversations: ${locomoPack.questions} questions, an evidence turn in the pack for ` +
      `${locomoPack.evidenceInPack}, pack empty for ${locomoPack.packEmpty}. Ranking there (in process): ` +
      `${Object.entries(locomoRecall)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}.`,
    '',
    markdownTable(
      ['everyday split', 'answer first', 'answer in top 5'],
      everydayRecall.map((r) => [r.split, r.at1, r.at5]),
    ),
    '',
    `LongMemEval histories fitted on (an evidence turn in the top k): ${Object.entries(historyRecall)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}. The questions bench:longmemeval asks were never fitted on.`,
    '',
    '![reliability](calibration.svg)',
    '',
    '## Reliability per band',
    ...bandSection('Queries with a vector, fitted model', fusedBands),
    ...bandSection('Queries with a vector, leave-one-conversation-out (LoCoMo stores only)', cvBands),
    ...bandSection('Lexical-only queries (the model missing or off)', lexicalBands),
  ].join('\n');
  writeFileSync(
    new URL('../results/calibration.svg', import.meta.url),
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
      historyRecall,
    },
    md,
  );
}
