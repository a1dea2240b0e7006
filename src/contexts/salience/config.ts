/**
 * Salience's settings: rates, boosts, the floor and the tier thresholds, with
 * the defaults docs/salience.md explains. Times are milliseconds; scores are in [0,1].
 */
import type { Tier } from '../../domain/index.js';

export type DecayingTier = Exclude<Tier, 'IDENTITY_CORE'>;

export interface TierThresholds {
  /** LONG_TERM → ACTIVE_CONTEXT when the score rises above this. */
  readonly promoteToActive: number;
  /** ACTIVE_CONTEXT → LONG_TERM when the score falls below this. */
  readonly demoteFromActive: number;
  /** ARCHIVE → LONG_TERM when the score rises above this. */
  readonly promoteFromArchive: number;
  /** LONG_TERM → ARCHIVE when the score falls below this. */
  readonly demoteToArchive: number;
}

export interface SalienceConfig {
  /** Half-life of the part of the score above the floor (IDENTITY_CORE does not decay). */
  readonly halfLifeMs: Readonly<Record<DecayingTier, number>>;
  /** A claimed memory's half-life is this many times longer. */
  readonly claimFactor: number;
  /** Half-life multiplier per use, on a log scale: × (1 + useStability · ln(1 + uses)). */
  readonly useStability: number;
  /** Each access closes this share of the gap between the score and 1. */
  readonly accessBoost: number;
  /** A claim closes this share of the gap. */
  readonly claimBoost: number;
  /** No memory's score ever falls below this (Recall can still surface an old strong match). */
  readonly floor: number;
  /** The score a memory starts with in its tier. */
  readonly start: Readonly<Record<DecayingTier, number>>;
  readonly thresholds: TierThresholds;
  /** Memories per sweep batch (one read, one write transaction, one tier-change request). */
  readonly sweepBatch: number;
  /** Sweep batches in flight at once, over ranges that do not overlap (Neo4j runs each statement on one core). */
  readonly sweepLanes: number;
  /** A sweep rewrites the materialised score only when it moved at least this much. */
  readonly sweepEpsilon: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const DEFAULT_SALIENCE: SalienceConfig = {
  halfLifeMs: { ACTIVE_CONTEXT: 2 * HOUR, LONG_TERM: 30 * DAY, ARCHIVE: 365 * DAY },
  claimFactor: 4,
  useStability: 0.5,
  accessBoost: 0.2,
  claimBoost: 0.3,
  floor: 0.1,
  start: { ACTIVE_CONTEXT: 1, LONG_TERM: 0.6, ARCHIVE: 0.3 },
  thresholds: { promoteToActive: 0.75, demoteFromActive: 0.35, promoteFromArchive: 0.5, demoteToArchive: 0.2 },
  sweepBatch: 10_000,
  sweepLanes: 2,
  sweepEpsilon: 0.001,
};

/**
 * The orderings the model needs (docs/salience.md, "Hysteresis"): each tier is a
 * band, a memory entering a band lands inside it, and the bands overlap so a
 * memory that just crossed a threshold is far from the one that would send it back.
 * Returns the problems found (empty when the settings are usable).
 */
export function salienceConfigProblems(c: SalienceConfig): string[] {
  const t = c.thresholds;
  const problems: string[] = [];
  const check = (ok: boolean, text: string) => void (ok || problems.push(text));
  check(c.floor >= 0 && c.floor < t.demoteToArchive, 'floor must be at least 0 and below demoteToArchive');
  check(
    t.demoteToArchive < t.promoteFromArchive,
    'demoteToArchive must be below promoteFromArchive (the gap is the hysteresis)',
  );
  check(
    t.demoteFromActive < t.promoteToActive,
    'demoteFromActive must be below promoteToActive (the gap is the hysteresis)',
  );
  check(t.demoteToArchive < t.demoteFromActive, 'demoteToArchive must be below demoteFromActive');
  check(t.promoteFromArchive < t.promoteToActive, 'promoteFromArchive must be below promoteToActive');
  check(t.promoteToActive <= 1, 'promoteToActive must be at most 1');
  check(
    c.start.ACTIVE_CONTEXT > t.demoteFromActive && c.start.ACTIVE_CONTEXT <= 1,
    'start.ACTIVE_CONTEXT must lie above demoteFromActive',
  );
  check(
    c.start.LONG_TERM > t.demoteToArchive && c.start.LONG_TERM < t.promoteToActive,
    'start.LONG_TERM must lie between demoteToArchive and promoteToActive',
  );
  check(
    c.start.ARCHIVE >= c.floor && c.start.ARCHIVE < t.promoteFromArchive,
    'start.ARCHIVE must lie between the floor and promoteFromArchive',
  );
  for (const [tier, ms] of Object.entries(c.halfLifeMs))
    check(Number.isFinite(ms) && ms > 0, `halfLife ${tier} must be a positive duration`);
  check(c.claimFactor >= 1, 'claimFactor must be at least 1 (a claim never speeds decay)');
  check(c.useStability >= 0, 'useStability must not be negative');
  check(c.accessBoost > 0 && c.accessBoost < 1, 'accessBoost must lie in (0,1)');
  check(c.claimBoost >= 0 && c.claimBoost < 1, 'claimBoost must lie in [0,1)');
  check(Number.isInteger(c.sweepBatch) && c.sweepBatch > 0, 'sweepBatch must be a positive integer');
  check(
    Number.isInteger(c.sweepLanes) && c.sweepLanes >= 1 && c.sweepLanes <= 16,
    'sweepLanes must be an integer from 1 to 16',
  );
  check(c.sweepEpsilon >= 0 && c.sweepEpsilon < 0.1, 'sweepEpsilon must lie in [0,0.1)');
  return problems;
}

/** Every TOTAL_RECALL_SALIENCE_* variable, the setting it sets, and its unit (the README lists them). */
export const SALIENCE_ENV = {
  TOTAL_RECALL_SALIENCE_HALF_LIFE_ACTIVE_HOURS: 'halfLifeMs.ACTIVE_CONTEXT (hours)',
  TOTAL_RECALL_SALIENCE_HALF_LIFE_LONG_TERM_DAYS: 'halfLifeMs.LONG_TERM (days)',
  TOTAL_RECALL_SALIENCE_HALF_LIFE_ARCHIVE_DAYS: 'halfLifeMs.ARCHIVE (days)',
  TOTAL_RECALL_SALIENCE_CLAIM_FACTOR: 'claimFactor',
  TOTAL_RECALL_SALIENCE_USE_STABILITY: 'useStability',
  TOTAL_RECALL_SALIENCE_ACCESS_BOOST: 'accessBoost',
  TOTAL_RECALL_SALIENCE_CLAIM_BOOST: 'claimBoost',
  TOTAL_RECALL_SALIENCE_FLOOR: 'floor',
  TOTAL_RECALL_SALIENCE_PROMOTE_TO_ACTIVE: 'thresholds.promoteToActive',
  TOTAL_RECALL_SALIENCE_DEMOTE_FROM_ACTIVE: 'thresholds.demoteFromActive',
  TOTAL_RECALL_SALIENCE_PROMOTE_FROM_ARCHIVE: 'thresholds.promoteFromArchive',
  TOTAL_RECALL_SALIENCE_DEMOTE_TO_ARCHIVE: 'thresholds.demoteToArchive',
  TOTAL_RECALL_SWEEP_BATCH: 'sweepBatch',
  TOTAL_RECALL_SWEEP_LANES: 'sweepLanes',
  TOTAL_RECALL_SWEEP_EPSILON: 'sweepEpsilon',
} as const;

type SalienceEnv = keyof typeof SALIENCE_ENV;

/** Reads the settings from the environment over the defaults; refuses settings the model cannot use. */
export function salienceConfigFromEnv(env: NodeJS.ProcessEnv, base: SalienceConfig = DEFAULT_SALIENCE): SalienceConfig {
  const read = (name: SalienceEnv, fallback: number, unit = 1): number => {
    const raw = env[name];
    const value = raw === undefined || raw === '' ? fallback : Number(raw);
    if (!Number.isFinite(value)) throw new Error(`${name} must be a number, got "${raw}"`);
    return value * unit;
  };
  const h = base.halfLifeMs;
  const t = base.thresholds;
  const config: SalienceConfig = {
    ...base,
    halfLifeMs: {
      ACTIVE_CONTEXT: read('TOTAL_RECALL_SALIENCE_HALF_LIFE_ACTIVE_HOURS', h.ACTIVE_CONTEXT / HOUR, HOUR),
      LONG_TERM: read('TOTAL_RECALL_SALIENCE_HALF_LIFE_LONG_TERM_DAYS', h.LONG_TERM / DAY, DAY),
      ARCHIVE: read('TOTAL_RECALL_SALIENCE_HALF_LIFE_ARCHIVE_DAYS', h.ARCHIVE / DAY, DAY),
    },
    claimFactor: read('TOTAL_RECALL_SALIENCE_CLAIM_FACTOR', base.claimFactor),
    useStability: read('TOTAL_RECALL_SALIENCE_USE_STABILITY', base.useStability),
    accessBoost: read('TOTAL_RECALL_SALIENCE_ACCESS_BOOST', base.accessBoost),
    claimBoost: read('TOTAL_RECALL_SALIENCE_CLAIM_BOOST', base.claimBoost),
    floor: read('TOTAL_RECALL_SALIENCE_FLOOR', base.floor),
    thresholds: {
      promoteToActive: read('TOTAL_RECALL_SALIENCE_PROMOTE_TO_ACTIVE', t.promoteToActive),
      demoteFromActive: read('TOTAL_RECALL_SALIENCE_DEMOTE_FROM_ACTIVE', t.demoteFromActive),
      promoteFromArchive: read('TOTAL_RECALL_SALIENCE_PROMOTE_FROM_ARCHIVE', t.promoteFromArchive),
      demoteToArchive: read('TOTAL_RECALL_SALIENCE_DEMOTE_TO_ARCHIVE', t.demoteToArchive),
    },
    sweepBatch: read('TOTAL_RECALL_SWEEP_BATCH', base.sweepBatch),
    sweepLanes: read('TOTAL_RECALL_SWEEP_LANES', base.sweepLanes),
    sweepEpsilon: read('TOTAL_RECALL_SWEEP_EPSILON', base.sweepEpsilon),
  };
  const problems = salienceConfigProblems(config);
  if (problems.length > 0) throw new Error(`salience settings: ${problems.join('; ')}`);
  return config;
}
