/**
 * Salience: scores that fade with time and rise with use.
 * Until the full model lands (issue 5), the score is the tier's starting score
 * decayed exponentially from the last touch with the tier's half-life.
 */
import type { MemoryRecord, Tier } from '../../domain/index.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const START: Record<Tier, number> = { IDENTITY_CORE: 1, ACTIVE_CONTEXT: 0.8, LONG_TERM: 0.6, ARCHIVE: 0.3 };
const HALF_LIFE: Record<Tier, number> = { IDENTITY_CORE: Infinity, ACTIVE_CONTEXT: 6 * HOUR, LONG_TERM: 60 * DAY, ARCHIVE: 365 * DAY };

export function currentSalience(memory: MemoryRecord, now: number): number {
  const base = memory.salience ?? START[memory.tier];
  const since = memory.salienceAt ?? Math.max(memory.createdAt, memory.lastAccessedAt ?? 0);
  const age = Math.max(0, now - since);
  const halfLife = HALF_LIFE[memory.tier] * (memory.claimed ? 4 : 1);
  return Number.isFinite(halfLife) ? base * 0.5 ** (age / halfLife) : base;
}
