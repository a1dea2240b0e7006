/**
 * The composition root: one Neo4j driver, one bus, the contexts wired to it.
 * The GraphQL server and the background worker are built from this.
 */
import type { Driver } from 'neo4j-driver';
import { Bus, ProgressBoard, progressShare } from './domain/index.js';
import { createDriver, Neo4jGraph, applySchema, type GraphPort } from './adapters/neo4j/index.js';
import { Hippocampus } from './contexts/hippocampus/index.js';
import { AssociationPort, LifecyclePort, MemoryPort, NotificationInbox, RecallPort, ReflectionPort, Sessions } from './contexts/cortex/index.js';
import { ShutdownProtocol, Subconscious, type QueueStatus, type ShutdownReport } from './contexts/subconscious/index.js';
import { BullJobs } from './adapters/bullmq/index.js';
import { RedisLiveChannel } from './adapters/redis-live.js';
import { ColdStorage } from './adapters/cold-storage/index.js';
import { Synapse, mechanicalStrength } from './contexts/synapse/index.js';
import { Recall, ReflectionActions, type RecallDeps } from './contexts/recall/index.js';
import { currentSalience, Salience } from './contexts/salience/index.js';
import type { Config } from './config.js';
import type { HealthReport, Ports } from './adapters/graphql/index.js';
import { pingRedis } from './adapters/redis.js';
import { DisabledEmbedder, ThreadedEmbedder, describeEmbedder, type Embedder } from './adapters/embeddings/index.js';
import { EmbeddingQueue } from './adapters/bullmq/embedding-queue.js';

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

/** Health must answer even when Redis does not. */
function withTimeout<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([work.catch(() => fallback), new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms).unref())]);
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const clock = options.clock ?? Date.now;
  const driver = createDriver(config.neo4j.uri, config.neo4j.user, config.neo4j.password);
  await driver.verifyConnectivity({ database: config.neo4j.database });
  if (options.applySchema !== false) await applySchema(driver, config.neo4j.database);

  const graph = new Neo4jGraph(driver, config.neo4j.database);
  const bus = new Bus();
  const progress = new ProgressBoard(clock);
  bus.onFailure((error, message, actor) => console.error(`[${actor}] failed on ${message.type}:`, error));
  const hippocampus = new Hippocampus({ graph, bus, limits: config, clock }).register();
  const salience = new Salience({ graph, bus, config: config.salience, clock, progress }).register();
  const synapse = new Synapse({ graph, bus, settings: config.synapse, clock, linkingThread: config.synapse.linkingThread ? config.neo4j : null }).register();
  // Vectors are computed off the request path; a missing model leaves recall lexical.
  const { embeddings: emb } = config;
  const embedder: Embedder = emb.enabled
    ? new ThreadedEmbedder({ dir: emb.modelDir, dimensions: config.embeddingDimensions, threads: emb.threads, retryMs: emb.retryMs, log: options.log })
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
    clock,
    progress,
  }).register();
  const coldStorage = new ColdStorage({ neo4j: config.neo4j, stores: config.scopeStores, service: `total-recall ${config.version}`, progress });
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
      embedQuery: async (text) => (embedder.status().state === 'ready' ? ((await embedder.embed([text], 'query'))[0] ?? null) : null),
      vectors: { dimensions: config.embeddingDimensions },
      log,
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
  const memory = new MemoryPort({ bus, hippocampus, sessions, defaultStore: config.defaultStore, accepting: () => app.accepting });
  const lifecycle = new LifecyclePort({ bus, sessions, inbox, hippocampus, defaultStore: config.defaultStore, accepting: () => app.accepting, clock });
  const recall = new Recall(app.recallDeps).register();
  // Reflect candidates' near-duplicates: the strength from which consolidation would merge them.
  const actions = new ReflectionActions({ graph, rank: (r) => recall.rankOnly(r), duplicateStrength: mechanicalStrength(sub.consolidationMinSimilarity) });
  const recallPort = new RecallPort({ bus, recall, hippocampus, defaultStore: config.defaultStore, accepting: () => app.accepting, actions });
  const associations = new AssociationPort({ bus, synapse, hippocampus, accepting: () => app.accepting });
  const reflection = new ReflectionPort({ bus, graph, hippocampus, recall: recallPort, memory, associations, defaultStore: config.defaultStore, accepting: () => app.accepting, clock });
  const health = async (): Promise<HealthReport> => {
    const [neo4jUp, memories] = await hippocampus.count().then(
      (n) => [true, n] as const,
      () => [false, 0] as const,
    );
    return {
      neo4j: neo4jUp,
      redis: await pingRedis(config.redisUrl),
      version: config.version,
      memories,
      accepting: app.accepting,
      embeddings: describeEmbedder(embedder.status()),
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
    lifecycle,
    background: { status: () => withTimeout(jobs.status(), 2000, [] as QueueStatus[]) },
    shutdown: (dir) => protocol.run(dir),
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
  }
  return app;
}
