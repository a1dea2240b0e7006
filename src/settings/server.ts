/** How the service serves: where it listens, who it admits, and what one request may ask for. */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { GAP_WAIT_MS, settings } from '../domain/index.js';

/** An embedding job's tries and first backoff when no setting says otherwise. */
export const EMBEDDING_JOB_RETRY = { attempts: 3, backoffMs: 2000 } as const;

const MAX_CONCURRENT = settings.integer('TOTAL_RECALL_MAX_CONCURRENT', {
  default: 8,
  description: 'admission control per serving process: operations at once (beyond the queue: `BUSY`)',
});

export const SERVER_SETTINGS = {
  host: settings.text('HOST', {
    default: '127.0.0.1',
    description: 'where GraphQL and MCP (`/mcp`) listen',
  }),
  port: settings.integer('PORT', {
    default: 4000,
    min: 0,
    max: 65535,
    description: 'the port GraphQL and MCP listen on (`0`: a free port, named in the `GraphQL ready at …` line)',
  }),
  nodeEnv: settings.text('NODE_ENV', {
    default: '',
    description: '`development`: GraphQL introspection and field suggestions; `production`: JSON log lines by default',
  }),
  maxConcurrent: MAX_CONCURRENT,
  maxQueued: settings.integer('TOTAL_RECALL_MAX_QUEUED', {
    default: 16,
    description: 'operations waiting for admission',
  }),
  maxWaitMs: settings.integer('TOTAL_RECALL_MAX_QUEUE_WAIT_MS', {
    default: 1000,
    unit: 'ms',
    description: 'longest wait for admission',
  }),
  maxPerCaller: settings.integer('TOTAL_RECALL_MAX_CONCURRENT_PER_TOKEN', {
    default: (context) => Math.max(1, Math.floor(MAX_CONCURRENT.read(context.env[MAX_CONCURRENT.env], context) / 4)),
    shown: 'a quarter of `TOTAL_RECALL_MAX_CONCURRENT` (`2`)',
    description:
      'GraphQL requests one token may have in a serving process at once (from authentication on; more wait ' +
      'behind its own), and admission slots it may hold; one only, while another caller has been active within ' +
      'the last second; it may also fill at most half of either queue, so one caller cannot take the process ' +
      'from the others (see Overload below)',
  }),
  auth: settings.choice('TOTAL_RECALL_AUTH', ['on', 'off', 'auto'], {
    default: 'auto',
    description:
      '`on`: every request needs a token; `off`: none does (refused unless `HOST` is loopback); `auto`: on when ' +
      'any token exists at start (`npm start` makes one, so it is on)',
  }),
  operatorTokenFile: settings.path('TOTAL_RECALL_OPERATOR_TOKEN_FILE', {
    default: ({ dataDir }) => join(dataDir, 'operator.token'),
    shown: '.data/operator.token',
    description: 'where `npm start` keeps the operator token it makes (mode 0600)',
  }),
  rateLimitPerMinute: settings.integer('TOTAL_RECALL_RATE_LIMIT_PER_MINUTE', {
    default: 6000,
    unit: 'requests',
    description: 'requests per token per minute, counted in Redis (then `429 RATE_LIMITED`)',
  }),
  poolAcquisitionMs: settings.integer('TOTAL_RECALL_POOL_ACQUISITION_MS', {
    default: 1000,
    unit: 'ms',
    description:
      'a request waiting this long for a Neo4j connection is answered `UNAVAILABLE` (retryable); background ' +
      'work keeps waiting up to 30 s',
  }),
  maxBodyBytes: settings.integer('TOTAL_RECALL_MAX_BODY_BYTES', {
    default: 32 * 1024 * 1024,
    unit: 'bytes',
    shown: '`33554432` (32 MiB)',
    description: 'largest request body (then `413 PAYLOAD_TOO_LARGE`)',
  }),
  maxDepth: settings.integer('TOTAL_RECALL_MAX_DEPTH', {
    default: 8,
    description: "graphql-armor's limit on one operation's depth",
  }),
  maxAliases: settings.integer('TOTAL_RECALL_MAX_ALIASES', {
    default: 15,
    description: "graphql-armor's limit on one operation's aliases",
  }),
  maxTokens: settings.integer('TOTAL_RECALL_MAX_TOKENS', {
    default: 2000,
    description: "graphql-armor's limit on one operation's tokens",
  }),
  maxCost: settings.integer('TOTAL_RECALL_MAX_COST', {
    default: 5000,
    description: "graphql-armor's limit on one operation's cost",
  }),
  maxDirectives: settings.integer('TOTAL_RECALL_MAX_DIRECTIVES', {
    default: 20,
    description: "graphql-armor's limit on one operation's directives",
  }),
  requestConcurrency: settings.integer('TOTAL_RECALL_REQUEST_CONCURRENCY', {
    default: 4,
    description: 'port calls one request runs at once: its share of the 64-connection Neo4j pool',
  }),
  introspection: settings.flag('TOTAL_RECALL_INTROSPECTION', {
    default: ({ env }) => env.NODE_ENV === 'development',
    shown: 'on with `NODE_ENV=development`, else off',
    description: 'GraphQL introspection (field suggestions follow `NODE_ENV=development` too)',
  }),
  backgroundGapWaitMs: settings.integer('TOTAL_RECALL_BACKGROUND_GAP_WAIT_MS', {
    default: GAP_WAIT_MS,
    min: 0,
    unit: 'ms',
    description:
      'while requests run, background work (embedding, linking) starts each piece just after a request ends, so ' +
      'that it does not run beside the next; it waits this long for such a gap at most (`0`: it never waits for ' +
      'one; [write path](docs/write-path.md))',
  }),
  allowedHosts: settings.list('TOTAL_RECALL_ALLOWED_HOSTS', {
    description: 'comma list of Host names served besides loopback names and `HOST`',
  }),
} as const;

