// Asks every question of every store with `rankOnly` (the search without recording).
import type { Calibrations, RankedHit, Recall, Signals } from '../../src/contexts/recall/index.js';
import { ALL_SIGNALS } from '../../src/contexts/recall/testing.js';
import type { Asked, Plan } from './plans.js';

export const BANDS = [
  [1, 10],
  [11, 100],
  [101, 1000],
  [1001, Infinity],
] as const;
export const bandOf = (size: number) => {
  const b = BANDS.find(([lo, hi]) => size >= lo && size <= hi)!;
  return b[1] === Infinity ? `>${b[0] - 1}` : `${b[0]}–${b[1]}`;
};
export interface Row {
  plan: Plan;
  asked: Asked;
  hits: RankedHit[];
}
const NO_FILTERS = { tiers: null, from: null, to: null, tags: null, people: null, sessionId: null };
export const LEXICAL: Signals = { ...ALL_SIGNALS, semantic: false };

export type AskAll = (calibrations: Calibrations, signals: Signals, limit: number) => Promise<Row[]>;

export function asker(recall: Recall, plans: readonly Plan[], started: number): AskAll {
  return async (calibrations, signals, limit) => {
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
      `asked ${rows.length} questions (${signals.semantic ? 'with vectors' : 'lexical'}) at ` +
        `${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    return rows;
  };
}
