/**
 * What to write for a batch of scored memories, as data (pure, tested without
 * a database): the scores to materialise, the anchors to move, the tier
 * changes to ask Hippocampus for. Each write carries what the memory looked
 * like when scored, so the statement skips a memory that changed meanwhile.
 */
import { TIERS, type Tier } from '../../domain/index.js';
import type { SalienceConfig } from './config.js';
import { entryLevel, fold, scoreAt, toLevel, toScore } from './model.js';
import type { ScoringRow } from './rows.js';
import { decideTier } from './tier-decision.js';

export interface ScoreWrite {
  readonly id: string;
  readonly salience: number;
  // What the memory looked like when scored (the statement's guard).
  readonly tier: Tier;
  readonly claimed: boolean;
  readonly accessCount: number;
  readonly marked: number;
}

export interface AnchorWrite extends ScoreWrite {
  readonly level: number;
  readonly anchorAt: number;
  readonly anchorTier: Tier;
  readonly anchorUses: number;
  readonly anchorClaimed: boolean;
}

export interface TierRequest {
  readonly id: string;
  /** 0 for the first move of a memory, 1 for the next: Hippocampus moves one tier at a time. */
  readonly step: number;
  readonly kind: 'PROMOTE' | 'DEMOTE';
  readonly from: Tier;
  readonly to: Tier;
  readonly salience: number;
  readonly reason: string;
}

export interface BatchPlan {
  readonly scores: ScoreWrite[];
  readonly anchors: AnchorWrite[];
  readonly moves: TierRequest[];
  /** Every memory's score at `now`, by id. */
  readonly scored: Map<string, number>;
}

export interface PlanOptions {
  /** The memories' sessions have ended (SessionEnded). */
  readonly sessionEnded?: boolean;
  /** The tier each memory had before the mind's change, for memories with no anchor yet. */
  readonly fromTier?: ReadonlyMap<string, Tier>;
  /** Write the score even when it moved less than sweepEpsilon (event handlers). */
  readonly always?: boolean;
}

export function planBatch(
  rows: readonly ScoringRow[],
  now: number,
  c: SalienceConfig,
  options: PlanOptions = {},
): BatchPlan {
  const plan: BatchPlan = { scores: [], anchors: [], moves: [], scored: new Map() };
  for (const row of rows) {
    const fromTier = options.fromTier?.get(row.id);
    const { anchor, folded } = fold(row, now, c, fromTier);
    const salience = row.tier === 'IDENTITY_CORE' ? 1 : scoreAt(anchor, now, c);
    plan.scored.set(row.id, salience);
    const moves = settle(row, salience, c, options.sessionEnded === true);
    const unanchored = !row.salienceAnchor;
    // A memory about to move keeps the anchor it had, so the move folds in from the right tier.
    const moveAnchor = folded > 0 || (unanchored && (moves.length > 0 || fromTier !== undefined));
    const guard = {
      id: row.id,
      salience,
      tier: row.tier,
      claimed: row.claimed,
      accessCount: row.accessCount,
      marked: row.salienceUses?.count ?? 0,
    };
    if (moveAnchor) {
      plan.anchors.push({
        ...guard,
        level: anchor.level,
        anchorAt: anchor.at,
        anchorTier: anchor.tier,
        anchorUses: anchor.uses,
        anchorClaimed: anchor.claimed,
      });
    } else if (options.always || scoreMoved(row, salience, now, c)) {
      plan.scores.push(guard);
    }
    plan.moves.push(...moves);
  }
  return plan;
}

/**
 * The moves that bring a memory to a tier where it stays at `now`, one tier at
 * a time: after a long pause a working memory may fall through LONG_TERM into
 * ARCHIVE in one sweep, so that a second sweep at the same moment moves nothing.
 */
function settle(row: ScoringRow, salience: number, c: SalienceConfig, sessionEnded: boolean): TierRequest[] {
  const moves: TierRequest[] = [];
  let tier = row.tier;
  let score = salience;
  let level = toLevel(salience, c);
  for (let step = 0; step < TIERS.length; step++) {
    const decision = decideTier({ tier, score, claimed: row.claimed, sessionEnded }, c);
    if (decision.kind === 'STAY') break;
    moves.push({
      id: row.id,
      step,
      kind: decision.kind,
      from: tier,
      to: decision.to,
      salience: score,
      reason: decision.reason,
    });
    level = entryLevel(level, tier, decision.to, c);
    tier = decision.to;
    score = toScore(level, c);
  }
  return moves;
}

/** The materialised score is exact for its own time; rewrite it only when it moved enough. */
function scoreMoved(row: ScoringRow, salience: number, now: number, c: SalienceConfig): boolean {
  if (row.salience === null || row.salienceAt === null) return true;
  if (row.salienceAt > now) return false;
  const moved = Math.abs(row.salience - salience);
  return moved > 0 && moved >= c.sweepEpsilon;
}
