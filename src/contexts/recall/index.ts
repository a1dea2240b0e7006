export { Recall } from './recall.js';
export type {
  Activate,
  Activation,
  RecallDeps,
  SearchRequest,
  RecallResult,
  UseRecord,
  ReflectCandidate,
} from './recall.js';
export type { Calibrations, RankedHit, RecallWeights, Signals } from './scoring.js';
export type { Calibration } from './calibration.js';
export { frameLine } from './frame.js';
export { DEFAULT_INJECT_FLOOR, DEFAULT_LIVE_FLOOR } from './packing.js';
export type { Pack } from './packing.js';
export type { VectorCacheOptions } from './vector-cache.js';
export { ReflectionActions } from './reflection-actions.js';
export type { ReflectCandidateWithActions, ReflectionActionsDeps } from './reflection-actions.js';
