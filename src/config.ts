/**
 * Every setting, read once from the environment (documented in the README).
 * Without NEO4J_URI / REDIS_URL the project's own local servers are used.
 */
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { salienceConfigFromEnv, type SalienceConfig } from './contexts/salience/index.js';
import type { SynapseSettings } from './contexts/synapse/index.js';
import { checkNeo4jUri, type Neo4jSettings } from './adapters/neo4j/index.js';
import type { AuthSetting } from './adapters/auth/index.js';

export interface Config {
  readonly neo4j: Neo4jSettings;
  readonly redisUrl: string;
  /** How long a starting process waits for Neo4j before it gives up (ms). */
  readonly connectWaitMs: number;
  readonly host: string;
  readonly port: number;
  readonly defaultStore: string;
  readonly maxContentBytes: number;
  readonly maxBatch: number;
  /** Single stores committed together at most, while earlier commits run (1: each store commits alone). */
  readonly storeGroupMax: number;
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
    /** Period of the reconciliation, and how old unfinished work must be before it is queued again. */
    readonly reconcileMs: number;
    readonly reconcileGraceMs: number;
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
    /** Model threads (each holds the model): memories use all of them while no request runs, one while requests do. */
    readonly workers: number;
    /** How often a missing model is looked for again (ms). */
    readonly retryMs: number;
  };
  /** Associations: mechanical linking rules, claim boost, activation (docs/synapse.md). */
  readonly synapse: SynapseSettings;
  /** Where the local servers and the operator token live (TOTAL_RECALL_DATA). */
  readonly dataDir: string;
  /** Tokens and request limits (README: Security). */
  readonly security: SecuritySettings;
  /** Admission control per serving process (beyond it: BUSY with a retry-after hint). */
  readonly admission: {
    readonly maxConcurrent: number;
    readonly maxQueued: number;
    readonly maxWaitMs: number;
    /** Slots one token may hold at once, so one caller cannot take them all. */
    readonly maxPerCaller: number;
  };
}

export interface SecuritySettings {
  /** on: every request needs a token; off: none does (loopback only); auto: on when any token exists at start. */
  readonly auth: AuthSetting;
  /** The operator token `npm start` makes on first start (mode 0600). */
  readonly operatorTokenFile: string;
  /** Requests per token per minute (Redis-backed). */
  readonly rateLimitPerMinute: number;
  /** How long a call waits for a Neo4j pool connection before it is answered UNAVAILABLE (retryable). */
  readonly poolAcquisitionMs: number;
  readonly limits: RequestLimits;
}

/** What one GraphQL request may ask for (graphql-armor, the body reader and the per-request pool share). */
export interface RequestLimits {
  readonly maxBodyBytes: number;
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxTokens: number;
  readonly maxCost: number;
  readonly maxDirectives: number;
  /** Port calls one request runs at once (its share of the Neo4j pool). */
  readonly requestConcurrency: number;
  readonly introspection: boolean;
  /** "Did you mean …?" in validation errors (off outside development: they map the schema for an attacker). */
  readonly fieldSuggestions: boolean;
  /** Host header names accepted besides loopback ones and HOST (DNS rebinding). */
  readonly allowedHosts: readonly string[];
}

export const DEFAULT_LIMITS: RequestLimits = {
  maxBodyBytes: 32 * 1024 * 1024,
  maxDepth: 8,
  maxAliases: 15,
  maxTokens: 2000,
  maxCost: 5000,
  maxDirectives: 20,
  requestConcurrency: 4,
  introspection: false,
  fieldSuggestions: false,
  allowedHosts: [],
};

