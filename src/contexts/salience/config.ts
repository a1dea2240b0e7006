/**
 * Salience's settings: rates, boosts, the floor and the tier thresholds, with
 * the defaults docs/salience.md explains. Times are milliseconds; scores are in [0,1].
 */
import { ConfigError, settings, type Tier } from '../../domain/index.js';

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

/** Salience's settings: one variable each (the README's table is generated from this). */
export const SALIENCE_SETTINGS = {
  halfLifeActive: settings.decimal('TOTAL_RECALL_SALIENCE_HALF_LIFE_ACTIVE_HOURS', {
    default: DEFAULT_SALIENCE.halfLifeMs.ACTIVE_CONTEXT / HOUR,
    min: 0,
    above: true,
    unit: 'hours',
    scale: HOUR,
    description:
      "half-life of an ACTIVE_CONTEXT memory's score above the floor ([docs/salience.md](docs/salience.md); " +
      'IDENTITY_CORE does not decay)',
  }),
  halfLifeLongTerm: settings.decimal('TOTAL_RECALL_SALIENCE_HALF_LIFE_LONG_TERM_DAYS', {
    default: DEFAULT_SALIENCE.halfLifeMs.LONG_TERM / DAY,
    min: 0,
    above: true,
    unit: 'days',
    scale: DAY,
    description: 'half-life in LONG_TERM',
  }),
  halfLifeArchive: settings.decimal('TOTAL_RECALL_SALIENCE_HALF_LIFE_ARCHIVE_DAYS', {
    default: DEFAULT_SALIENCE.halfLifeMs.ARCHIVE / DAY,
    min: 0,
    above: true,
    unit: 'days',
    scale: DAY,
    description: 'half-life in ARCHIVE',
  }),
  claimFactor: settings.decimal('TOTAL_RECALL_SALIENCE_CLAIM_FACTOR', {
    default: DEFAULT_SALIENCE.claimFactor,
    min: 1,
    description: 'a claimed memory decays this many times slower',
  }),
  useStability: settings.decimal('TOTAL_RECALL_SALIENCE_USE_STABILITY', {
    default: DEFAULT_SALIENCE.useStability,
    min: 0,
    description: 'half-life × (1 + this · ln(1 + uses)): much-used memories fade slower',
  }),
  accessBoost: settings.decimal('TOTAL_RECALL_SALIENCE_ACCESS_BOOST', {
    default: DEFAULT_SALIENCE.accessBoost,
    min: 0,
    max: 1,
    above: true,
    below: true,
    description: 'share of the gap to 1 that a use (read by id, `markUsed`) closes',
  }),
  claimBoost: settings.decimal('TOTAL_RECALL_SALIENCE_CLAIM_BOOST', {
    default: DEFAULT_SALIENCE.claimBoost,
    min: 0,
    max: 1,
    below: true,
    description: 'share of the gap to 1 that a claim closes',
  }),
  floor: settings.decimal('TOTAL_RECALL_SALIENCE_FLOOR', {
    default: DEFAULT_SALIENCE.floor,
    min: 0,
    max: 1,
    below: true,
    description: 'no score falls below this, so age alone never hides a strong match',
  }),
  promoteToActive: settings.decimal('TOTAL_RECALL_SALIENCE_PROMOTE_TO_ACTIVE', {
    default: DEFAULT_SALIENCE.thresholds.promoteToActive,
    min: 0,
    max: 1,
    description: 'LONG_TERM → ACTIVE_CONTEXT above this score (the gap to the next one is the hysteresis)',
  }),
  demoteFromActive: settings.decimal('TOTAL_RECALL_SALIENCE_DEMOTE_FROM_ACTIVE', {
    default: DEFAULT_SALIENCE.thresholds.demoteFromActive,
    min: 0,
    max: 1,
    description: 'ACTIVE_CONTEXT → LONG_TERM below this score',
  }),
  promoteFromArchive: settings.decimal('TOTAL_RECALL_SALIENCE_PROMOTE_FROM_ARCHIVE', {
    default: DEFAULT_SALIENCE.thresholds.promoteFromArchive,
    min: 0,
    max: 1,
    description: 'ARCHIVE → LONG_TERM above this score',
  }),
  demoteToArchive: settings.decimal('TOTAL_RECALL_SALIENCE_DEMOTE_TO_ARCHIVE', {
    default: DEFAULT_SALIENCE.thresholds.demoteToArchive,
    min: 0,
    max: 1,
    description: 'LONG_TERM → ARCHIVE below this score',
  }),
  sweepBatch: settings.integer('TOTAL_RECALL_SWEEP_BATCH', {
    default: DEFAULT_SALIENCE.sweepBatch,
    unit: 'memories',
    description: 'memories per decay-sweep batch (one statement, one cursor step)',
  }),
  sweepLanes: settings.integer('TOTAL_RECALL_SWEEP_LANES', {
    default: DEFAULT_SALIENCE.sweepLanes,
    max: 16,
    description:
      'decay-sweep batches in flight at once, over id ranges that do not overlap (Neo4j runs each on one core)',
  }),
  sweepEpsilon: settings.decimal('TOTAL_RECALL_SWEEP_EPSILON', {
    default: DEFAULT_SALIENCE.sweepEpsilon,
    min: 0,
    max: 0.1,
    below: true,
    description: 'a sweep rewrites a stored score only when it moved at least this much',
  }),
} as const;

/** Reads the settings from the environment; refuses a bad value, and settings the model cannot use together. */
export function salienceConfigFromEnv(env: NodeJS.ProcessEnv): SalienceConfig {
  const s = settings.readSettings(SALIENCE_SETTINGS, env);
  const config: SalienceConfig = {
    halfLifeMs: { ACTIVE_CONTEXT: s.halfLifeActive, LONG_TERM: s.halfLifeLongTerm, ARCHIVE: s.halfLifeArchive },
    claimFactor: s.claimFactor,
    useStability: s.useStability,
    accessBoost: s.accessBoost,
    claimBoost: s.claimBoost,
    floor: s.floor,
    start: DEFAULT_SALIENCE.start,
    thresholds: {
      promoteToActive: s.promoteToActive,
      demoteFromActive: s.demoteFromActive,
      promoteFromArchive: s.promoteFromArchive,
      demoteToArchive: s.demoteToArchive,
    },
    sweepBatch: s.sweepBatch,
    sweepLanes: s.sweepLanes,
    sweepEpsilon: s.sweepEpsilon,
  };
  const problems = salienceConfigProblems(config);
  if (problems.length > 0) throw new ConfigError('CONFIG.SALIENCE', `salience settings: ${problems.join('; ')}`);
  return config;
}
