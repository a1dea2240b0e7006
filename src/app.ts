/**
 * The composition root: one Neo4j driver, one bus, the contexts wired to it.
 * The GraphQL server and the background worker are built from this.
 */
import type { Driver } from 'neo4j-driver';
import { resolve } from 'node:path';
import { Bus, InvalidInputError, ProgressBoard, progressShare, UnavailableError, type Access } from './domain/index.js';
import { OUTAGE_RETRY_AFTER_MS } from './adapters/outage.js';
import { createDriver, Neo4jGraph, applySchema, waitForNeo4j, type GraphPort } from './adapters/neo4j/index.js';
import { Hippocampus, storeGroupSettings } from './contexts/hippocampus/index.js';
import {
  AssociationPort,
  LifecyclePort,
  MemoryPort,
  NotificationInbox,
  RecallPort,
  ReflectionPort,
  Sessions,
} from './contexts/cortex/index.js';
import {
  ShutdownProtocol,
  Subconscious,
  type QueueStatus,
  type ShutdownReport,
} from './contexts/subconscious/index.js';
import { BullJobs } from './adapters/bullmq/index.js';
import { RedisLiveChannel } from './adapters/redis-live.js';
import { ColdStorage } from './adapters/cold-storage/index.js';
import { Synapse, mechanicalStrength } from './contexts/synapse/index.js';
import { Recall, type RecallDeps } from './contexts/recall/index.js';
import { currentSalience, Salience } from './contexts/salience/index.js';
import type { Config } from './config.js';
import type { HealthReport, Ports } from './adapters/graphql/index.js';
import { pingRedis } from './adapters/redis.js';
import { RequestActivity } from './adapters/request-activity.js';
import { DisabledEmbedder, ThreadedEmbedder, describeEmbedder, type Embedder } from './adapters/embeddings/index.js';
import { EmbeddingQueue } from './adapters/bullmq/embedding-queue.js';
import { Authenticator, TokenStore } from './adapters/auth/index.js';
import { TokenRateLimit } from './adapters/auth/rate-limit.js';
import type { ServerOptions } from './adapters/graphql/http-server.js';

export interface App {
  readonly config: Config;
  readonly driver: Driver;
  readonly graph: GraphPort;
  readonly bus: Bus;
  readonly hippocampus: Hippocampus;
  readonly salience: Salience;
  readonly synapse: Synapse;
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
  /** Waits until work behind earlier answers (recall records, bus messages) has landed: tests and benchmarks count nodes after it. */
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
  readonly log?: (line: string) => void;
}

/** How long health waits for each backing service. */
const HEALTH_MS = 1000;

/** Health's `degraded`: each part that is not fully up, and what callers get meanwhile. */
export function degradedParts(up: { neo4j: boolean; redis: boolean; embeddings: string }): string[] {
  const lines: string[] = [];
  if (!up.neo4j) lines.push('neo4j: unreachable; requests fail with UNAVAILABLE (retryable) until it is back');
  if (!up.redis)
    lines.push(
      'redis: unreachable; stores and searches go on, embeddings, jobs and live notifications wait (the reconciliation re-queues from Neo4j once it is back)',
    );
  if (up.embeddings !== 'ready' && up.embeddings !== 'disabled')
    lines.push(`embeddings: ${up.embeddings}; recall is lexical only`);
  return lines;
}

