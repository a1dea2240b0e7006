/** Queries: asked of the context that holds the answer (Recall, Hippocampus, Synapse), which changes nothing. */
import type { ReflectionScope, Tier } from '../tiers.js';
import type { Message } from './envelope.js';

export interface SearchFilters {
  readonly tiers: readonly Tier[] | null;
  readonly from: number | null;
  readonly to: number | null;
  readonly tags: readonly string[] | null;
  readonly people: readonly string[] | null;
  readonly sessionId: string | null;
}
export type SearchQuery = Message<
  'SearchQuery',
  {
    readonly query: string;
    readonly store: string;
    readonly limit: number;
    readonly includeAssociations: boolean;
    readonly minConfidence: number | null;
    readonly filters: SearchFilters;
    /** False for a reader: the recall is answered but not recorded (a reader writes nothing). */
    readonly record: boolean;
  }
>;
/** A search packed into a context budget (contextFor). */
export type ContextQuery = Message<
  'ContextQuery',
  SearchQuery['data'] & {
    readonly sessionId: string | null;
    readonly maxTokens: number;
    readonly maxItems: number;
    readonly injectFloor: number | null;
    readonly liveFloor: number | null;
  }
>;
/** Memories by id, as stored (no access is recorded); unknown ids are left out. */
export type MemoriesQuery = Message<'MemoriesQuery', { readonly ids: readonly string[] }>;
/** A memory's audit trail, oldest first (its latest `limit` events). */
export type MemoryHistoryQuery = Message<'MemoryHistoryQuery', { readonly id: string; readonly limit: number }>;
/** A store's audit events after the event id `after` (null: from the start), in id order. */
export type MemoryEventsQuery = Message<
  'MemoryEventsQuery',
  { readonly store: string; readonly after: string | null; readonly limit: number }
>;
/** The originals a consolidated memory was made from. */
export type ConsolidatedFromQuery = Message<'ConsolidatedFromQuery', { readonly id: string }>;
/** A memory's associations (Synapse). */
export type AssociationsOfQuery = Message<
  'AssociationsOfQuery',
  {
    readonly id: string;
    readonly types?: readonly string[] | null;
    readonly minStrength?: number | null;
    readonly limit?: number;
  }
>;
/** The associations around a memory, up to `depth` hops (Synapse). */
export type NeighbourhoodOfQuery = Message<
  'NeighbourhoodOfQuery',
  { readonly id: string; readonly depth?: number; readonly types?: readonly string[] | null; readonly limit?: number }
>;
export type ReflectQuery = Message<
  'ReflectQuery',
  {
    readonly store: string;
    readonly scope: ReflectionScope;
    readonly timeSpanDays: number | null;
    readonly limit: number;
  }
>;
export type Query =
  | SearchQuery
  | ContextQuery
  | ReflectQuery
  | MemoriesQuery
  | MemoryHistoryQuery
  | MemoryEventsQuery
  | ConsolidatedFromQuery
  | AssociationsOfQuery
  | NeighbourhoodOfQuery;
