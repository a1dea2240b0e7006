/** Hippocampus's settings: what one store call may carry, and how single stores commit together. */
import { settings } from '../../domain/index.js';

export const HIPPOCAMPUS_SETTINGS = {
  defaultStore: settings.text('TOTAL_RECALL_DEFAULT_STORE', {
    default: 'default',
    description: 'the store used when a call names none',
  }),
  maxContentBytes: settings.integer('TOTAL_RECALL_MAX_CONTENT_BYTES', {
    default: 64 * 1024,
    unit: 'bytes',
    description: 'largest memory content (UTF-8)',
  }),
  maxBatch: settings.integer('TOTAL_RECALL_MAX_BATCH', {
    default: 1000,
    unit: 'memories',
    description: 'most memories per `storeMany`',
  }),
  storeGroupMax: settings.integer('TOTAL_RECALL_STORE_GROUP_MAX', {
    default: 64,
    unit: 'stores',
    description:
      'single `store` calls that arrive while a commit runs are committed together, up to this many in one ' +
      'statement (group commit: each is still acknowledged only after its commit, and fails alone); `1`: every ' +
      'store commits on its own',
  }),
  embeddingDimensions: settings.integer('TOTAL_RECALL_EMBEDDING_DIMENSIONS', {
    default: 384,
    description: 'length of a client-supplied `embedding` (the model and the vector index give 384)',
  }),
} as const;

export type HippocampusSettings = settings.SettingsOf<typeof HIPPOCAMPUS_SETTINGS>;

export const hippocampusSettingsFromEnv = (env: NodeJS.ProcessEnv): HippocampusSettings =>
  settings.readSettings(HIPPOCAMPUS_SETTINGS, env);
