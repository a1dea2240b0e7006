// The two logistic confidence models: their features, the balanced fit, and writing them into the source.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Calibration, Calibrations } from '../../src/contexts/recall/index.js';
import { DIRECT_FEATURES, directFeatures } from '../../src/contexts/recall/testing.js';
import { type Example, fitNonNegative, reliability } from '../calibrate.js';
import { BANDS, bandOf, type Row } from './ask.js';

export interface Labelled extends Example {
  band: string;
  source: string;
  group: string;
  split: string;
}
/** Each of a question's top hits as an example: its features, and whether it is an answer. */
export const examplesOf = (rows: readonly Row[], keyOf: ReadonlyMap<string, string>, limit = 10): Labelled[] =>
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

export const NAMES = ['bias', ...DIRECT_FEATURES, 'association'] as const;
export const toCalibration = (w: readonly number[], lexical: boolean): Calibration =>
  Object.fromEntries(
    NAMES.map((n, i) => [n, n === 'similarity' && lexical ? 0 : Math.round((w[i] ?? 0) * 1000) / 1000]),
  ) as unknown as Calibration;
export const predict = (c: Calibration, f: readonly number[]) => {
  const z = NAMES.reduce((s, n, i) => s + (i === 0 ? c.bias : (c[n] as number) * (f[i - 1] ?? 0)), 0);
  return 1 / (1 + Math.exp(-z));
};

/**
 * Every store-size band, and within it every source (LoCoMo, everyday),
 * carries the same total weight in the fit: otherwise the ~600-turn LoCoMo
 * stores, with fifty times the hits, decide alone what a hit in a store of
 * three memories is worth. Exact, person, date and association weights stay
 * non-negative (fitNonNegative).
 */
export function fitBalanced(examples: readonly Labelled[]): number[] {
  const cell = (e: Labelled) => `${e.band}/${e.source}`;
  const totals = new Map<string, number>();
  for (const e of examples) totals.set(cell(e), (totals.get(cell(e)) ?? 0) + 1);
  const evidence = ['exact', 'person', 'date', 'association'].map(
    (n) => NAMES.indexOf(n as (typeof NAMES)[number]) - 1,
  );
  return fitNonNegative(examples, evidence, 1e-3, (e) => 1 / totals.get(cell(e as Labelled))!);
}

const bandNames = BANDS.map(([lo, hi]) => bandOf(hi === Infinity ? lo : hi));
/** Reliability per store-size band. */
export const byBand = (xs: readonly Labelled[]) =>
  bandNames.map((band) => ({
    band,
    bins: reliability(xs.filter((e) => e.band === band)),
    n: xs.filter((e) => e.band === band).length,
  }));

/** Rewrites the two models in src/contexts/recall/calibration.ts. */
export function writeCalibration(calibrations: Calibrations): void {
  const path = new URL('../../src/contexts/recall/calibration.ts', import.meta.url);
  let text = readFileSync(path, 'utf8');
  for (const [name, c] of [
    ['FUSED_CALIBRATION', calibrations.fused],
    ['LEXICAL_CALIBRATION', calibrations.lexical],
  ] as const) {
    // One weight a line, each with its comma, as the formatter writes it.
    const literal = `{\n${NAMES.map((n) => `  ${n}: ${c[n]},\n`).join('')}}`;
    text = text.replace(
      new RegExp(`export const ${name}: Calibration = \\{[\\s\\S]*?\\};`),
      `export const ${name}: Calibration = ${literal};`,
    );
  }
  writeFileSync(path, text);
  console.log('calibration written to src/contexts/recall/calibration.ts');
}
