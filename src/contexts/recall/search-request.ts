/**
 * What a search asks for, the checks it must pass, and the plan ranking
 * follows: the terms searched, the filters as statement parameters and how
 * many candidates each source is asked for.
 */
import { InvalidInputError, NOT_WELL_FORMED, type AssociationType, type SearchFilters } from '../../domain/index.js';
import { QUERY_STOP_WORDS, queryTerms, stem, tokenize } from './query-text.js';
import { datesNamed, type TimeSpan } from './query-dates.js';
import { searchTerms, type TermStats } from './bm25.js';
import { questionOf, type Question } from './evidence.js';
import { ALL_SIGNALS, type Calibrations, type RecallWeights, type Signals } from './scoring.js';

export interface Activation {
  readonly id: string;
  readonly activation: number;
  readonly path: readonly AssociationType[];
  /** The seed the path starts from. */
  readonly seed: string;
}

/** Spreading activation from seed memories (Synapse provides it). */
export type Activate = (
  store: string,
  seeds: readonly { id: string; weight: number }[],
  types: readonly AssociationType[],
) => Promise<readonly Activation[]>;

export interface SearchRequest {
  readonly query: string;
  readonly store: string;
  readonly limit: number;
  readonly includeAssociations: boolean;
  readonly minConfidence: number | null;
  readonly filters: SearchFilters;
  /** Ablation only: which signals count (all, in service). */
  readonly signals?: Signals;
  /** Calibration benchmark only: the models confidence is computed with (the fitted ones, in service). */
  readonly calibrations?: Calibrations;
}

/** A search packed into a context budget (contextFor). */
export type ContextRequest = SearchRequest & {
  readonly sessionId: string | null;
  readonly maxTokens: number;
  readonly maxItems: number;
  readonly injectFloor: number | null;
  readonly liveFloor: number | null;
};

export type { RecallResult } from '../../domain/index.js';

export const invalid = (code: string, text: string) => new InvalidInputError(`RECALL.${code}`, text);

export function validateSearch(query: string, limit: number, minConfidence: number | null): void {
  if (typeof query !== 'string' || query.trim() === '') throw invalid('EMPTY_QUERY', 'query must not be empty');
  if (query.length > 4000) throw invalid('QUERY_TOO_LONG', 'query must be at most 4000 characters');
  if (!query.isWellFormed()) throw invalid('INVALID_QUERY', `query ${NOT_WELL_FORMED}`);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw invalid('INVALID_LIMIT', 'limit must be an integer from 1 to 100');
  if (minConfidence !== null && !(minConfidence >= 0 && minConfidence <= 1))
    throw invalid('INVALID_CONFIDENCE', 'minConfidence must be in [0,1]');
}

/** A search's time window: an empty one is a mistake, not a question with no answer. */
export function validateFilters(filters: SearchFilters): void {
  if (filters.from !== null && filters.to !== null && filters.from > filters.to)
    throw invalid('INVALID_RANGE', 'filters.from must not be later than filters.to');
}

/** The smallest context budget: the longest frame line (packing.ts) with room to spare. */
export const MIN_CONTEXT_TOKENS = 64;

/** contextFor's budget and floors (the search itself is checked by validateSearch). */
export function validateContext(request: ContextRequest): void {
  if (!Number.isInteger(request.maxTokens) || request.maxTokens < MIN_CONTEXT_TOKENS)
    throw invalid('INVALID_BUDGET', `maxTokens must be an integer of at least ${MIN_CONTEXT_TOKENS}`);
  if (!Number.isInteger(request.maxItems) || request.maxItems < 1 || request.maxItems > 100)
    throw invalid('INVALID_LIMIT', 'maxItems must be from 1 to 100');
  for (const floor of [request.injectFloor, request.liveFloor]) {
    if (floor !== null && !(floor >= 0 && floor <= 1)) throw invalid('INVALID_CONFIDENCE', 'floors must be in [0,1]');
  }
}

/** The search's store and filters as the parameters of every candidate statement. */
export function filterParams(store: string, f: SearchFilters) {
  const list = <T>(xs: readonly T[] | null) => (xs && xs.length > 0 ? xs : null);
  // Stored labels are trimmed (hippocampus validation), so a filter's are too.
  const labels = (xs: readonly string[] | null) => list((xs ?? []).map((x) => x.trim()).filter((x) => x !== ''));
  return {
    store,
    tiers: list(f.tiers),
    from: f.from,
    to: f.to,
    tags: labels(f.tags),
    people: labels(f.people),
    sessionId: f.sessionId,
  };
}

export type FilterParams = ReturnType<typeof filterParams>;

/**
 * The query as candidates are scored against it: its stems (BM25, coverage), its words but stop words (the people
 * it names) and the dates it names.
 */
export interface QueryWords {
  readonly stems: readonly string[];
  readonly question: Question;
  readonly words: ReadonlySet<string>;
  readonly dates: readonly TimeSpan[];
}

/** How one search is carried out, decided before any candidate is read. */
export interface SearchPlan {
  readonly request: SearchRequest;
  readonly signals: Signals;
  readonly query: QueryWords;
  readonly stats: TermStats;
  readonly filters: FilterParams;
  /** Filters pick a part of the store: every candidate source is asked for more. */
  readonly filtered: boolean;
  /** Whether the full-text index is asked, and the terms sent to it. */
  readonly searchText: boolean;
  readonly searched: readonly string[];
  /** How many full-text matches are read. */
  readonly limit: number;
  readonly now: number;
}

export function planSearch(request: SearchRequest, stats: TermStats, weights: RecallWeights, now: number): SearchPlan {
  const signals = request.signals ?? ALL_SIGNALS;
  const terms = queryTerms(request.query);
  const fallback = terms.length > 0 ? terms : [...new Set(tokenize(request.query))].slice(0, 32);
  const filters = filterParams(request.store, request.filters);
  const filtered = Object.entries(filters).some(([name, value]) => name !== 'store' && value !== null);
  const limit = Math.min(500, Math.max(request.limit * 5, 60) * (filtered ? 4 : 1));
  // Filters pick a part of the store its term statistics do not describe: then every term is searched.
  const searched = filtered ? fallback : searchTerms(fallback, stats, weights.commonTermShare, limit);
  return {
    request,
    signals,
    query: {
      stems: fallback.map(stem),
      question: questionOf(request.query),
      words: new Set(tokenize(request.query).filter((w) => !QUERY_STOP_WORDS.has(w))),
      dates: datesNamed(request.query),
    },
    stats,
    filters,
    filtered,
    searchText: signals.text && fallback.length > 0,
    searched,
    limit,
    now,
  };
}
