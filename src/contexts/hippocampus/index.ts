export { Hippocampus } from './hippocampus.js';
export type { HippocampusDeps, Stored, ForgetOutcome, TierMove } from './hippocampus.js';
export { checkTierChange, mostPresent } from './tier-rules.js';
export type { TierChangeBy, TierVerdict } from './tier-rules.js';
export { validateNewMemory, validateBatch, normaliseLabels, validateReason } from './validation.js';
export type { StoreLimits } from './validation.js';
export { consolidate } from './consolidation.js';
export { toMemoryRecord, toEventRecord, memoryFromValues, MEMORY_RECORD_PROPERTIES } from './records.js';
export type { EmbeddingWork, MemoryVector } from './hippocampus.js';
