/**
 * The third layer: background work on Redis (jobs, live notifications), the Subconscious that schedules it,
 * cold storage, and the shutdown protocol that ends it all.
 */
import type { Logger, RequestLoad } from '../domain/index.js';
import { NotificationInbox } from '../contexts/cortex/index.js';
import { ShutdownProtocol, Subconscious } from '../contexts/subconscious/index.js';
import type { Recall } from '../contexts/recall/index.js';
import { mechanicalStrength } from '../contexts/synapse/index.js';
import { BullJobs } from '../adapters/bullmq/index.js';
import { RedisLiveChannel } from '../adapters/redis-live.js';
import { ColdStorage } from '../adapters/cold-storage/index.js';
import type { Config } from '../config.js';
import type { Core } from './core.js';
import type { Embeddings } from './embeddings.js';

export interface Background {
  readonly live: RedisLiveChannel;
  readonly inbox: NotificationInbox;
  readonly jobs: BullJobs;
  readonly subconscious: Subconscious;
  readonly coldStorage: ColdStorage;
  readonly protocol: ShutdownProtocol;
}

export interface BackgroundNeeds {
  readonly core: Core;
  readonly embeddings: Embeddings;
  readonly recall: Recall;
  /** Called by the shutdown protocol: from then on every port refuses new work. */
  readonly stopAccepting: () => void;
  readonly clock: () => number;
  readonly logger: Logger;
  /** The process's requests: a checkpoint's reads keep to a share of the time while they run. */
  readonly load: RequestLoad;
}

export function buildBackground(config: Config, needs: BackgroundNeeds): Background {
  const { core, recall, logger, clock } = needs;
  const { bus, graph, progress, synapse } = core;
  const { embeddings } = needs.embeddings;
  const sub = config.subconscious;
  const live = new RedisLiveChannel(config.redisUrl, `${sub.queuePrefix}:notifications`, logger.warn);
  const inbox = new NotificationInbox({ graph, bus, live, clock });
  const jobs = new BullJobs({
    redisUrl: config.redisUrl,
    prefix: sub.queuePrefix,
    attempts: sub.jobAttempts,
    backoffMs: sub.jobBackoffMs,
    lockMs: sub.jobLockMs,
    stalledIntervalMs: sub.stalledIntervalMs,
    log: logger.warn,
  });
  const coldStorage = new ColdStorage({
    neo4j: config.neo4j,
    stores: config.scopeStores,
    service: `total-recall ${config.version}`,
    progress,
    load: needs.load,
  });
  const subconscious = new Subconscious({
    bus,
    graph,
    jobs,
    notifications: inbox,
    settings: { ...sub, sessionIdleMs: config.sessionIdleMs, scopeStores: config.scopeStores },
    duplicateStrength: mechanicalStrength(sub.consolidationMinSimilarity),
    // Neo4j is the source of truth: what a crash lost from a queue or a thread is found there again.
    reconcilers: [
      { name: 'links', run: async (before, stores) => (await synapse.relinkPending(before, stores)).relinked },
      ...(embeddings ? [{ name: 'embeddings', run: (before: number) => embeddings.requeueStalled(before) }] : []),
    ],
    clock,
    progress,
    fullExport: () => coldStorage.compact(),
    checkpoint: () => coldStorage.checkpoint(config.coldStorageDir),
  }).register();
  const protocol = new ShutdownProtocol({
    bus,
    jobs,
    coldStorage,
    stopAccepting: () => {
      coldStorage.stopBackground();
      needs.stopAccepting();
    },
    defaultDir: config.coldStorageDir,
    drainTimeoutMs: sub.drainTimeoutMs,
    drains: embeddings ? [{ name: 'embeddings worker', run: () => embeddings.close() }] : [],
    flushes: [{ name: 'Recall', run: () => recall.flush() }],
    log: logger.info,
  });
  return { live, inbox, jobs, subconscious, coldStorage, protocol };
}
