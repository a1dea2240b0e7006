/** How several memories become one; the service runs no language model. */
import { InvalidInputError, type MemoryRecord, type MergeStrategy } from '../../domain/index.js';
import { mostPresent } from './tier-rules.js';

export interface Consolidated {
  readonly content: string;
  readonly tier: MemoryRecord['tier'];
  readonly claimed: boolean;
  readonly tags: string[];
  readonly people: string[];
  readonly emotions: string[];
  readonly occurredAt: number;
  readonly sessionId: string | null;
}

const union = (lists: readonly (readonly string[])[]): string[] => [...new Set(lists.flat())];
const chronological = (a: MemoryRecord, b: MemoryRecord) => a.occurredAt - b.occurredAt || a.id.localeCompare(b.id);

/**
 * COMBINE joins the contents in time order; KEEP_NEWEST keeps the newest
 * content; SUMMARIZE takes the caller's text. Labels are the union, the tier the
 * most present of the originals, and the time the earliest (the newest for KEEP_NEWEST).
 */
export function consolidate(
  originals: readonly MemoryRecord[],
  strategy: MergeStrategy,
  summary: string | null,
): Consolidated {
  const sorted = [...originals].sort(chronological);
  const newest = sorted[sorted.length - 1] as MemoryRecord;
  const oldest = sorted[0] as MemoryRecord;
  let content: string;
  switch (strategy) {
    case 'COMBINE':
      content = sorted.map((m) => m.content).join('\n\n');
      break;
    case 'KEEP_NEWEST':
      content = newest.content;
      break;
    case 'SUMMARIZE':
      if (summary === null || summary.trim() === '') {
        throw new InvalidInputError('HIPPOCAMPUS.SUMMARY_REQUIRED', 'SUMMARIZE needs the summary text in `content`');
      }
      content = summary;
      break;
    default: {
      const never: never = strategy;
      throw new Error(`unknown strategy ${String(never)}`);
    }
  }
  const sessions = new Set(sorted.map((m) => m.sessionId));
  return {
    content,
    tier: mostPresent(sorted.map((m) => m.tier)),
    claimed: sorted.some((m) => m.claimed),
    tags: union(sorted.map((m) => m.tags)),
    people: union(sorted.map((m) => m.people)),
    emotions: union(sorted.map((m) => m.emotions)),
    occurredAt: strategy === 'KEEP_NEWEST' ? newest.occurredAt : oldest.occurredAt,
    sessionId: sessions.size === 1 ? (oldest.sessionId ?? null) : null,
  };
}

/**
 * What a consolidated memory keeps of its originals, in its metadata where a
 * client reads it: each original's id, session, time and own metadata (the
 * merged memory has one session and one time; the originals may have had many).
 */
export function consolidatedMetadata(
  originals: readonly MemoryRecord[],
  strategy: MergeStrategy,
): Record<string, unknown> {
  const sorted = [...originals].sort(chronological);
  return {
    consolidatedFrom: originals.map((m) => m.id),
    strategy,
    originals: sorted.map((m) => ({
      id: m.id,
      sessionId: m.sessionId,
      occurredAt: new Date(m.occurredAt).toISOString(),
      metadata: m.metadata ?? null,
    })),
  };
}
