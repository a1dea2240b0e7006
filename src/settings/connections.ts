/** Where the service finds its data folder, Neo4j and Redis, and how it logs. */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { settings } from '../domain/index.js';

/** The repository root (src/settings/ is two levels below it): the default data folder lives there. */
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const CONNECTION_SETTINGS = {
  dataDir: settings.path('TOTAL_RECALL_DATA', {
    default: () => join(PROJECT_ROOT, '.data'),
    shown: './.data',
    description: 'where the local servers keep their files, and where the paths below default to',
  }),
  neo4jUri: settings.text('NEO4J_URI', {
    default: '',
    shown: 'bolt://127.0.0.1:7687',
    description:
      'use an existing Neo4j; then none is started. `bolt://` (one server) or `neo4j://` (routing: a cluster, ' +
      'Aura), each with `+s` / `+ssc` for TLS; any other scheme is refused at start (`CONFIG.NEO4J_URI`). See ' +
      '[docs/deployment.md](docs/deployment.md)',
  }),
  neo4jUser: settings.text('NEO4J_USER', {
    default: '',
    shown: 'neo4j',
    description: 'the user for `NEO4J_URI`',
  }),
  neo4jUsername: settings.text('NEO4J_USERNAME', {
    default: '',
    shown: 'unset',
    description: "the same, under the name Neo4j's own tools use (`NEO4J_USER` wins when both are set)",
  }),
  neo4jPassword: settings.text('NEO4J_PASSWORD', {
    default: '',
    shown: "the local server's generated one",
    description:
      "the password for `NEO4J_URI` (an external server keeps its own; the local one's is read from " +
      '`.data/neo4j/password`)',
  }),
  neo4jDatabase: settings.text('NEO4J_DATABASE', {
    default: 'neo4j',
    description:
      'database name (Neo4j Community and Aura Free have one user database, `neo4j`); one the server does not ' +
      'have stops the start at once (`CONFIG.NEO4J_DATABASE_NOT_FOUND`, naming the databases it has)',
  }),
  redisUrl: settings.text('REDIS_URL', {
    default: '',
    shown: 'redis://127.0.0.1:6380',
    description:
      "use an existing Redis; then none is started (the local one's password is read from its conf, " +
      '`.data/redis/redis.conf`)',
  }),
  neo4jBoltPort: settings.integer('TOTAL_RECALL_NEO4J_BOLT_PORT', {
    default: 7687,
    max: 65535,
    description:
      'Bolt port of the local Neo4j (a second checkout on one machine sets other ports and its own ' +
      '`TOTAL_RECALL_DATA`); the default `NEO4J_URI` follows it',
  }),
  redisPort: settings.integer('TOTAL_RECALL_REDIS_PORT', {
    default: 6380,
    max: 65535,
    description: 'port of the local Redis; the default `REDIS_URL` follows it',
  }),
  connectWaitMs: settings.integer('TOTAL_RECALL_CONNECT_WAIT_MS', {
    default: 120_000,
    unit: 'ms',
    description: 'how long a starting process waits for Neo4j (started in any order after a crash)',
  }),
  coldStorageDir: settings.path('TOTAL_RECALL_COLD_STORAGE_DIR', {
    default: ({ dataDir }) => join(dataDir, 'cold-storage'),
    shown: '.data/cold-storage',
    description:
      'where shutdown writes its export (the only place: `shutdown(coldStorageDir:)` must name this directory ' +
      'or be omitted)',
  }),
  logLevel: settings.choice('TOTAL_RECALL_LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'], {
    default: 'info',
    description: 'the least severe log line written',
  }),
  logFormat: settings.choice('TOTAL_RECALL_LOG_FORMAT', ['json', 'pretty'], {
    default: ({ env }) => (env.NODE_ENV === 'production' ? 'json' : 'pretty'),
    shown: '`json` with `NODE_ENV=production`, else `pretty`',
    description: 'log lines as JSON objects (pino) or as readable text',
  }),
} as const;
