/**
 * The memory record as statements return it: plain values (times already
 * epoch ms, as the graph port delivers them) turned into a MemoryRecord.
 * Hippocampus writes memories; Recall and others read them with these.
 */
import { parseJsonText } from './json.js';
import { salienceAnchorOf, salienceUsesOf, type MemoryEventRecord, type MemoryRecord } from './memory.js';
import { isTier, type Tier } from './tiers.js';

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

const parseJson = parseJsonText;

/**
 * The Memory node properties a MemoryRecord is read from: statements on
 * Recall's hot path and the store statement project exactly these (never the
 * embedding).
 */
export const MEMORY_RECORD_PROPERTIES = [
  'id',
  'store',
  'content',
  'tier',
  'claimed',
  'tags',
  'people',
  'emotions',
  'metadata',
  'occurredAt',
  'createdAt',
  'lastAccessedAt',
  'accessCount',
  'sessionId',
  'claimedAt',
  'tierChangedAt',
  'salience',
  'salienceAt',
  'salienceAnchor',
  'salienceAnchorAt',
  'salienceAnchorTier',
  'salienceAnchorUses',
  'salienceAnchorClaimed',
  'salienceUses',
  'salienceUsedAt',
  'usefulness',
] as const;

/**
 * A memory from the values of MEMORY_RECORD_PROPERTIES in that order, times
 * as epoch ms: what Recall's hot statements and the store statement return. Not the whole node: that
 * would read its 384-float embedding too (100k memories, 60 full-text matches:
 * 13.7 → 11.9 ms median). Not a map: decoding dominates Node's CPU there (60
 * memories a statement): epoch ms rather than DateTime values 2.7 → 1.7 ms, a
 * list rather than a map naming 26 properties 2.3 → 1.3 ms.
 */
export function memoryFromValues(values: unknown): MemoryRecord {
  if (!Array.isArray(values) || values.length !== MEMORY_RECORD_PROPERTIES.length) {
    throw new Error(
      `a memory needs ${MEMORY_RECORD_PROPERTIES.length} values, got ` +
        `${Array.isArray(values) ? values.length : typeof values}`,
    );
  }
  const row: Record<string, unknown> = {};
  MEMORY_RECORD_PROPERTIES.forEach((key, i) => {
    row[key] = values[i];
  });
  return toMemoryRecord(row);
}

/**
 * A memory's tier as stored; a tier edited by hand into something else (in Neo4j Browser, say: 'long_term', or
 * removed) reads as LONG_TERM, the tier a memory is stored in, instead of failing every read that returns the memory
 * (one such node failed every search of its store: a GraphQL enum cannot show it).
 */
function tierOf(value: unknown): Tier {
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : value;
  return isTier(upper) ? upper : 'LONG_TERM';
}

/** A `m {.*}` projection (times already in epoch ms) as a MemoryRecord. */
export function toMemoryRecord(row: Record<string, unknown>): MemoryRecord {
  return {
    id: String(row.id),
    store: String(row.store),
    content: String(row.content ?? ''),
    tier: tierOf(row.tier),
    claimed: row.claimed === true,
    tags: list(row.tags),
    people: list(row.people),
    emotions: list(row.emotions),
    metadata: parseJson(row.metadata),
    occurredAt: num(row.occurredAt) ?? num(row.createdAt) ?? 0,
    createdAt: num(row.createdAt) ?? 0,
    lastAccessedAt: num(row.lastAccessedAt),
    accessCount: num(row.accessCount) ?? 0,
    sessionId: typeof row.sessionId === 'string' ? row.sessionId : null,
    claimedAt: num(row.claimedAt),
    tierChangedAt: num(row.tierChangedAt),
    salience: num(row.salience),
    salienceAt: num(row.salienceAt),
    salienceAnchor: salienceAnchorOf(row),
    salienceUses: salienceUsesOf(row),
    usefulness: num(row.usefulness) ?? 0,
  };
}

export function toEventRecord(row: Record<string, unknown>): MemoryEventRecord {
  return {
    id: String(row.id),
    type: String(row.type),
    store: String(row.store),
    at: num(row.at) ?? 0,
    memoryId: typeof row.memoryId === 'string' ? row.memoryId : null,
    sessionId: typeof row.sessionId === 'string' ? row.sessionId : null,
    causationId: typeof row.causationId === 'string' ? row.causationId : null,
    payload: parseJson(row.payload),
  };
}
