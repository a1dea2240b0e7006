/**
 * The Subconscious: the internal clock. It arms timers from what Cortex
 * publishes (ModeChanged, SessionEnded), schedules the periodic sweeps, and
 * decides what each job does when it fires: SweepDecay to Salience,
 * ConsolidateCommand to Hippocampus, SessionEnd (TIMEOUT) to Cortex,
 * BreakNotification and SessionAuditPrompt through the Notification Port.
 * It reads the graph but never writes it: every change goes to its owner.
 */
import {
  InvalidInputError,
  NotFoundError,
  assertNever,
  type Bus,
  type ModeChanged,
  type Notification,
  type SessionEnded,
  type WorkingMode,
  type ProgressBoard,
  type GraphPort,
  AUDIT_PROMPT,
} from '../../domain/index.js';
import { Q } from './cypher.js';
import { clusters, type Pair } from './clusters.js';
import {
  breakCheckApplies,
  breakDueAt,
  breakMessage,
  idleBefore,
  isQuiet,
  minutesInTask,
  nextBreakCheck,
} from './timers.js';
import {
  auditJobId,
  auditNotificationId,
  breakJobId,
  breakNotificationId,
  type BreakCheckData,
  type JobPort,
  type JobRun,
  type SessionAuditData,
} from './jobs.js';

/** Where notifications go: Cortex keeps them and delivers them (the Notification Port). */
export interface NotificationPort {
  deliver(notification: Notification, store: string | null): Promise<unknown>;
}

export interface SubconsciousSettings {
  readonly decaySweepMs: number;
  readonly consolidationMs: number;
  readonly quietMs: number;
  /** Synapse's THEMATIC text score (in [0,1]) from which two memories count as near-duplicates. */
  readonly consolidationMinSimilarity: number;
  readonly consolidationMaxClusters: number;
  readonly breakAfterMs: number;
  readonly sessionSweepMs: number;
  readonly sessionIdleMs: number;
  /** Period of the reconciliation (background work a crash lost, queued again). */
  readonly reconcileMs: number;
  /** Work younger than this may still be on its way in a live process: the reconciliation leaves it alone. */
  readonly reconcileGraceMs: number;
  /** Period of the background's full cold-storage export. */
  readonly coldStorageFullMs: number;
  /** Period of the background's cold-storage checkpoint. */
  readonly coldStorageCheckpointMs: number;
  /** Stores this process maintains; null = every store. */
  readonly scopeStores: readonly string[] | null;
}

/**
 * One kind of derived work the reconciliation checks (links, embeddings): it
 * finds memories stored before `before` whose work was never done and queues
 * it again, returning how many. Neo4j says what is missing, not the queue.
 */
export interface Reconciler {
  readonly name: string;
  run(before: number, stores: readonly string[] | null): Promise<number>;
}

export interface SubconsciousDeps {
  readonly bus: Bus;
  readonly graph: GraphPort;
  readonly jobs: JobPort;
  readonly notifications: NotificationPort;
  readonly settings: SubconsciousSettings;
  /**
   * The THEMATIC strength Synapse's mechanical linking gives two memories that share
   * `consolidationMinSimilarity` of their weighted terms: pairs at least this strong are near-duplicates.
   */
  readonly duplicateStrength: number;
  readonly reconcilers?: readonly Reconciler[];
  readonly clock?: () => number;
  /** Where consolidation runs report how many clusters they merged. */
  readonly progress?: ProgressBoard;
  /** Writes the periodic full cold-storage export (from the chain's files; none: the job does nothing). */
  readonly fullExport?: () => Promise<unknown>;
  /** Writes a checkpoint while the service runs, so a shutdown's delta stays small (none: the job does nothing). */
  readonly checkpoint?: () => Promise<unknown>;
}

/** How many candidate pairs or sessions one run looks at. */
const CANDIDATE_PAIRS = 2000;
const SWEEP_SESSIONS = 1000;
/** Ended sessions younger than this are left to their own audit job. */
const AUDIT_REPAIR_GRACE_MS = 60_000;
const AUDIT_REPAIR_WINDOW_MS = 7 * 24 * 3_600_000;
const MAX_CLUSTER = 8;

