/**
 * Every setting, read once from the environment (documented in the README).
 * Without NEO4J_URI / REDIS_URL the project's own local servers are used.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { salienceConfigFromEnv, type SalienceConfig } from './contexts/salience/index.js';
import type { SynapseSettings } from './contexts/synapse/index.js';
import type { Neo4jSettings } from './adapters/neo4j/index.js';

export interface Config {
  readonly neo4j: Neo4jSettings;
  readonly redisUrl: string;
  readonly host: string;
  readonly port: number;
  readonly defaultStore: string;
  readonly maxContentBytes: number;
  readonly maxBatch: number;
  readonly embeddingDimensions: number;
  readonly version: string;
  /** Salience's half-lives, boosts, floor and tier thresholds (docs/salience.md). */
  readonly salience: SalienceConfig;
  /** Background work on BullMQ (durations in ms); see the README's configuration table. */
  readonly subconscious: {
    readonly queuePrefix: string;
    readonly decaySweepMs: number;
    readonly consolidationMs: number;
    readonly quietMs: number;
    /** Synapse's THEMATIC text score from which two memories count as near-duplicates. */
    readonly consolidationMinSimilarity: number;
    readonly consolidationMaxClusters: number;
    readonly breakAfterMs: number;
    readonly sessionSweepMs: number;
    readonly jobAttempts: number;
    readonly jobBackoffMs: number;
    readonly jobLockMs: number;
    readonly stalledIntervalMs: number;
    readonly drainTimeoutMs: number;
  };
  /** An open session with no call for this long ends with cause TIMEOUT. */
  readonly sessionIdleMs: number;
  /** Where the shutdown protocol writes its verified NDJSON export. */
  readonly coldStorageDir: string;
  /** Stores this process sweeps, consolidates, times out and exports; null = every store. */
  readonly scopeStores: readonly string[] | null;
  /** The local embedding model and its background job (README: Embeddings). */
  readonly embeddings: {
    /** Off: no model is loaded and no vectors are computed (client vectors are still stored). */
    readonly enabled: boolean;
    /** Holds model.onnx and tokenizer.json (scripts/services/model.mjs puts them there). */
    readonly modelDir: string;
    /** Memories per embedding job and per backfill page. */
    readonly batchSize: number;
    /** CPU threads of one inference. */
    readonly threads: number;
    /** How often a missing model is looked for again (ms). */
    readonly retryMs: number;
  };
  /** Associations: mechanical linking rules, claim boost, activation (docs/synapse.md). */
  readonly synapse: SynapseSettings;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** A TCP port; 0 asks the system for a free one (tests do; `GraphQL ready at …` names the one taken). */
function tcpPort(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`${name} must be a port number from 0 to 65535, got "${raw}"`);
  return value;
}

function fraction(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 1) throw new Error(`${name} must be a number in (0,1], got "${raw}"`);
  return value;
}