/** Health must answer even when Redis does not. */
function withTimeout<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([
    work.catch(() => fallback),
    new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms).unref()),
  ]);
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const clock = options.clock ?? Date.now;
  const driver = createDriver(
    config.neo4j.uri,
    config.neo4j.user,
    config.neo4j.password,
    config.security.poolAcquisitionMs,
  );
  try {
    const say = options.log ?? ((line: string) => console.error(line));
    await waitForNeo4j(driver, config.neo4j.database, config.connectWaitMs, say);
    if (options.applySchema !== false) await applySchema(driver, config.neo4j.database);
  } catch (error) {
    await driver.close(); // a process that cannot start leaves no connection behind
    throw error;
  }

  const graph = new Neo4jGraph(driver, config.neo4j.database);
  const bus = new Bus({ clock });
  const progress = new ProgressBoard(clock);
  bus.onFailure((error, message, actor) => console.error(`[${actor}] failed on ${message.type}:`, error));
  const hippocampus = new Hippocampus({
    graph,
    bus,
    limits: config,
    clock,
    linking: config.synapse.mechanicalLinking,
    groupCommit: storeGroupSettings(config.storeGroupMax),
  }).register();
  const salience = new Salience({ graph, bus, config: config.salience, clock, progress }).register();
  const synapse = new Synapse({
    graph,
    bus,
    settings: config.synapse,
    clock,
    linkingThread: config.synapse.linkingThread ? config.neo4j : null,
  }).register();
  // Vectors are computed off the request path, and yield to requests; a missing model leaves recall lexical.
  const activity = new RequestActivity();
  const { embeddings: emb } = config;
  const embedder: Embedder = emb.enabled
    ? new ThreadedEmbedder({
        dir: emb.modelDir,
        dimensions: config.embeddingDimensions,
        threads: emb.threads,
        workers: emb.workers,
        busy: () => activity.busy(),
        retryMs: emb.retryMs,
        log: options.log,
      })
    : new DisabledEmbedder();
  const embeddings = emb.enabled
    ? new EmbeddingQueue({
        redisUrl: config.redisUrl,
        prefix: config.subconscious.queuePrefix,
        stores: config.scopeStores,
        embedder,
        target: hippocampus,
        batchSize: emb.batchSize,
        runWorker: options.embeddingWorker ?? options.workers === true,
        log: options.log,
        progress,
      }).subscribe(bus)
    : null;
  if (embedder instanceof ThreadedEmbedder) void embedder.start();

  const log = options.log ?? ((line: string) => console.error(line));
  const sessions = new Sessions({ graph, bus, clock }).register();
  const live = new RedisLiveChannel(config.redisUrl, `${config.subconscious.queuePrefix}:notifications`, log);
  const inbox = new NotificationInbox({ graph, bus, live, clock });
  const sub = config.subconscious;
  const jobs = new BullJobs({
    redisUrl: config.redisUrl,
    prefix: sub.queuePrefix,
    attempts: sub.jobAttempts,
    backoffMs: sub.jobBackoffMs,
    lockMs: sub.jobLockMs,
    stalledIntervalMs: sub.stalledIntervalMs,
    log,
  });
  const subconscious = new Subconscious({
    bus,
    graph,
    jobs,
    notifications: inbox,
    settings: { ...sub, sessionIdleMs: config.sessionIdleMs, scopeStores: config.scopeStores },
    // Neo4j is the source of truth: what a crash lost from a queue or a thread is found there again.
    reconcilers: [
      { name: 'links', run: async (before, stores) => (await synapse.relinkPending(before, stores)).relinked },
      ...(embeddings ? [{ name: 'embeddings', run: (before: number) => embeddings.requeueStalled(before) }] : []),
    ],
    clock,
    progress,
  }).register();
  const coldStorage = new ColdStorage({
    neo4j: config.neo4j,
    stores: config.scopeStores,
    service: `total-recall ${config.version}`,
    progress,
  });
  const protocol = new ShutdownProtocol({
    bus,
    jobs,
    coldStorage,
    stopAccepting: () => {
      app.accepting = false;
    },
    defaultDir: config.coldStorageDir,
    drainTimeoutMs: sub.drainTimeoutMs,
    drains: embeddings ? [{ name: 'embeddings worker', run: () => embeddings.close() }] : [],
    flushes: [{ name: 'Recall', run: () => recall.flush() }],
    log,
  });

  const app: App = {
    config,
    driver,
    graph,
    bus,
    hippocampus,
    salience,
    synapse,
    embedder,
    activity,
    embeddings,
    sessions,
    subconscious,
    jobs,
    coldStorage,
    accepting: true,
    progress,
    ports: undefined as unknown as Ports,
    recallDeps: {
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
      duplicateStrength: mechanicalStrength(sub.consolidationMinSimilarity),
      log,
    },
    tokens: new TokenStore(graph, clock),
    async settle() {
      await recall.flush();
      await bus.idle();
    },
    async serverOptions() {
      return {
        authenticator: await Authenticator.resolve(config.security.auth, app.tokens),
        rateLimit: new TokenRateLimit(
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
      app.accepting = false;
      inbox.close();
      await jobs.close();
      await recall.flush();
      await bus.idle();
      await synapse.close();
      await embeddings?.close();
      await embedder.close();
      await live.close();
      await coldStorage.close();
      await driver.close();
    },
  };
  const memory = new MemoryPort({
    bus,
    sessions,
    defaultStore: config.defaultStore,
    accepting: () => app.accepting,
    clock,
  });
  const lifecycle = new LifecyclePort({
    bus,
    sessions,
    inbox,
    defaultStore: config.defaultStore,
    accepting: () => app.accepting,
    clock,
  });
  const recall = new Recall(app.recallDeps).register();
  const recallPort = new RecallPort({
    bus,
    defaultStore: config.defaultStore,
    accepting: () => app.accepting,
  });
  const associations = new AssociationPort({ bus, accepting: () => app.accepting });
  const reflection = new ReflectionPort({
    bus,
    graph,
    recall: recallPort,
    memory,
    associations,
    defaultStore: config.defaultStore,
    accepting: () => app.accepting,
    clock,
  });
  const health = async (access?: Access): Promise<HealthReport> => {
    // Health answers within about a second whatever is down, and says what that costs.
    // Memories are counted in the caller's stores only (an operator's: all of them).
    const counted = hippocampus.count(access?.stores ?? null);
    const [memories, redis] = await Promise.all([
      withTimeout(counted, HEALTH_MS, null as number | null),
      pingRedis(config.redisUrl, HEALTH_MS),
    ]);
    const embeddingState = describeEmbedder(embedder.status());
    return {
      neo4j: memories !== null,
      redis,
      version: config.version,
      memories: memories ?? 0,
      accepting: app.accepting,
      embeddings: embeddingState,
      degraded: degradedParts({ neo4j: memories !== null, redis, embeddings: embeddingState }),
      progress: progress.list().map((p) => ({ ...p, share: progressShare(p) })),
    };
  };
  (app as { ports: Ports }).ports = {
    memory,
    recall: recallPort,
    associations,
    reflection,
    salienceOf: (m) => currentSalience(m, clock(), config.salience),
    health,
    // An operator's access names no stores: every store with work waiting or failed.
    embeddingProgress: (access) => hippocampus.embeddingProgress(access?.stores ?? null),
    lifecycle,
    background: {
      // Queue depths live in Redis: without it, a typed UNAVAILABLE within a second, not an empty list.
      status: async () => {
        if (!(await pingRedis(config.redisUrl, HEALTH_MS)))
          throw new UnavailableError('redis', 'unreachable', OUTAGE_RETRY_AFTER_MS);
        return withTimeout(jobs.status(), 2000, [] as QueueStatus[]);
      },
    },
    shutdown: (dir) => {
      // Exports go only to the configured directory: a caller cannot choose where every store is written.
      if (dir !== null && resolve(dir) !== resolve(config.coldStorageDir)) {
        return Promise.reject(
          new InvalidInputError(
            'ADMIN.PATH_NOT_ALLOWED',
            'shutdown writes cold storage only to the configured directory (TOTAL_RECALL_COLD_STORAGE_DIR); omit coldStorageDir',
          ),
        );
      }
      return protocol.run(null);
    },
  };
  // Older memories get their tier label, off the start-up path (the Browser's colours only).
  if (options.applySchema !== false) {
    void hippocampus.labelTiers().then(
      (n) => n > 0 && log(`hippocampus: gave ${n} older memories their tier label`),
      (error: unknown) => log(`hippocampus: tier labels not applied: ${(error as Error).message}`),
    );
  }
  if (options.workers) {
    await subconscious.schedule();
    await jobs.work(subconscious.run);
    // At start: what the last crash left unfinished (the schedule repeats it).
    void subconscious.reconcile().then(
      (done) => Object.values(done).some((n) => n > 0) && log(`reconciliation at start: ${JSON.stringify(done)}`),
      (error: Error) => log(`reconciliation at start: ${error.message}`),
    );
  }
  return app;
}
