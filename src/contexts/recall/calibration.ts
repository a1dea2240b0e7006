/**
 * Confidence calibration coefficients (a logistic model; see scoring.ts).
 * Fitted on the LoCoMo development conversations by
 * `npm run bench:locomo -- --calibrate`, which rewrites this file; the
 * reliability table it reports is in bench/results/locomo.md.
 */
export interface Calibration {
  readonly bias: number;
  readonly relevance: number;
  readonly coverage: number;
  readonly activation: number;
  readonly textScore: number;
}

export const CALIBRATION: Calibration = {
  bias: -5.7245,
  relevance: 1.7716,
  coverage: 1.9154,
  activation: 1.3776,
  textScore: 0.5825
};
