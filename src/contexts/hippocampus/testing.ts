/** Hippocampus's rules, for tests and benchmarks only (production code may not import this file). */
export { checkTierChange } from './tier-rules.js';
export type { TierChangeBy, TierVerdict } from './tier-rules.js';
export { validateNewMemory, validateBatch, normaliseLabels, validateReason } from './validation.js';
export { consolidate } from './consolidation.js';
export { embeddingText, CONTEXT_MAX_CHARS } from './embedding-text.js';
export { consolidatedMetadata } from './consolidation.js';
export { GroupCommit } from './group-commit.js';
