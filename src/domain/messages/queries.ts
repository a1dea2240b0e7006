/** Queries: asked of Recall, which answers without changing a memory. */
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
  }
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
export type Query = SearchQuery | ReflectQuery;