function list(env: NodeJS.ProcessEnv, name: string): string[] | null {
  const items = (env[name] ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  return items.length > 0 ? items : null;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  if (['on', 'true', '1', 'yes'].includes(raw)) return true;
  if (['off', 'false', '0', 'no'].includes(raw)) return false;
  throw new Error(`${name} must be on or off, got "${env[name]}"`);
}

const MINUTE = 60_000;
/** The repository root (src/ is one level below it): the default data folder lives there. */
const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

export const VERSION = '0.1.0';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    neo4j: {
      uri: env.NEO4J_URI || `bolt://127.0.0.1:${env.TOTAL_RECALL_NEO4J_BOLT_PORT || 7687}`,
      user: env.NEO4J_USER || 'neo4j',
      password: env.NEO4J_PASSWORD || '',
      database: env.NEO4J_DATABASE || 'neo4j',
    },
    redisUrl: env.REDIS_URL || `redis://127.0.0.1:${env.TOTAL_RECALL_REDIS_PORT || 6380}`,
    host: env.HOST || '127.0.0.1',
    port: tcpPort(env, 'PORT', 4000),
    defaultStore: env.TOTAL_RECALL_DEFAULT_STORE || 'default',
    maxContentBytes: int(env, 'TOTAL_RECALL_MAX_CONTENT_BYTES', 64 * 1024),
    maxBatch: int(env, 'TOTAL_RECALL_MAX_BATCH', 1000),
    embeddingDimensions: int(env, 'TOTAL_RECALL_EMBEDDING_DIMENSIONS', 384),
    version: VERSION,
    salience: salienceConfigFromEnv(env),
    subconscious: {
      queuePrefix: env.TOTAL_RECALL_QUEUE_PREFIX || 'total-recall',
      decaySweepMs: int(env, 'TOTAL_RECALL_DECAY_SWEEP_MS', 15 * MINUTE),
      consolidationMs: int(env, 'TOTAL_RECALL_CONSOLIDATION_MS', 60 * MINUTE),
      quietMs: int(env, 'TOTAL_RECALL_QUIET_MS', 10 * MINUTE),
      consolidationMinSimilarity: fraction(env, 'TOTAL_RECALL_CONSOLIDATION_MIN_SIMILARITY', 0.9),
      consolidationMaxClusters: int(env, 'TOTAL_RECALL_CONSOLIDATION_MAX_CLUSTERS', 50),
      breakAfterMs: int(env, 'TOTAL_RECALL_BREAK_AFTER_MS', 90 * MINUTE),
      sessionSweepMs: int(env, 'TOTAL_RECALL_SESSION_SWEEP_MS', MINUTE),
      jobAttempts: int(env, 'TOTAL_RECALL_JOB_ATTEMPTS', 5),
      jobBackoffMs: int(env, 'TOTAL_RECALL_JOB_BACKOFF_MS', 1000),
      jobLockMs: int(env, 'TOTAL_RECALL_JOB_LOCK_MS', 30_000),
      stalledIntervalMs: int(env, 'TOTAL_RECALL_STALLED_INTERVAL_MS', 30_000),
      drainTimeoutMs: int(env, 'TOTAL_RECALL_DRAIN_TIMEOUT_MS', 30_000),
    },
    sessionIdleMs: int(env, 'TOTAL_RECALL_SESSION_IDLE_MS', 60 * MINUTE),
    coldStorageDir: resolve(env.TOTAL_RECALL_COLD_STORAGE_DIR || join(env.TOTAL_RECALL_DATA || '.data', 'cold-storage')),
    scopeStores: list(env, 'TOTAL_RECALL_SCOPE_STORES'),
    embeddings: {
      enabled: flag(env, 'TOTAL_RECALL_EMBEDDINGS', true),
      modelDir: resolve(
        env.TOTAL_RECALL_MODEL_DIR || join(env.TOTAL_RECALL_DATA ? resolve(env.TOTAL_RECALL_DATA) : join(PROJECT_ROOT, '.data'), 'models', 'e5-small-v2-q'),
      ),
      batchSize: int(env, 'TOTAL_RECALL_EMBEDDING_BATCH', 32),
      threads: int(env, 'TOTAL_RECALL_EMBEDDING_THREADS', 1),
      retryMs: int(env, 'TOTAL_RECALL_MODEL_RETRY_MS', MINUTE),
    },
    synapse: {
      mechanicalLinking: flag(env, 'TOTAL_RECALL_SYNAPSE_MECHANICAL', true),
      linkingThread: flag(env, 'TOTAL_RECALL_SYNAPSE_THREAD', true),
      temporalWindowMs: int(env, 'TOTAL_RECALL_SYNAPSE_TEMPORAL_WINDOW_MS', 30 * MINUTE),
      linksPerType: int(env, 'TOTAL_RECALL_SYNAPSE_LINKS_PER_TYPE', 5),
      maxDegree: int(env, 'TOTAL_RECALL_SYNAPSE_MAX_DEGREE', 50),
      thematicThreshold: fraction(env, 'TOTAL_RECALL_SYNAPSE_THEMATIC_THRESHOLD', 0.2),
      linkWriteMs: int(env, 'TOTAL_RECALL_SYNAPSE_LINK_WRITE_MS', 50),
      recentWindow: int(env, 'TOTAL_RECALL_SYNAPSE_RECENT_WINDOW', 100),
      claimBoost: fraction(env, 'TOTAL_RECALL_SYNAPSE_CLAIM_BOOST', 0.1),
      hopDecay: fraction(env, 'TOTAL_RECALL_SYNAPSE_HOP_DECAY', 0.5),
      maxActivatedNodes: int(env, 'TOTAL_RECALL_SYNAPSE_MAX_NODES', 500),
    },
  };
}
