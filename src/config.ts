/**
 * Every setting, read once from the environment (documented in the README).
 * Without NEO4J_URI / REDIS_URL the project's own local servers are used.
 */
export interface Config {
  readonly neo4j: { readonly uri: string; readonly user: string; readonly password: string; readonly database: string };
  readonly redisUrl: string;
  readonly host: string;
  readonly port: number;
  readonly defaultStore: string;
  readonly maxContentBytes: number;
  readonly maxBatch: number;
  readonly embeddingDimensions: number;
  readonly version: string;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

export const VERSION = '0.1.0';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    neo4j: {
      uri: env.NEO4J_URI || 'bolt://127.0.0.1:7687',
      user: env.NEO4J_USER || 'neo4j',
      password: env.NEO4J_PASSWORD || '',
      database: env.NEO4J_DATABASE || 'neo4j',
    },
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6380',
    host: env.HOST || '127.0.0.1',
    port: int(env, 'PORT', 4000),
    defaultStore: env.TOTAL_RECALL_DEFAULT_STORE || 'default',
    maxContentBytes: int(env, 'TOTAL_RECALL_MAX_CONTENT_BYTES', 64 * 1024),
    maxBatch: int(env, 'TOTAL_RECALL_MAX_BATCH', 1000),
    embeddingDimensions: int(env, 'TOTAL_RECALL_EMBEDDING_DIMENSIONS', 384),
    version: VERSION,
  };
}
