/**
 * Salience's tier changes, a sweep's batch at a time: Hippocampus checks
 * each against the written rules and decides.
 */
import {
  InvalidInputError,
  sortableId,
  type TierChange,
  type TierChangeBatch,
  type TierMove,
} from '../../domain/index.js';
import { Q } from './cypher.js';
import { checkTierChange } from './tier-rules.js';
import { auditParams, json, type WriteContext } from './write-context.js';

export type { TierMove } from '../../domain/index.js';

/**
 * A sweep's batch of tier changes: every change is checked against the rules
 * first (one refusal refuses the batch, nothing is written), then all run as
 * one statement with one TierChanged event each. Returns the changes applied;
 * a memory that moved meanwhile is skipped.
 */
export async function changeTiers(ctx: WriteContext, command: TierChangeBatch): Promise<TierMove[]> {
  const changes = command.data.changes;
  const ids = new Set(changes.map((c) => c.data.id));
  if (ids.size !== changes.length)
    throw new InvalidInputError('HIPPOCAMPUS.TIER_BATCH_DUPLICATE', 'a tier batch names a memory twice');
  for (const c of changes) {
    const verdict = checkTierChange(c.data.from, c.data.to, 'SALIENCE');
    if (!verdict.ok)
      throw new InvalidInputError(
        'HIPPOCAMPUS.TIER_RULE',
        `${c.type} ${c.data.id} ${c.data.from}→${c.data.to} refused: ${verdict.reason}`,
      );
  }
  if (changes.length === 0) return [];
  const now = ctx.clock();
  const planned = new Map(
    changes.map((c) => [c.data.id, { command: c, ...salienceTierChange(c, sortableId('evt', now)) }]),
  );
  const rows = await ctx.graph.write<{ id: string; tier: string; store: string }>(Q.changeTiers, {
    changes: [...planned.values()].map((p) => p.change),
    now,
    ...auditParams(command.meta),
  });
  return rows.flatMap((row) => {
    const done = planned.get(row.id);
    if (!done) return [];
    const { id, from, to } = done.command.data;
    ctx.bus.publish(
      ctx.bus.message(
        'TierChanged',
        { id, store: row.store, from, to, reason: done.reason, by: 'SALIENCE' },
        'hippocampus',
        { cause: done.command.meta, messageId: done.change.eventId },
      ),
    );
    return [{ id, store: row.store, from, to }];
  });
}

/** The change-tiers row and the reason kept in the trail for one of Salience's requests. */
function salienceTierChange(command: TierChange, eventId: string) {
  const { id, from, to, salience } = command.data;
  const reason =
    command.type === 'DemoteTier'
      ? command.data.reason
      : `salience ${salience.toFixed(3)} rose above the promotion threshold`;
  return { reason, change: { id, from, to, eventId, payload: json({ from, to, reason, by: 'SALIENCE', salience }) } };
}