export const EMBEDDING_SETTINGS = {
  enabled: settings.flag('TOTAL_RECALL_EMBEDDINGS', {
    default: true,
    description:
      '`off`: no model is loaded and nothing is embedded (client vectors are still stored); `npm start` then ' +
      'fetches no model',
  }),
  modelDir: settings.path('TOTAL_RECALL_MODEL_DIR', {
    default: ({ dataDir }) => join(dataDir, 'models', 'e5-small-v2-q'),
    shown: '.data/models/e5-small-v2-q',
    description: 'where `model.onnx` and `tokenizer.json` are read from (and fetched to)',
  }),
  batchSize: settings.integer('TOTAL_RECALL_EMBEDDING_BATCH', {
    default: 64,
    unit: 'memories',
    description:
      'memories per embedding job and per backfill page (64 rather than 32: fewer Neo4j round trips per ' +
      'vector, `bench/results/embeddings.md`)',
  }),
  threads: settings.integer('TOTAL_RECALL_EMBEDDING_THREADS', {
    default: 1,
    description: 'CPU threads of one inference, in each model thread',
  }),
  workers: settings.integer('TOTAL_RECALL_EMBEDDING_WORKERS', {
    default: () => Math.min(2, availableParallelism()),
    shown: '`2` (or 1 on a 1-core machine)',
    description:
      "model threads, each holding the model: a search's question goes to the first free one; memories are " +
      'spread over all of them while no request has run for 250 ms, and over one while requests run, so ' +
      'background embedding leaves a core to searches and stores ([write path](docs/write-path.md))',
  }),
  busyShare: settings.decimal('TOTAL_RECALL_EMBEDDING_BUSY_SHARE', {
    default: 0.2,
    min: 0,
    max: 1,
    above: true,
    description:
      'while requests run, embedding memories takes at most this share of the time: after a sub-batch of t ms the ' +
      'next waits t × (1 − share) / share, or until requests stop, and catches up after (`1`: one model thread, ' +
      'never waiting; ' +
      '[write path](docs/write-path.md))',
  }),
  busyBatch: settings.integer('TOTAL_RECALL_EMBEDDING_BUSY_BATCH', {
    default: 2,
    min: 1,
    unit: 'memories',
    description:
      'memories per model run while requests run (16 otherwise): a run of two takes about 15 ms and fits between ' +
      'two requests, where one of 16 (about 100 ms) would overlap the next ones ' +
      '([write path](docs/write-path.md))',
  }),
  busyWriteBatch: settings.integer('TOTAL_RECALL_EMBEDDING_BUSY_WRITE', {
    default: 8,
    min: 1,
    unit: 'vectors',
    description:
      "vectors per write while requests run (a job's whole batch otherwise), each write in a gap between requests " +
      '([write path](docs/write-path.md))',
  }),
  retryMs: settings.integer('TOTAL_RECALL_MODEL_RETRY_MS', {
    default: 60_000,
    unit: 'ms',
    description: 'how often a missing model is looked for again',
  }),
  jobAttempts: settings.integer('TOTAL_RECALL_EMBEDDING_JOB_ATTEMPTS', {
    default: EMBEDDING_JOB_RETRY.attempts,
    description: 'tries of an embedding job before its memories are marked failed (see Embeddings)',
  }),
  jobBackoffMs: settings.integer('TOTAL_RECALL_EMBEDDING_JOB_BACKOFF_MS', {
    default: EMBEDDING_JOB_RETRY.backoffMs,
    unit: 'ms',
    description: "first delay before a failed embedding job's next try (then doubling)",
  }),
} as const;
