export { Hippocampus } from './hippocampus.js';
export { storeGroupSettings } from './group-commit.js';
export type { HippocampusDeps, Stored, ForgetOutcome, TierMove, StoreEmbeddingProgress } from './hippocampus.js';
export type { StoreLimits } from './validation.js';
export type { EmbeddingWork, MemoryVector } from './hippocampus.js';
export type { GroupCommitSettings } from './group-commit.js';
export { HIPPOCAMPUS_SETTINGS, hippocampusSettingsFromEnv } from './settings.js';
export type { HippocampusSettings } from './settings.js';