type SessionTimerRow = {
  id: string;
  instanceId: string;
  store: string;
  mode: WorkingMode;
  modeSince: number;
  task: string | null;
  open: boolean;
  lastActiveAt: number;
};

export class Subconscious {
  private readonly clock: () => number;

  constructor(private readonly deps: SubconsciousDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  /** Arms timers from Cortex's events; one instance's events in order. */
  register(): this {
    const byInstance = (m: { data: { instanceId: string } }) => `instance:${m.data.instanceId}`;
    this.deps.bus.subscribe('subconscious', 'ModeChanged', (m) => this.onModeChanged(m), byInstance);
    this.deps.bus.subscribe('subconscious', 'SessionEnded', (m) => this.onSessionEnded(m), byInstance);
    return this;
  }

  /** Creates (or updates) the periodic job schedulers. */
  async schedule(): Promise<void> {
    const s = this.deps.settings;
    await this.deps.jobs.every('decay-sweep', s.decaySweepMs);
    await this.deps.jobs.every('consolidation', s.consolidationMs);
    await this.deps.jobs.every('session-sweep', s.sessionSweepMs);
    await this.deps.jobs.every('reconcile', s.reconcileMs);
    await this.deps.jobs.every('cold-storage', s.coldStorageFullMs);
    if (s.coldStorageCheckpointMs > 0) await this.deps.jobs.every('cold-storage-checkpoint', s.coldStorageCheckpointMs);
  }

  /** What a job does when it fires (the worker calls this; a throw means retry). */
  run = async (job: JobRun): Promise<unknown> => {
    switch (job.kind) {
      case 'decay-sweep':
        return this.decaySweep(job);
      case 'consolidation':
        return this.consolidation();
      case 'session-sweep':
        return this.sessionSweep();
      case 'reconcile':
        return this.reconcile();
      case 'cold-storage':
        return this.deps.fullExport?.() ?? { skipped: 'no cold storage in this process' };
      case 'cold-storage-checkpoint':
        // A scheduler left in Redis by an earlier configuration finds checkpoints turned off.
        if (this.deps.settings.coldStorageCheckpointMs === 0) return { skipped: 'checkpoints are off' };
        return this.deps.checkpoint?.() ?? { skipped: 'no cold storage in this process' };
      case 'break-check':
        return this.breakCheck(job.data);
      case 'session-audit':
        return this.sessionAudit(job.data);
      default:
        return assertNever(job, 'job');
    }
  };

  // ── events ────────────────────────────────────────────────────────────────

  /** Entering TASK mode starts the break clock; any other ModeChanged makes pending checks stale. */
  private async onModeChanged(event: ModeChanged): Promise<void> {
    if (event.data.to !== 'TASK') return;
    const { sessionId, instanceId, at } = event.data;
    await this.armBreak({ sessionId, instanceId, modeSince: at, n: 1 });
  }

  /** A session's end triggers its audit at once (not a clock). */
  private async onSessionEnded(event: SessionEnded): Promise<void> {
    const { sessionId, instanceId } = event.data;
    await this.deps.jobs.add('session-audit', auditJobId(sessionId), { sessionId, instanceId }, 0);
  }

  private async armBreak(check: BreakCheckData): Promise<void> {
    const delay = Math.max(0, breakDueAt(check.modeSince, check.n, this.deps.settings.breakAfterMs) - this.clock());
    await this.deps.jobs.add('break-check', breakJobId(check), check, delay);
  }

  // ── jobs ──────────────────────────────────────────────────────────────────

  /**
   * Salience decays from timestamps, so a retried sweep changes nothing twice. Its first attempt keeps its `now`
   * with the job: a retry (or a stalled job taken over) then resumes the same sweep from its cursor, which sweep.ts
   * does only for the same `now`, instead of starting over.
   */
  private async decaySweep(job: Extract<JobRun, { kind: 'decay-sweep' }>): Promise<{ stores: (string | null)[] }> {
    const stores = this.deps.settings.scopeStores ?? [null];
    let now = job.data.now;
    if (now === undefined) {
      now = this.clock();
      await job.keepData({ now });
    }
    for (const store of stores)
      await this.deps.bus.ask(this.deps.bus.message('SweepDecay', { store, now }, 'subconscious'));
    return { stores: [...stores] };
  }

  /**
   * Consolidates near-duplicates in stores that have
   * been quiet for a while. Near-duplicates are pairs whose mechanical THEMATIC
   * link (Synapse's text-overlap measure, stored as a strength) says they share
   * at least the configured share of their weighted terms; the mind's own
   * semantic links say "related", not "the same", and are left alone. The
   * originals are kept (Hippocampus links them).
   * Consolidated originals are no longer candidates, so a retry does not
   * consolidate them twice.
   */
  private async consolidation(): Promise<{ consolidated: number; busyStores: number; skipped: number }> {
    const s = this.deps.settings;
    const rows = await this.deps.graph.read<{ store: string; a: string; b: string; strength: number }>(
      Q.consolidationCandidates,
      {
        minStrength: this.deps.duplicateStrength,
        stores: s.scopeStores,
        limit: CANDIDATE_PAIRS,
      },
    );
    const byStore = new Map<string, Pair[]>();
    for (const row of rows) byStore.set(row.store, [...(byStore.get(row.store) ?? []), row]);
    let consolidated = 0;
    let busyStores = 0;
    let skipped = 0;
    const tracked =
      rows.length > 0
        ? this.deps.progress?.start('consolidation', s.scopeStores?.join(',') ?? null, 'clusters')
        : undefined;
    try {
      for (const [store, pairs] of byStore) {
        if (!(await this.quiet(store))) {
          busyStores++;
          continue;
        }
        const found = clusters(pairs, MAX_CLUSTER);
        tracked?.update(
          consolidated + skipped,
          consolidated + skipped + Math.min(found.length, s.consolidationMaxClusters - consolidated),
        );
        for (const ids of found) {
          if (consolidated >= s.consolidationMaxClusters) break;
          try {
            await this.deps.bus.ask(
              this.deps.bus.message(
                'ConsolidateCommand',
                { ids, strategy: 'KEEP_NEWEST', content: null },
                'subconscious',
              ),
            );
            consolidated++;
          } catch (error) {
            // A refusal (a memory forgotten meanwhile, too large…) would refuse on every retry: skip it.
            if (!(error instanceof InvalidInputError || error instanceof NotFoundError)) throw error;
            skipped++;
          }
          tracked?.update(consolidated + skipped);
        }
      }
    } catch (error) {
      tracked?.fail();
      throw error;
    }
    tracked?.finish();
    return { consolidated, busyStores, skipped };
  }

  private async quiet(store: string): Promise<boolean> {
    const rows = await this.deps.graph.read<{ at: number }>(Q.storeLastActivity, { store });
    return isQuiet(rows[0]?.at ?? null, this.clock(), this.deps.settings.quietMs);
  }

  /**
   * Ends sessions idle past the configured time (cause TIMEOUT), re-arms the
   * break check of every open TASK session (a lost timer comes back), and
   * queues the audit of any ended session whose audit went missing (or failed for good: JobPort.add runs it again).
   */
  private async sessionSweep(): Promise<{ timedOut: number; armed: number; auditsRepaired: number }> {
    const s = this.deps.settings;
    const now = this.clock();
    const cutoff = idleBefore(now, s.sessionIdleMs);
    const open = await this.deps.graph.read<{
      id: string;
      instanceId: string;
      mode: WorkingMode;
      modeSince: number;
      lastActiveAt: number;
    }>(Q.openSessions, { stores: s.scopeStores, limit: SWEEP_SESSIONS });
    let timedOut = 0;
    let armed = 0;
    for (const session of open) {
      if (session.lastActiveAt < cutoff) {
        const ended = await this.deps.bus.ask(
          this.deps.bus.message(
            'SessionEnd',
            {
              instanceId: session.instanceId,
              cause: 'TIMEOUT',
              reason: `no activity for ${Math.round(s.sessionIdleMs / 60_000)} minutes`,
              guard: { sessionId: session.id, idleBefore: cutoff },
            },
            'subconscious',
            { instanceId: session.instanceId, sessionId: session.id },
          ),
        );
        if (ended) timedOut++;
      } else if (session.mode === 'TASK') {
        await this.armBreak(
          nextBreakCheck(
            { sessionId: session.id, instanceId: session.instanceId, modeSince: session.modeSince },
            now,
            s.breakAfterMs,
          ),
        );
        armed++;
      }
    }
    const missing = await this.deps.graph.read<{ id: string; instanceId: string }>(Q.unauditedSessions, {
      since: now - AUDIT_REPAIR_WINDOW_MS,
      until: now - AUDIT_REPAIR_GRACE_MS,
      stores: s.scopeStores,
      limit: SWEEP_SESSIONS,
    });
    for (const m of missing)
      await this.deps.jobs.add('session-audit', auditJobId(m.id), { sessionId: m.id, instanceId: m.instanceId }, 0);
    return { timedOut, armed, auditsRepaired: missing.length };
  }

  /**
   * Finds the memories a crash left without their background work (links,
   * embeddings) and queues it again. Runs at start and on a schedule; each
   * reconciler is tried even when another fails (the job then retries).
   */
  async reconcile(): Promise<Record<string, number>> {
    const s = this.deps.settings;
    const before = this.clock() - s.reconcileGraceMs;
    const done: Record<string, number> = {};
    const errors: string[] = [];
    for (const reconciler of this.deps.reconcilers ?? []) {
      try {
        done[reconciler.name] = await reconciler.run(before, s.scopeStores);
      } catch (error) {
        errors.push(`${reconciler.name}: ${(error as Error).message}`);
      }
    }
    if (errors.length > 0) throw new Error(`reconciliation failed (${errors.join('; ')})`);
    return done;
  }

  /** Notifies if the stretch in TASK mode still holds, then arms the next check. */
  private async breakCheck(check: BreakCheckData): Promise<{ notified: boolean }> {
    const rows = await this.deps.graph.read<SessionTimerRow>(Q.sessionTimer, { id: check.sessionId });
    const session = rows[0] ?? null;
    if (!session || !breakCheckApplies(session, check)) return { notified: false };
    const now = this.clock();
    // Idle past the timeout (a check run late, after workers were down): the mind is not at work, and the session
    // sweep ends the session (or, should it be active again by then, arms its next check).
    if (session.lastActiveAt < idleBefore(now, this.deps.settings.sessionIdleMs)) return { notified: false };
    // A check run late notifies once, for the time in TASK mode so far, and the next one is the first not yet due:
    // arming n + 1 would fire every missed check at once, each notifying.
    const breakAfterMs = this.deps.settings.breakAfterMs;
    const next = nextBreakCheck(check, now, breakAfterMs);
    const due = Math.max(check.n, next.n - 1);
    const minutes = minutesInTask({ ...check, n: due }, breakAfterMs);
    const notification = this.deps.bus.message(
      'BreakNotification',
      {
        instanceId: session.instanceId,
        sessionId: session.id,
        minutesInTask: minutes,
        message: breakMessage(minutes, session.task),
      },
      'subconscious',
      { instanceId: session.instanceId, sessionId: session.id, messageId: breakNotificationId(check) },
    );
    await this.deps.notifications.deliver(notification, session.store);
    await this.armBreak({ ...check, n: due + 1 });
    return { notified: true };
  }

  /** "Session ending. What do you refuse to lose?" with the session's unclaimed memories. */
  private async sessionAudit(audit: SessionAuditData): Promise<{ unclaimed: number }> {
    const rows = await this.deps.graph.read<{ store: string; instanceId: string; stored: number; unclaimed: string[] }>(
      Q.sessionAuditMemories,
      {
        sessionId: audit.sessionId,
        limit: 200,
      },
    );
    const row = rows[0];
    if (!row) return { unclaimed: 0 };
    const notification = this.deps.bus.message(
      'SessionAuditPrompt',
      { instanceId: row.instanceId, sessionId: audit.sessionId, prompt: AUDIT_PROMPT, unclaimedIds: row.unclaimed },
      'subconscious',
      { instanceId: row.instanceId, sessionId: audit.sessionId, messageId: auditNotificationId(audit.sessionId) },
    );
    await this.deps.notifications.deliver(notification, row.store);
    return { unclaimed: row.unclaimed.length };
  }
}
