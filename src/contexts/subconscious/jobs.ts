/**
 * The Subconscious's background jobs as data: their kinds, what each carries,
 * their deterministic ids, and the job queue port an adapter (BullMQ)
 * implements. The timers are domain logic; the queue only keeps time.
 */
import { createHash } from 'node:crypto';

export const SCHEDULED_KINDS = [
  'decay-sweep',
  'consolidation',
  'session-sweep',
  'reconcile',
  'cold-storage',
  'cold-storage-checkpoint',
] as const;
export type ScheduledKind = (typeof SCHEDULED_KINDS)[number];
export const TIMER_KINDS = ['break-check', 'session-audit'] as const;
export type TimerKind = (typeof TIMER_KINDS)[number];
export const JOB_KINDS = [...SCHEDULED_KINDS, ...TIMER_KINDS] as const;
export type JobKind = ScheduledKind | TimerKind;

/** The n-th break check of one stretch in TASK mode that began at `modeSince`. */
export interface BreakCheckData {
  readonly sessionId: string;
  readonly instanceId: string;
  readonly modeSince: number;
  readonly n: number;
}

export interface SessionAuditData {
  readonly sessionId: string;
  readonly instanceId: string;
}

/** A decay sweep's moment, kept with its job by the first attempt (a scheduler's job starts without it). */
export interface DecaySweepData {
  readonly now?: number;
}

export type JobDataOf<K extends JobKind> = K extends 'break-check'
  ? BreakCheckData
  : K extends 'session-audit'
    ? SessionAuditData
    : K extends 'decay-sweep'
      ? DecaySweepData
      : Record<string, never>;

/** One run of a job as a worker hands it to the Subconscious. */
export type JobRun = {
  [K in JobKind]: {
    readonly kind: K;
    readonly id: string;
    readonly data: JobDataOf<K>;
    readonly attempt: number;
    readonly dueAt: number;
    /** Replaces the job's data in the queue: its next attempt (a retry, or a stalled job taken over) gets it. */
    readonly keepData: (data: JobDataOf<K>) => Promise<void>;
  };
}[JobKind];

export interface LastRun {
  readonly jobId: string;
  /** When it finished (epoch ms). */
  readonly at: number;
  readonly ok: boolean;
  readonly durationMs: number;
  /** How late it started after it fell due. */
  readonly lagMs: number;
  readonly error: string | null;
  readonly result: unknown;
}

export interface QueueStatus {
  readonly name: JobKind;
  readonly waiting: number;
  readonly active: number;
  readonly delayed: number;
  readonly failed: number;
  readonly completed: number;
  /** The every-ms of its job scheduler, for the scheduled kinds. */
  readonly everyMs: number | null;
  readonly lastRun: LastRun | null;
}

export interface DrainReport {
  /** Whether this process ran workers (and so waited for them). */
  readonly worked: boolean;
  /** Jobs that finished while draining. */
  readonly ran: number;
  /** Jobs still waiting or active when the drain ended (kept in Redis). */
  readonly left: number;
  /** Timers not due yet (kept in Redis; the next process runs them). */
  readonly delayed: number;
  readonly timedOut: boolean;
}

/** The job queue port (BullMQ in production). */
export interface JobPort {
  /** Creates or updates a repeating job; idempotent across processes. */
  every(kind: ScheduledKind, everyMs: number): Promise<void>;
  /** Adds a one-off job; a second add with the same id is a no-op, unless the first failed for good (it runs again). */
  add<K extends TimerKind>(kind: K, id: string, data: JobDataOf<K>, delayMs: number): Promise<void>;
  /** Runs every kind's jobs in this process. */
  work(run: (job: JobRun) => Promise<unknown>): Promise<void>;
  status(): Promise<QueueStatus[]>;
  /** Lets this process's workers finish what is due (up to the timeout), then stops them. */
  drain(timeoutMs: number): Promise<DrainReport>;
  close(): Promise<void>;
}

/** Ids go into Redis keys: anything outside a safe alphabet is hashed. */
function safe(part: string): string {
  return /^[A-Za-z0-9_.-]{1,120}$/.test(part) ? part : createHash('sha256').update(part).digest('hex').slice(0, 32);
}

export const breakJobId = (d: BreakCheckData): string => `break-${safe(d.sessionId)}-${d.modeSince}-${d.n}`;
export const auditJobId = (sessionId: string): string => `audit-${safe(sessionId)}`;
export const breakNotificationId = (d: BreakCheckData): string => `ntf-${breakJobId(d)}`;
export const auditNotificationId = (sessionId: string): string => `ntf-${auditJobId(sessionId)}`;
