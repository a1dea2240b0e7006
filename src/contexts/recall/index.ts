export { Recall, UNRECORDED_RECALL_ID } from './recall.js';
export type { RecallDeps } from './recall.js';
export { validateSearch } from './search-request.js';
export type { Activate, Activation, SearchRequest, ContextRequest, RecallResult } from './search-request.js';
export type { UseRecord } from './recall-log.js';
export type { ReflectCandidate } from './reflection.js';
export {
  rank,
  confidenceOf,
  directFeatures,
  directLogit,
  toHundredths,
  compareHits,
  admitted,
  DEFAULT_WEIGHTS,
  DEFAULT_CALIBRATIONS,
  DIRECT_FEATURES,
  ALL_SIGNALS,
} from './scoring.js';
export type { Calibrations, Candidate, RankedHit, RecallWeights, Signals } from './scoring.js';
export { questionOf, evidenceOf, textStems } from './evidence.js';
export type { Question, Evidence } from './evidence.js';
export { documentStems } from './bm25.js';
export { frameLine } from './frame.js';
export { pack, estimateTokens, memoryLine, DEFAULT_INJECT_FLOOR, DEFAULT_LIVE_FLOOR } from './packing.js';
export type { Pack, PackOptions } from './packing.js';
export {
  queryTerms,
  tokenize,
  coverage,
  luceneQuery,
  namesPerson,
  stem,
  withIrregularForms,
  QUERY_STOP_WORDS,
} from './query-text.js';
export { datesNamed, inSpans, ZONE_SLACK_MS } from './query-dates.js';
export type { TimeSpan } from './query-dates.js';
export { FUSED_CALIBRATION, LEXICAL_CALIBRATION } from './calibration.js';
export { StoreVectors } from './store-vectors.js';
export { LruMap } from './lru.js';
export { VectorCache, DEFAULT_VECTOR_CACHE } from './vector-cache.js';
export type { VectorCacheOptions } from './vector-cache.js';
export type { Calibration } from './calibration.js';
export { searchTerms } from './bm25.js';
export { collapseConsolidated, originalsOf } from './collapse.js';
export { ReflectionActions } from './reflection-actions.js';
export type { ReflectCandidateWithActions, ReflectionActionsDeps } from './reflection-actions.js';
export { fittingActions, suggestedTier, reflectKindOf, WEAK_BELOW, MOST_OFFERED } from './reflection-rules.js';
export type { ReflectAction, ReflectKind, CandidateTies, WeakTie } from './reflection-rules.js';
