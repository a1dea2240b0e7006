/**
 * The timer rules (docs/architecture.md, Subconscious): when a break check falls due and
 * whether it still applies, when a session has been idle too long, when a
 * store is quiet enough to consolidate. Pure functions of times in epoch ms.
 */
import type { WorkingMode } from '../../domain/index.js';
import type { BreakCheckData } from './jobs.js';

export interface SessionTimerView {
  readonly open: boolean;
  readonly mode: WorkingMode;
  readonly modeSince: number;
}

/** The n-th check of a stretch in TASK mode falls due n thresholds after it began. */
export function breakDueAt(modeSince: number, n: number, breakAfterMs: number): number {
  return modeSince + n * breakAfterMs;
}

/** The first check of a stretch in TASK mode not yet due at `now` (the sweep re-arms with it). */
export function nextBreakCheck(
  session: { readonly sessionId: string; readonly instanceId: string; readonly modeSince: number },
  now: number,
  breakAfterMs: number,
): BreakCheckData {
  const n = Math.max(1, Math.floor((now - session.modeSince) / breakAfterMs) + 1);
  return { sessionId: session.sessionId, instanceId: session.instanceId, modeSince: session.modeSince, n };
}

/**
 * A break check notifies only if the session is still open and still in the
 * same stretch of TASK mode: any ModeChanged since (a new `modeSince`) resets
 * the break clock, so the check is stale.
 */
export function breakCheckApplies(session: SessionTimerView | null, check: BreakCheckData): boolean {
  if (session === null) return false;
  return session.open && session.mode === 'TASK' && session.modeSince === check.modeSince;
}

export function minutesInTask(check: BreakCheckData, breakAfterMs: number): number {
  return Math.round(((check.n * breakAfterMs) / 60_000) * 100) / 100;
}

export function breakMessage(minutes: number, task: string | null): string {
  const what = task ? ` on "${task}"` : '';
  return (
    `You have been in sustained task mode for ${minutes} minutes${what}. A short break may help; ignore this if ` +
    `you are in flow.`
  );
}

/** Sessions whose last activity is before this time have been idle too long. */
export function idleBefore(now: number, sessionIdleMs: number): number {
  return now - sessionIdleMs;
}

/** A store is quiet when nothing was recorded in it for `quietMs`. */
export function isQuiet(lastActivityAt: number | null, now: number, quietMs: number): boolean {
  return lastActivityAt === null || now - lastActivityAt >= quietMs;
}
