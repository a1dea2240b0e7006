/** Recall's ranking and text rules, for tests and benchmarks only (production code may not import this file). */
export {
  rank,
  confidenceOf,
  directFeatures,
  DIRECT_FEATURES,
  DEFAULT_WEIGHTS,
  DEFAULT_CALIBRATIONS,
  ALL_SIGNALS,
} from './scoring.js';
export type { Candidate } from './scoring.js';
export {
  questionOf,
  evidenceOf,
  textStems,
  answerWanted,
  breadthOf,
  BREADTH_WORDS,
  longerThanAParagraph,
} from './evidence.js';
export { pack, estimateTokens } from './packing.js';
export {
  queryTerms,
  coverage,
  luceneQuery,
  namesPerson,
  stem,
  tokenize,
  withIrregularForms,
} from './query-text.js';
export { datesNamed, inSpans, ZONE_SLACK_MS } from './query-dates.js';
export { FUSED_CALIBRATION, LEXICAL_CALIBRATION } from './calibration.js';
export { StoreVectors } from './store-vectors.js';
export { referenceOf, baselineOf, BASELINE_FALLBACK } from './baseline.js';
export { REFERENCE_QUESTIONS } from './reference-questions.js';
export { scanIn, scannable } from './dot-scan.js';
export { VectorCache, DEFAULT_VECTOR_CACHE } from './vector-cache.js';
export { StatsCache } from './stats-cache.js';
export { LruMap } from './lru.js';
export { searchTerms } from './bm25.js';
export { collapseConsolidated } from './collapse.js';
export { fittingActions, suggestedTier, reflectKindOf } from './reflection-rules.js';
export { frameLine, quotedQuery } from './frame.js';
export { CandidateReads } from './candidate-reads.js';
export { planSearch, filterParams, validateFilters, validateContext } from './search-request.js';
export { ScaledTermStats, StoreTermStats } from './bm25.js';
