/** How several memories become one; the service runs no language model. */
import { InvalidInputError, isJsonObject, type MemoryRecord, type MergeStrategy } from '../../domain/index.js';
import { mostPresent } from './tier-rules.js';
import { MAX_LABELS, MAX_METADATA_BYTES } from './validation.js';

/**
 * The most memories one consolidation merges: a few that say the same thing, not a store. It bounds the work of
 * one call, and keeps the originals' ids, sessions and times well within the consolidated memory's metadata limit.
 */
export const MAX_CONSOLIDATED = 32;

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

/**
 * The originals' labels in first-seen order, at most as many as a stored memory may have: when there are more,
 * those the most originals share (the first seen among equals), as they say most about the merged memory.
 */
function mergedLabels(lists: readonly (readonly string[])[]): string[] {
  const all = [...new Set(lists.flat())];
  if (all.length <= MAX_LABELS) return all;
  const shared = new Map(all.map((label) => [label, lists.filter((list) => list.includes(label)).length]));
  const kept = new Set([...all].sort((a, b) => shared.get(b)! - shared.get(a)!).slice(0, MAX_LABELS));
  return all.filter((label) => kept.has(label));
}
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
    tags: mergedLabels(sorted.map((m) => m.tags)),
    people: mergedLabels(sorted.map((m) => m.people)),
    emotions: mergedLabels(sorted.map((m) => m.emotions)),
    occurredAt: strategy === 'KEEP_NEWEST' ? newest.occurredAt : oldest.occurredAt,
    sessionId: sessions.size === 1 ? (oldest.sessionId ?? null) : null,
  };
}

/** The metadata keys consolidation writes (consolidatedMetadata). */
export const CONSOLIDATION_KEYS = ['consolidatedFrom', 'strategy', 'originals'] as const;

/**
 * The metadata a reclassify writes: the mind's replacement, but a consolidated
 * memory keeps the keys consolidation wrote (recall folds a consolidation and
 * its originals by them, and a client reads its originals' sessions and times
 * there). Metadata that is not an object cannot hold them and is refused.
 */
export function keepingConsolidation(replacement: unknown, current: unknown): unknown {
  if (!isJsonObject(current) || current.consolidatedFrom === undefined) return replacement;
  if (replacement === null || replacement === undefined) return replacement;
  if (!isJsonObject(replacement))
    throw new InvalidInputError(
      'HIPPOCAMPUS.INVALID_METADATA',
      'a consolidated memory keeps its originals in its metadata: the metadata must be a JSON object',
    );
  const kept = Object.fromEntries(CONSOLIDATION_KEYS.filter((k) => k in current).map((k) => [k, current[k]]));
  return { ...replacement, ...kept };
}

/**
 * A consolidated memory's metadata once one of its originals is forgotten:
 * that original's entry keeps its id, session and time but loses its
 * metadata, and says it was forgotten. Null when there is nothing to redact.
 */
export function withoutForgottenOriginal(metadata: unknown, id: string): Record<string, unknown> | null {
  if (!isJsonObject(metadata) || !Array.isArray(metadata.originals)) return null;
  let changed = false;
  const originals = metadata.originals.map((entry: unknown) => {
    if (!isJsonObject(entry) || entry.id !== id || entry.forgotten === true) return entry;
    changed = true;
    const { metadataOmitted: _omitted, ...rest } = entry;
    return { ...rest, metadata: null, forgotten: true };
  });
  return changed ? { ...metadata, originals } : null;
}

/**
 * What a consolidated memory keeps of its originals, in its metadata where a
 * client reads it: each original's id, session, time and own metadata (the
 * merged memory has one session and one time; the originals may have had many).
 * Within the metadata limit of any memory: the originals' own metadata, oldest
 * first, as long as it fits; the rest is marked `metadataOmitted` and stays on
 * the original (read through `consolidatedFrom`).
 */
export function consolidatedMetadata(
  originals: readonly MemoryRecord[],
  strategy: MergeStrategy,
): Record<string, unknown> {
  const sorted = [...originals].sort(chronological);
  const entry = (m: MemoryRecord, metadata: unknown) => ({
    id: m.id,
    sessionId: m.sessionId,
    occurredAt: new Date(m.occurredAt).toISOString(),
    metadata,
  });
  const omitted = (m: MemoryRecord) =>
    m.metadata == null ? entry(m, null) : { ...entry(m, null), metadataOmitted: true };
  const kept = sorted.map(omitted);
  const result = { consolidatedFrom: originals.map((m) => m.id), strategy, originals: kept };
  const fits = () => Buffer.byteLength(JSON.stringify(result), 'utf8') <= MAX_METADATA_BYTES;
  if (!fits())
    throw new InvalidInputError(
      'HIPPOCAMPUS.METADATA_TOO_LARGE',
      `the originals' ids and sessions alone take more than ${MAX_METADATA_BYTES} bytes of metadata`,
    );
  sorted.forEach((m, i) => {
    if (m.metadata == null) return;
    kept[i] = entry(m, m.metadata);
    if (!fits()) kept[i] = omitted(m);
  });
  return result;
}