function authSetting(env: NodeJS.ProcessEnv): AuthSetting {
  const raw = (env.TOTAL_RECALL_AUTH ?? '').trim().toLowerCase();
  if (raw === '') return 'auto';
  if (raw === 'on' || raw === 'off' || raw === 'auto') return raw;
  throw new Error(`TOTAL_RECALL_AUTH must be on, off or auto, got "${env.TOTAL_RECALL_AUTH}"`);
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
export const isLoopback = (host: string): boolean =>
  LOOPBACK.has(host.trim().toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host.trim());

/** TOTAL_RECALL_AUTH=off serves anyone who can connect: refused unless only this machine can. */
export function checkAuthPosture(config: Pick<Config, 'host' | 'security'>): void {
  if (config.security.auth === 'off' && !isLoopback(config.host)) {
    throw new Error(
      `TOTAL_RECALL_AUTH=off is refused when serving on ${config.host}: without tokens anyone who reaches the port could read and write every store. Serve on 127.0.0.1, or use tokens (npm run token -- create).`,
    );
  }
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

function admissionSettings(env: NodeJS.ProcessEnv): Config['admission'] {
  const maxConcurrent = int(env, 'TOTAL_RECALL_MAX_CONCURRENT', 8);
  const maxPerCaller = int(env, 'TOTAL_RECALL_MAX_CONCURRENT_PER_TOKEN', Math.max(1, Math.floor(maxConcurrent / 4)));
  if (maxPerCaller > maxConcurrent) {
    throw new Error(
      `TOTAL_RECALL_MAX_CONCURRENT_PER_TOKEN (${maxPerCaller}) cannot exceed TOTAL_RECALL_MAX_CONCURRENT (${maxConcurrent})`,
    );
  }
  return {
    maxConcurrent,
    maxQueued: int(env, 'TOTAL_RECALL_MAX_QUEUED', 16),
    maxWaitMs: int(env, 'TOTAL_RECALL_MAX_QUEUE_WAIT_MS', 1000),
    maxPerCaller,
  };
}

/** A TCP port; 0 asks the system for a free one (tests do; `GraphQL ready at …` names the one taken). */
function tcpPort(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535)
    throw new Error(`${name} must be a port number from 0 to 65535, got "${raw}"`);
  return value;
}

function fraction(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 1)
    throw new Error(`${name} must be a number in (0,1], got "${raw}"`);
  return value;
}

function list(env: NodeJS.ProcessEnv, name: string): string[] | null {
  const items = (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
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

/** A secret the local service scripts generated (mode 0600), or empty when there is none. */
function localSecret(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/** The local Redis, with the password its conf was started with (scripts/services/redis.mjs). */
function localRedisUrl(dataDir: string, port: string): string {
  let password = '';
  try {
    password =
      /^requirepass "((?:[^"\\]|\\.)*)"$/m.exec(readFileSync(join(dataDir, 'redis', 'redis.conf'), 'utf8'))?.[1] ?? '';
  } catch {
    // No local Redis set up yet.
  }
  return password ? `redis://:${encodeURIComponent(password)}@127.0.0.1:${port}` : `redis://127.0.0.1:${port}`;
}
/** The repository root (src/ is one level below it): the default data folder lives there. */
const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

