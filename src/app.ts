/**
 * The composition root: one Neo4j driver, one bus, the contexts wired to it. Each piece is built once,
 * complete, in dependency order (src/app/: core, embeddings, background, ports); the GraphQL server and the
 * background worker are built from the result.
 */
import type { Driver } from 'neo4j-driver';
import { lineLogger, type Bus, type Logger, type ProgressBoard } from './domain/index.js';
import type { GraphPort } from './domain/index.js';
import type { Hippocampus } from './contexts/hippocampus/index.js';
import type { Sessions } from './contexts/cortex/index.js';
import type { ShutdownReport, Subconscious } from './contexts/subconscious/index.js';
import type { BullJobs } from './adapters/bullmq/index.js';
import type { ColdStorage } from './adapters/cold-storage/index.js';
import { mechanicalStrength, type Synapse } from './contexts/synapse/index.js';
import { Recall, type RecallDeps } from './contexts/recall/index.js';
import { currentSalience, type Salience } from './contexts/salience/index.js';
import type { Config } from './config.js';
import type { Ports } from './adapters/graphql/index.js';
import { QUIET_MS, RequestActivity } from './adapters/request-activity.js';
import type { Embedder } from './adapters/embeddings/index.js';
import type { EmbeddingQueue } from './adapters/bullmq/embedding-queue.js';
import { Authenticator, TokenStore } from './adapters/auth/index.js';
import { TokenRateLimit } from './adapters/auth/rate-limit.js';
import type { ServerOptions } from './adapters/graphql/http-server.js';
import { createLogger, useProcessLogger } from './adapters/logger.js';
import { buildCore, connect } from './app/core.js';
import { buildEmbeddings } from './app/embeddings.js';
import { buildBackground } from './app/background.js';
import { buildPorts } from './app/ports.js';

export { degradedParts } from './app/ports.js';

export interface App {
  readonly config: Config;
  readonly driver: Driver;
  readonly graph: GraphPort;
  readonly bus: Bus;
  readonly hippocampus: Hippocampus;
  readonly salience: Salience;
  readonly synapse: Synapse;
  /** The service's Recall (its caches: `reload` after memories were written past this process). */
  readonly recall: Recall;
  /** The local embedding model (a state, never a crash: see `health.embeddings`). */
  readonly embedder: Embedder;
  /** Whether this process serves requests right now: its servers mark them, background work yields to them. */
  readonly activity: RequestActivity;
  /** The `embeddings` queue and worker (null when embeddings are off). */
  readonly embeddings: EmbeddingQueue | null;
  readonly sessions: Sessions;
  readonly subconscious: Subconscious;
  /** The Subconscious's BullMQ queues (and, with `workers`, its workers). */
  readonly jobs: BullJobs;
  readonly coldStorage: ColdStorage;
  readonly ports: Ports;
  /** What the service's Recall is built from: benchmarks and tests build variants of it. */
  readonly recallDeps: RecallDeps;
  /**
   * Waits until work behind earlier answers (recall records, bus messages) has landed: tests and benchmarks
   * count nodes after it.
   */
  settle(): Promise<void>;
  /** API tokens (hashed in Neo4j). */
  readonly tokens: TokenStore;
  /** How a server of this app admits callers: the auth mode (auto decided now, once), rate limit and limits. */
  serverOptions(): Promise<
    ServerOptions & { readonly authenticator: Authenticator; readonly activity: RequestActivity }
  >;
  /** Progress of this process's long operations (health.progress, the CLI's bars). */
  readonly progress: ProgressBoard;
  accepting: boolean;
  /** The shutdown protocol; the report says what was done (run once). */
  shutdown(coldStorageDir?: string | null): Promise<ShutdownReport>;
  close(): Promise<void>;
}

