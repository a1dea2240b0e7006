/**
 * The decay sweep: walks the memories (of one store, or all) in id order, in
 * batches. One statement per batch decays every memory with nothing new to
 * fold in (the common case) where it lies; the few with a use, claim or tier
 * change to fold in, or a score calling for a tier change, come back and are
 * scored here, written, and their tier changes asked of Hippocampus — all
 * before the cursor moves past the batch, so a sweep that crashed resumes after
 * its last finished batch. Re-running a batch is harmless: the score at `now`
 * depends only on the node.
 */
import { message, type Bus, type DecaySweep } from '../../domain/index.js';
import type { GraphPort } from '../../adapters/neo4j/index.js';
import type { SalienceConfig } from './config.js';
import { Q } from './cypher.js';
import { toLevel } from './model.js';
import { planBatch } from './plan.js';
import { applyPlan } from './apply.js';
import { toScoringRow } from './rows.js';

export interface SweepReport {
  readonly store: string | null;
  readonly now: number;
  readonly scanned: number;
  /** Memories whose materialised score or anchor was written. */
  readonly updated: number;
  readonly promoted: number;
  readonly demoted: number;
  readonly batches: number;
  /** This run took over from an earlier run of the same sweep that stopped part-way. */
  readonly resumed: boolean;
  readonly ms: number;
}

export interface SweepDeps {
  readonly graph: GraphPort;
  readonly bus: Bus;
  readonly config: SalienceConfig;
  readonly clock: () => number;
}

interface Progress {
  readonly after: string;
  readonly scanned: number;
  readonly updated: number;
  readonly promoted: number;
  readonly demoted: number;
  readonly batches: number;
}

interface BatchResult {
  readonly scanned: number;
  readonly last: string | null;
  readonly written: number;
  readonly pending: Record<string, unknown>[];
}

/** Batches whose stragglers may be in hand at once (two cores: one decaying, one writing). */
const PIPELINE = 2;

const START: Progress = { after: '', scanned: 0, updated: 0, promoted: 0, demoted: 0, batches: 0 };
const int = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** The model's settings as the batch statement reads them ($model). */
export function modelParams(c: SalienceConfig): Record<string, unknown> {
  const start = Object.fromEntries(Object.entries(c.start).map(([tier, score]) => [tier, toLevel(score, c)]));
  return {
    floor: c.floor,
    start,
    halfLife: c.halfLifeMs,
    claimFactor: c.claimFactor,
    useStability: c.useStability,
    accessBoost: c.accessBoost,
    claimBoost: c.claimBoost,
    epsilon: c.sweepEpsilon,
    ...c.thresholds,
  };
}

export async function runSweep(deps: SweepDeps, command: DecaySweep): Promise<SweepReport> {
  const started = performance.now();
  const { graph, bus, config } = deps;
  const { store, now } = command.data;
  const key = store ?? '*';
  const save = (p: Progress, done: boolean) => graph.write(Q.writeSweepCursor, { key, store, now, ...p, done, at: deps.clock() });

  const [cursor] = await graph.read<{ cursor: Record<string, unknown> }>(Q.readSweepCursor, { key });
  // Only the same sweep (same scope, same `now`) resumes; any other starts afresh.
  const resumed = cursor !== undefined && cursor.cursor.done === false && cursor.cursor.now === now;
  let progress: Progress = START;
  if (resumed) {
    const c = cursor.cursor;
    progress = { after: String(c.after), scanned: int(c.scanned), updated: int(c.updated), promoted: int(c.promoted), demoted: int(c.demoted), batches: int(c.batches) };
  } else await save(START, false);

  const model = modelParams(config);
  const limit = config.sweepBatch;
  const batch = async (after: string): Promise<BatchResult> => {
    const rows =
      store === null
        ? await graph.write<BatchResult & Record<string, unknown>>(Q.sweepBatch, { after, limit, now, model })
        : await graph.write<BatchResult & Record<string, unknown>>(Q.sweepBatchInStore, { store, after, limit, now, model });
    return rows[0] ?? { scanned: 0, last: null, written: 0, pending: [] };
  };
  // A batch's stragglers are handled while the next batches decay; the cursor
  // still moves in order, each step only once every batch before it is done.
  let next = batch(progress.after);
  let committed: Promise<void> = Promise.resolve();
  const inFlight: Promise<void>[] = [];
  let failed = false;
  try {
    for (;;) {
      const done = await next;
      if (done.scanned === 0 || done.last === null || failed) break;
      next = done.scanned < limit ? Promise.resolve({ scanned: 0, last: null, written: 0, pending: [] }) : batch(done.last);
      next.catch(() => undefined); // awaited on the next turn; a failure must not go unhandled meanwhile
      const applying = applyPlan(graph, bus, planBatch(done.pending.map(toScoringRow), now, config), now, command.meta);
      const before = committed;
      committed = (async () => {
        const applied = await applying;
        await before;
        for (const m of applied.moved) {
          bus.publish(message('SalienceScored', { id: m.id, store: m.store, salience: m.salience, at: now }, 'salience', { cause: command.meta }));
        }
        progress = {
          after: done.last as string,
          scanned: progress.scanned + done.scanned,
          updated: progress.updated + done.written + applied.updated,
          promoted: progress.promoted + applied.promoted,
          demoted: progress.demoted + applied.demoted,
          batches: progress.batches + 1,
        };
        await save(progress, false);
      })();
      committed.catch(() => void (failed = true)); // start no further batch once one failed
      inFlight.push(committed);
      if (inFlight.length >= PIPELINE) await inFlight.shift();
    }
    await committed;
  } catch (error) {
    // Nothing keeps writing after a failed sweep: let what started settle, then fail.
    await Promise.allSettled([next, ...inFlight]);
    throw error;
  }
  await save(progress, true);
  const { after: _after, ...counts } = progress;
  return { store, now, ...counts, resumed, ms: Math.round(performance.now() - started) };
}