export const VERSION = '0.1.0';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = env.TOTAL_RECALL_DATA ? resolve(env.TOTAL_RECALL_DATA) : join(PROJECT_ROOT, '.data');
  const development = env.NODE_ENV === 'development';
  return {
    neo4j: {
      // bolt:// for one server; neo4j:// or neo4j+s:// for a cluster or Aura (docs/deployment.md).
      uri: checkNeo4jUri(env.NEO4J_URI || `bolt://127.0.0.1:${env.TOTAL_RECALL_NEO4J_BOLT_PORT || 7687}`),
      user: env.NEO4J_USER || env.NEO4J_USERNAME || 'neo4j',
      // The local server's generated password (scripts/services/neo4j.mjs); an external one brings its own.
      password: env.NEO4J_PASSWORD || (env.NEO4J_URI ? '' : localSecret(join(dataDir, 'neo4j', 'password'))),
      database: env.NEO4J_DATABASE || 'neo4j',
    },
    redisUrl: env.REDIS_URL || localRedisUrl(dataDir, env.TOTAL_RECALL_REDIS_PORT || '6380'),
    connectWaitMs: int(env, 'TOTAL_RECALL_CONNECT_WAIT_MS', 120_000),
    host: env.HOST || '127.0.0.1',
    port: tcpPort(env, 'PORT', 4000),
    defaultStore: env.TOTAL_RECALL_DEFAULT_STORE || 'default',
    maxContentBytes: int(env, 'TOTAL_RECALL_MAX_CONTENT_BYTES', 64 * 1024),
    maxBatch: int(env, 'TOTAL_RECALL_MAX_BATCH', 1000),
    storeGroupMax: int(env, 'TOTAL_RECALL_STORE_GROUP_MAX', 64),
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
      reconcileMs: int(env, 'TOTAL_RECALL_RECONCILE_MS', MINUTE),
      reconcileGraceMs: int(env, 'TOTAL_RECALL_RECONCILE_GRACE_MS', 30_000),
      jobAttempts: int(env, 'TOTAL_RECALL_JOB_ATTEMPTS', 5),
      jobBackoffMs: int(env, 'TOTAL_RECALL_JOB_BACKOFF_MS', 1000),
      jobLockMs: int(env, 'TOTAL_RECALL_JOB_LOCK_MS', 30_000),
      stalledIntervalMs: int(env, 'TOTAL_RECALL_STALLED_INTERVAL_MS', 30_000),
      drainTimeoutMs: int(env, 'TOTAL_RECALL_DRAIN_TIMEOUT_MS', 30_000),
    },
    sessionIdleMs: int(env, 'TOTAL_RECALL_SESSION_IDLE_MS', 60 * MINUTE),
    coldStorageDir: resolve(
      env.TOTAL_RECALL_COLD_STORAGE_DIR || join(env.TOTAL_RECALL_DATA || '.data', 'cold-storage'),
    ),
    scopeStores: list(env, 'TOTAL_RECALL_SCOPE_STORES'),
    embeddings: {
      enabled: flag(env, 'TOTAL_RECALL_EMBEDDINGS', true),
      modelDir: resolve(env.TOTAL_RECALL_MODEL_DIR || join(dataDir, 'models', 'e5-small-v2-q')),
      batchSize: int(env, 'TOTAL_RECALL_EMBEDDING_BATCH', 64),
      threads: int(env, 'TOTAL_RECALL_EMBEDDING_THREADS', 1),
      workers: int(env, 'TOTAL_RECALL_EMBEDDING_WORKERS', Math.min(2, availableParallelism())),
      retryMs: int(env, 'TOTAL_RECALL_MODEL_RETRY_MS', MINUTE),
    },
    dataDir,
    security: {
      auth: authSetting(env),
      operatorTokenFile: resolve(env.TOTAL_RECALL_OPERATOR_TOKEN_FILE || join(dataDir, 'operator.token')),
      rateLimitPerMinute: int(env, 'TOTAL_RECALL_RATE_LIMIT_PER_MINUTE', 6000),
      poolAcquisitionMs: int(env, 'TOTAL_RECALL_POOL_ACQUISITION_MS', 1000),
      limits: {
        maxBodyBytes: int(env, 'TOTAL_RECALL_MAX_BODY_BYTES', DEFAULT_LIMITS.maxBodyBytes),
        maxDepth: int(env, 'TOTAL_RECALL_MAX_DEPTH', DEFAULT_LIMITS.maxDepth),
        maxAliases: int(env, 'TOTAL_RECALL_MAX_ALIASES', DEFAULT_LIMITS.maxAliases),
        maxTokens: int(env, 'TOTAL_RECALL_MAX_TOKENS', DEFAULT_LIMITS.maxTokens),
        maxCost: int(env, 'TOTAL_RECALL_MAX_COST', DEFAULT_LIMITS.maxCost),
        maxDirectives: int(env, 'TOTAL_RECALL_MAX_DIRECTIVES', DEFAULT_LIMITS.maxDirectives),
        requestConcurrency: int(env, 'TOTAL_RECALL_REQUEST_CONCURRENCY', DEFAULT_LIMITS.requestConcurrency),
        introspection: flag(env, 'TOTAL_RECALL_INTROSPECTION', development),
        fieldSuggestions: development,
        allowedHosts: list(env, 'TOTAL_RECALL_ALLOWED_HOSTS') ?? [],
      },
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
    admission: admissionSettings(env),
  };
}
