/**
 * The decay sweep: walks the memories (of one store, or all) in id order, in
 * batches over id ranges read ahead from the index. One statement per batch
 * decays every memory with nothing new to fold in (the common case) where it
 * lies; the few with a use, claim or tier change to fold in, or a score calling
 * for a tier change, come back and are scored here, written, and their tier
 * changes asked of Hippocampus. Up to `sweepLanes` batches are in hand at once
 * (Neo4j runs a statement on one core); the cursor still moves in id order,
 * past a batch only once it and every batch before it are done, so a sweep
 * that crashed resumes after its last finished batch. Re-running a batch is
 * harmless: the score at `now` depends only on the node.
 */
import type { Bus, SweepDecay, SweepReport, ProgressBoard, GraphPort, Statement } from '../../domain/index.js';
import type { SalienceConfig } from './config.js';
import { Q } from './cypher.js';
import { toLevel } from './model.js';
import { planBatch } from './plan.js';
import { applyPlan, type Applied } from './apply.js';
import { toScoringRow } from './rows.js';

export type { SweepReport } from '../../domain/index.js';

export interface SweepDeps {
  readonly graph: GraphPort;
  readonly bus: Bus;
  readonly config: SalienceConfig;
  readonly clock: () => number;
  /** Where the sweep reports how many memories it has scanned (health, the CLI). */
  readonly progress?: ProgressBoard;
}

interface Progress {
  readonly after: string;
  readonly scanned: number;
  readonly updated: number;
  readonly promoted: number;
  readonly demoted: number;
  readonly batches: number;
}

/** The memories with ids in (after, until]. */
interface Range {
  readonly after: string;
  readonly until: string;
}

interface BatchResult {
  readonly scanned: number;
  readonly written: number;
  readonly pending: Record<string, unknown>[];
}

/** The statements for a sweep of one store or of every store, and the parameter naming the store. */
interface Scope {
  readonly bounds: Statement;
  readonly batch: Statement;
  readonly params: { store?: string };
}

const scopeOf = (store: string | null): Scope =>
  store === null
    ? { bounds: Q.sweepBounds, batch: Q.sweepBatch, params: {} }
    : { bounds: Q.sweepBoundsInStore, batch: Q.sweepBatchInStore, params: { store } };

/** Batch ranges read from the index per lane in one go. */
const RANGES_PER_LANE = 4;

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

/**
 * The batch ranges after `after`, in id order, until the index has no more;
 * the next read is under way while the ranges of the last one are handed out.
 */
async function* batchRanges(
  graph: GraphPort,
  scope: Scope,
  after: string,
  config: SalienceConfig,
): AsyncGenerator<Range> {
  const read = async (from: string): Promise<string[]> => {
    const params = {
      ...scope.params,
      after: from,
      limit: config.sweepBatch,
      batches: config.sweepLanes * RANGES_PER_LANE,
    };
    const [row] = await graph.read<{ bounds: string[] }>(scope.bounds, params);
    return row?.bounds ?? [];
  };
  let ahead = read(after);
  try {
    for (;;) {
      const bounds = await ahead;
      if (bounds.length === 0) return;
      ahead = read(bounds[bounds.length - 1] as string);
      ahead.catch(() => undefined); // awaited on the next turn, or dropped if the sweep stops first
      for (const until of bounds) {
        yield { after, until };
        after = until;
      }
    }
  } finally {
    await ahead.catch(() => undefined);
  }
}

export async function runSweep(deps: SweepDeps, command: SweepDecay): Promise<SweepReport> {
  const started = performance.now();
  const { graph, bus, config } = deps;
  const { store, now } = command.data;
  const key = store ?? '*';
  const save = (p: Progress, done: boolean) =>
    graph.write(Q.writeSweepCursor, { key, store, now, ...p, done, at: deps.clock() });

  const [cursor] = await graph.read<{ cursor: Record<string, unknown> }>(Q.readSweepCursor, { key });
  // Only the same sweep (same scope, same `now`) resumes; any other starts afresh.
  const resumed = cursor !== undefined && cursor.cursor.done === false && cursor.cursor.now === now;
  let progress: Progress = START;
  if (resumed) {
    const c = cursor.cursor;
    progress = {
      after: String(c.after),
      scanned: int(c.scanned),
      updated: int(c.updated),
      promoted: int(c.promoted),
      demoted: int(c.demoted),
      batches: int(c.batches),
    };
  } else await save(START, false);

  const model = modelParams(config);
  const scope = scopeOf(store);
  const tracked = deps.progress?.start('sweep', store, 'memories scanned');
  tracked?.update(progress.scanned);
  /** One batch: decay what needs nothing else, then score, write and move the rest. */
  const sweepRange = async ({ after, until }: Range): Promise<{ done: BatchResult; applied: Applied }> => {
    const [row] = await graph.write<BatchResult & Record<string, unknown>>(scope.batch, {
      ...scope.params,
      after,
      until,
      now,
      model,
    });
    const done = row ?? { scanned: 0, written: 0, pending: [] };
    const applied = await applyPlan(
      graph,
      bus,
      planBatch(done.pending.map(toScoringRow), now, config),
      now,
      command.meta,
    );
    return { done, applied };
  };

  // Each batch's cursor step waits for the one before it, so the cursor never
  // passes a batch that is not finished.
  let committed: Promise<void> = Promise.resolve();
  const inFlight: Promise<void>[] = [];
  let failed = false;
  try {
    for await (const range of batchRanges(graph, scope, progress.after, config)) {
      if (failed) break;
      const work = sweepRange(range);
      work.catch(() => undefined); // awaited in the cursor step below
      const before = committed;
      committed = (async () => {
        const { done, applied } = await work;
        await before;
        progress = {
          after: range.until,
          scanned: progress.scanned + done.scanned,
          updated: progress.updated + done.written + applied.updated,
          promoted: progress.promoted + applied.promoted,
          demoted: progress.demoted + applied.demoted,
          batches: progress.batches + 1,
        };
        await save(progress, false);
        tracked?.update(progress.scanned);
      })();
      // start no further batch once one failed
      committed.catch(() => {
        failed = true;
      });
      inFlight.push(committed);
      if (inFlight.length >= config.sweepLanes) await inFlight.shift();
    }
    await committed;
  } catch (error) {
    // Nothing keeps writing after a failed sweep: let what started settle, then fail.
    await Promise.allSettled(inFlight);
    tracked?.fail();
    throw error;
  }
  await save(progress, true);
  tracked?.finish();
  const { after: _after, ...counts } = progress;
  return { store, now, ...counts, resumed, ms: Math.round(performance.now() - started) };
}
