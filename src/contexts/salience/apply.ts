/**
 * Carries out a batch plan: Salience's own properties in one transaction, then
 * the tier changes asked of Hippocampus in one request (Salience never writes
 * a tier).
 */
import {
  TIERS,
  type Bus,
  type Meta,
  type DemoteTier,
  type PromoteTier,
  type TierMove,
  type GraphPort,
} from '../../domain/index.js';
import { Q } from './cypher.js';
import type { BatchPlan, TierRequest } from './plan.js';

export interface Applied {
  /** Memories whose score or anchor was written. */
  readonly updated: number;
  readonly promoted: number;
  readonly demoted: number;
  /** The tier changes Hippocampus applied, with the score that caused each. */
  readonly moved: readonly (TierMove & { readonly salience: number })[];
}

export async function applyPlan(
  graph: GraphPort,
  bus: Bus,
  plan: BatchPlan,
  now: number,
  cause: Meta,
): Promise<Applied> {
  const updated =
    plan.scores.length + plan.anchors.length === 0
      ? 0
      : await graph.transaction(async (tx) => {
          const scores = plan.scores.length
            ? await tx.run<{ written: number }>(Q.writeScores, { rows: plan.scores, now })
            : [];
          const anchors = plan.anchors.length
            ? await tx.run<{ written: number }>(Q.writeAnchors, { rows: plan.anchors, now })
            : [];
          return (scores[0]?.written ?? 0) + (anchors[0]?.written ?? 0);
        });
  const moved: (TierMove & { readonly salience: number })[] = [];
  // One request per step: a memory falling two tiers moves once in each, as the rules want.
  let applied = new Set(plan.moves.map((m) => m.id));
  for (let step = 0; ; step++) {
    const round = plan.moves.filter((m) => m.step === step && applied.has(m.id));
    if (round.length === 0) break;
    const changes = round.map((move) => tierCommand(bus, move, cause));
    const done = await bus.ask(bus.message('TierChangeBatch', { changes }, 'salience', { cause }));
    const scores = new Map(round.map((r) => [r.id, r.salience]));
    for (const m of done) moved.push({ ...m, salience: scores.get(m.id) ?? 0 });
    applied = new Set(done.map((m) => m.id));
  }
  const promoted = moved.filter((m) => TIERS.indexOf(m.to) < TIERS.indexOf(m.from)).length;
  return { updated, promoted, demoted: moved.length - promoted, moved };
}

function tierCommand(bus: Bus, move: TierRequest, cause: Meta): PromoteTier | DemoteTier {
  const { id, from, to, salience, reason } = move;
  return move.kind === 'PROMOTE'
    ? bus.message('PromoteTier', { id, from, to, salience }, 'salience', { cause })
    : bus.message('DemoteTier', { id, from, to, salience, reason }, 'salience', { cause });
}
