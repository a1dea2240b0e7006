/**
 * Salience, the actor: keeps each memory's score — its own `salience*`
 * properties, nothing else — and asks Hippocampus for tier changes. It rescores
 * a memory when something happens to it, demotes a session's working memory
 * when the session ends, and runs decay sweeps on request (SweepDecay).
 */
import type {
  Bus,
  SweepDecay,
  MemoryUsed,
  OutcomeReported,
  Meta,
  SessionEnded,
  Tier,
  TierChanged,
  GraphPort,
  ProgressBoard,
} from '../../domain/index.js';
import type { SalienceConfig } from './config.js';
import { Q } from './cypher.js';
import { planBatch, type PlanOptions } from './plan.js';
import { applyPlan, type Applied } from './apply.js';
import { toScoringRow, type ScoringRow } from './rows.js';
import { runSweep, type SweepReport } from './sweep.js';
import { USEFULNESS_STEPS } from './usefulness.js';

export interface SalienceDeps {
  readonly graph: GraphPort;
  readonly bus: Bus;
  readonly config: SalienceConfig;
  readonly clock?: () => number;
  readonly progress?: ProgressBoard;
}

export class Salience {
  private readonly graph: GraphPort;
  private readonly bus: Bus;
  private readonly config: SalienceConfig;
  private readonly clock: () => number;
  private readonly progress: ProgressBoard | undefined;

  constructor(deps: SalienceDeps) {
    this.graph = deps.graph;
    this.bus = deps.bus;
    this.config = deps.config;
    this.clock = deps.clock ?? Date.now;
    this.progress = deps.progress;
  }

  /** Puts the handlers on the bus; what concerns one memory keeps its order. */
  register(): this {
    const bus = this.bus;
    bus.handle(
      'salience',
      'SweepDecay',
      (m) => this.sweep(m),
      (m) => `sweep:${m.data.store ?? '*'}`,
    );
    bus.subscribe(
      'salience',
      'MemoryAccessed',
      (e) => this.rescore([e.data.id], e.meta).then(() => undefined),
      (e) => e.data.id,
    );
    bus.subscribe(
      'salience',
      'MemoryClaimed',
      (e) => this.rescore([e.data.id], e.meta).then(() => undefined),
      (e) => e.data.id,
    );
    bus.subscribe(
      'salience',
      'MemoryUsed',
      (e) => this.used(e),
      (e) => `use:${e.data.useId}`,
    );
    bus.subscribe(
      'salience',
      'OutcomeReported',
      (e) => this.outcome(e),
      (e) => `use:${e.data.useId}`,
    );
    bus.subscribe(
      'salience',
      'TierChanged',
      (e) => this.tierChanged(e),
      (e) => e.data.id,
    );
    bus.subscribe(
      'salience',
      'SessionEnded',
      (e) => this.sessionEnded(e).then(() => undefined),
      (e) => `session:${e.data.sessionId}`,
    );
    return this;
  }

  sweep(command: SweepDecay): Promise<SweepReport> {
    return runSweep(
      { graph: this.graph, bus: this.bus, config: this.config, clock: this.clock, progress: this.progress },
      command,
    );
  }

  /** A `markUsed` report is a use of each memory it names, like a read. */
  private async used(event: MemoryUsed): Promise<void> {
    const { memoryIds, useId } = event.data;
    if (memoryIds.length === 0) return;
    await this.graph.write(Q.recordMarkedUse, { ids: memoryIds, useId, now: event.meta.timestamp });
    await this.rescore(memoryIds, event.meta);
  }

  /** How a use went moves the used memories' usefulness (usefulness.ts), once per report. */
  private async outcome(event: OutcomeReported): Promise<void> {
    const { memoryIds, store, outcome } = event.data;
    if (memoryIds.length === 0) return;
    const { up, down } = USEFULNESS_STEPS[outcome];
    await this.graph.write(Q.applyOutcome, { eventId: event.meta.messageId, store, ids: memoryIds, up, down });
  }

  /** The mind moved a memory: fold the move in now, while the tier it came from is known. */
  private async tierChanged(event: TierChanged): Promise<void> {
    if (event.data.by === 'SALIENCE') return; // asked for by a sweep or a rescore, which kept the anchor
    await this.rescore([event.data.id], event.meta, {
      fromTier: new Map<string, Tier>([[event.data.id, event.data.from]]),
    });
  }

  /** The working memory of an ended session moves down to LONG_TERM unless claimed. */
  async sessionEnded(event: SessionEnded): Promise<Applied> {
    const { store, sessionId } = event.data;
    const rows = (await this.graph.read(Q.readSessionWorkingMemory, { store, sessionId })).map(toScoringRow);
    return this.apply(rows, event.meta, { sessionEnded: true });
  }

  /**
   * Folds what happened to these memories into their anchors, writes their
   * scores, and asks for the tier changes the scores call for.
   */
  async rescore(ids: readonly string[], cause: Meta, options: Omit<PlanOptions, 'always'> = {}): Promise<Applied> {
    const rows = (await this.graph.read(Q.readScoringInputs, { ids })).map(toScoringRow);
    // IDENTITY_CORE does not decay: only a tier change concerns it.
    return this.apply(
      rows.filter((r) => r.tier !== 'IDENTITY_CORE' || options.fromTier?.has(r.id)),
      cause,
      options,
    );
  }

  private async apply(rows: readonly ScoringRow[], cause: Meta, options: PlanOptions): Promise<Applied> {
    const now = this.clock();
    const plan = planBatch(rows, now, this.config, { ...options, always: true });
    return applyPlan(this.graph, this.bus, plan, now, cause);
  }
}
