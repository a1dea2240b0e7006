/**
 * Every setting, read once from the environment. Each context declares its own
 * (name, default, unit, bounds, meaning: a settings.ts in the context, src/settings/);
 * this file puts them together. The README's table is generated from the same
 * declarations (`npm run docs:config`). Without NEO4J_URI / REDIS_URL the
 * project's own local servers are used.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, settings, type SettingsContext } from './domain/index.js';
import { salienceConfigFromEnv, type SalienceConfig } from './contexts/salience/index.js';
import { synapseSettingsFromEnv, type SynapseSettings } from './contexts/synapse/index.js';
import { subconsciousSettingsFromEnv } from './contexts/subconscious/index.js';
import { hippocampusSettingsFromEnv } from './contexts/hippocampus/index.js';
import { checkNeo4jUri, type Neo4jSettings } from './adapters/neo4j/index.js';
import type { AuthSetting } from './adapters/auth/index.js';
import { CONNECTION_SETTINGS } from './settings/connections.js';
import { EMBEDDING_SETTINGS, SERVER_SETTINGS } from './settings/server.js';
import { isLoopback, requestLimits, type RequestLimits } from './settings/request-limits.js';

export { DEFAULT_LIMITS, isLoopback, type RequestLimits } from './settings/request-limits.js';

export interface Config {
  readonly neo4j: Neo4jSettings;
  readonly redisUrl: string;
  /** How long a starting process waits for Neo4j before it gives up (ms). */
  readonly connectWaitMs: number;
  readonly host: string;
  readonly port: number;
  /** While requests run, how long background work waits for a gap between them at most (ms). */
  readonly backgroundGapWaitMs: number;
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
    /** Period of the background's full cold-storage export (a compaction of the chain). */
    readonly coldStorageFullMs: number;
    /** Period of the background's cold-storage checkpoint (written while the service runs). */
    readonly coldStorageCheckpointMs: number;
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
    /** Share of the time memories may take while requests run (1: one model thread, never waiting). */
    readonly busyShare: number;
    /** Memories per model run while requests run. */
    readonly busyBatch: number;
    /** Vectors per write while requests run. */
    readonly busyWriteBatch: number;
    /** How often a missing model is looked for again (ms). */
    readonly retryMs: number;
    /** Tries of one embedding job, and the first delay between them (ms, then doubling). */
    readonly jobAttempts: number;
    readonly jobBackoffMs: number;
  };
  /** The one logger's least severe level, and JSON lines or readable ones. */
  readonly log: { readonly level: LogLevel; readonly format: 'json' | 'pretty' };
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

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

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

/** TOTAL_RECALL_AUTH=off serves anyone who can connect: refused unless only this machine can. */
export function checkAuthPosture(config: Pick<Config, 'host' | 'security'>): void {
  if (config.security.auth === 'off' && !isLoopback(config.host)) {
    throw new ConfigError(
      'CONFIG.TOTAL_RECALL_AUTH',
      `TOTAL_RECALL_AUTH=off is refused when serving on ${config.host}: without tokens anyone who reaches the ` +
        'port could read and write every store. Serve on 127.0.0.1, or use tokens (npm run token -- create).',
    );
  }
}

type Server = settings.SettingsOf<typeof SERVER_SETTINGS>;

function admission(s: Server): Config['admission'] {
  if (s.maxPerCaller > s.maxConcurrent) {
    throw new ConfigError(
      'CONFIG.TOTAL_RECALL_MAX_CONCURRENT_PER_TOKEN',
      `TOTAL_RECALL_MAX_CONCURRENT_PER_TOKEN (${s.maxPerCaller}) cannot exceed TOTAL_RECALL_MAX_CONCURRENT ` +
        `(${s.maxConcurrent})`,
    );
  }
  return {
    maxConcurrent: s.maxConcurrent,
    maxQueued: s.maxQueued,
    maxWaitMs: s.maxWaitMs,
    maxPerCaller: s.maxPerCaller,
  };
}

/** A secret the local service scripts generated (mode 0600), or empty when there is none. */
function localSecret(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/** The local Redis, with the password its conf was started with (scripts/services/redis.mjs). */
function localRedisUrl(dataDir: string, port: number): string {
  let password = '';
  try {
    password =
      /^requirepass "((?:[^"\\]|\\.)*)"$/m.exec(readFileSync(join(dataDir, 'redis', 'redis.conf'), 'utf8'))?.[1] ?? '';
  } catch {
    // No local Redis set up yet.
  }
  return password ? `redis://:${encodeURIComponent(password)}@127.0.0.1:${port}` : `redis://127.0.0.1:${port}`;
}

export const VERSION = '0.1.0';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // The data folder first: every other path's default lies under it.
  const dataDir = CONNECTION_SETTINGS.dataDir.read(env.TOTAL_RECALL_DATA, { dataDir: '', env }, 'dataDir');
  const context: SettingsContext = { dataDir, env };
  const c = settings.readSettings(CONNECTION_SETTINGS, env, context);
  const server = settings.readSettings(SERVER_SETTINGS, env, context);
  const emb = settings.readSettings(EMBEDDING_SETTINGS, env, context);
  const { defaultStore, ...memories } = hippocampusSettingsFromEnv(env);
  const { scopeStores, sessionIdleMs, ...subconscious } = subconsciousSettingsFromEnv(env);
  return {
    neo4j: {
      // bolt:// for one server; neo4j:// or neo4j+s:// for a cluster or Aura (docs/deployment.md).
      uri: checkNeo4jUri(c.neo4jUri || `bolt://127.0.0.1:${c.neo4jBoltPort}`),
      user: c.neo4jUser || c.neo4jUsername || 'neo4j',
      // The local server's generated password (scripts/services/neo4j.mjs); an external one brings its own.
      password: c.neo4jPassword || (c.neo4jUri ? '' : localSecret(join(dataDir, 'neo4j', 'password'))),
      database: c.neo4jDatabase,
    },
    redisUrl: c.redisUrl || localRedisUrl(dataDir, c.redisPort),
    connectWaitMs: c.connectWaitMs,
    host: server.host,
    port: server.port,
    backgroundGapWaitMs: server.backgroundGapWaitMs,
    defaultStore,
    ...memories,
    version: VERSION,
    salience: salienceConfigFromEnv(env),
    subconscious,
    sessionIdleMs,
    coldStorageDir: c.coldStorageDir,
    scopeStores,
    embeddings: emb,
    log: { level: c.logLevel, format: c.logFormat },
    dataDir,
    security: {
      auth: server.auth,
      operatorTokenFile: server.operatorTokenFile,
      rateLimitPerMinute: server.rateLimitPerMinute,
      poolAcquisitionMs: server.poolAcquisitionMs,
      limits: requestLimits(server),
    },
    synapse: synapseSettingsFromEnv(env),
    admission: admission(server),
  };
}