export interface AppOptions {
  readonly clock?: () => number;
  /** Apply constraints and indexes at start (default true). */
  readonly applySchema?: boolean;
  /** Run the background workers and job schedulers in this process (default false: API only). */
  readonly workers?: boolean;
  /** Run the embedding worker in this process (default: as `workers`; benchmarks embed without the other jobs). */
  readonly embeddingWorker?: boolean;
  /** Every line to one function (tests: `() => undefined`); without it the app logs with pino (config.log). */
  readonly log?: (line: string) => void;
  /** The logger to use (src/main.ts passes the one it announces with). */
  readonly logger?: Logger;
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const clock = options.clock ?? Date.now;
  const logger = options.logger ?? (options.log ? lineLogger(options.log) : createLogger(config.log));
  useProcessLogger(logger);
  const { driver, building } = await connect(config, options.applySchema !== false, logger);
  // Whether requests run: background work (model threads, linking) yields to them and fills the gaps between them.
  const activity = new RequestActivity(QUIET_MS, Date.now, config.backgroundGapWaitMs);
  const core = buildCore(config, driver, clock, logger, activity, building);
  const { graph, bus, progress, hippocampus, synapse } = core;
  const embedding = buildEmbeddings(
    config,
    core,
    activity,
    options.embeddingWorker ?? options.workers === true,
    logger,
  );
  const { embedder, embeddings } = embedding;
  const recallDeps: RecallDeps = {
    graph,
    bus,
    clock,
    salienceOf: (m, now) => currentSalience(m, now, config.salience),
    activate: (store, seeds, types) => synapse.activate(store, seeds, { types }),
    // Lexical recall whenever the model is not ready (health says why).
    embedQuery: async (text) =>
      embedder.status().state === 'ready' ? ((await embedder.embed([text], 'query'))[0] ?? null) : null,
    vectors: { dimensions: config.embeddingDimensions },
    // Reflect candidates' near-duplicates: the strength from which consolidation would merge them.
    duplicateStrength: mechanicalStrength(config.subconscious.consolidationMinSimilarity),
    log: logger.warn,
  };
  const recall = new Recall(recallDeps).register();
  // Shutdown closes every port at once: they all ask this before taking work.
  const admission = { accepting: true };
  const accepting = () => admission.accepting;
  const background = buildBackground(config, {
    core,
    embeddings: embedding,
    recall,
    stopAccepting: () => {
      admission.accepting = false;
    },
    clock,
    logger,
    load: activity,
  });
  const { inbox, jobs, live, coldStorage, subconscious, protocol } = background;
  const ports = buildPorts(config, { core, embeddings: embedding, background, accepting, clock });
  const tokens = new TokenStore(graph, clock);

  const app: App = {
    config,
    driver,
    graph,
    bus,
    hippocampus,
    salience: core.salience,
    synapse,
    recall,
    embedder,
    activity,
    embeddings,
    sessions: core.sessions,
    subconscious,
    jobs,
    coldStorage,
    get accepting() {
      return admission.accepting;
    },
    set accepting(value: boolean) {
      admission.accepting = value;
    },
    progress,
    ports,
    recallDeps,
    tokens,
    async settle() {
      await recall.flush();
      await bus.idle();
    },
    async serverOptions() {
      return {
        authenticator: await Authenticator.resolve(config.security.auth, tokens),
        rateLimit: await TokenRateLimit.connect(
          config.redisUrl,
          `${config.subconscious.queuePrefix}:rate`,
          config.security.rateLimitPerMinute,
        ),
        limits: config.security.limits,
        activity,
      };
    },
    shutdown: (dir = null) => protocol.run(dir),
    async close() {
      admission.accepting = false;
      inbox.close();
      await jobs.close();
      await recall.flush();
      await bus.idle();
      await synapse.close();
      await embeddings?.close();
      await embedder.close();
      await live.close();
      await coldStorage.close();
      core.indexes.stop();
      await driver.close();
    },
  };
  // Older memories get their tier label, off the start-up path (the Browser's colours only).
  if (options.applySchema !== false) {
    void hippocampus.labelTiers().then(
      (n) => n > 0 && logger.info(`hippocampus: gave ${n} older memories their tier label`),
      (error: unknown) => logger.warn(`hippocampus: tier labels not applied: ${(error as Error).message}`),
    );
  }
  if (options.workers) {
    await subconscious.schedule();
    await jobs.work(subconscious.run);
    // At start: what the last crash left unfinished (the schedule repeats it).
    void subconscious.reconcile().then(
      (done) =>
        Object.values(done).some((n) => n > 0) && logger.info(`reconciliation at start: ${JSON.stringify(done)}`),
      (error: Error) => logger.warn(`reconciliation at start: ${error.message}`),
    );
  }
  return app;
}
