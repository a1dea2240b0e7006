/**
 * The second layer: the local model and its queue. Vectors are computed off the request path and yield to
 * requests; a missing model leaves recall lexical.
 */
import type { Logger } from '../domain/index.js';
import { DisabledEmbedder, ThreadedEmbedder, type Embedder } from '../adapters/embeddings/index.js';
import { EmbeddingQueue } from '../adapters/bullmq/embedding-queue.js';
import type { RequestActivity } from '../adapters/request-activity.js';
import type { Config } from '../config.js';
import type { Core } from './core.js';

export interface Embeddings {
  readonly embedder: Embedder;
  /** Null when embeddings are off. */
  readonly embeddings: EmbeddingQueue | null;
}

export function buildEmbeddings(
  config: Config,
  core: Core,
  activity: RequestActivity,
  runWorker: boolean,
  logger: Logger,
): Embeddings {
  const emb = config.embeddings;
  if (!emb.enabled) return { embedder: new DisabledEmbedder(), embeddings: null };
  const embedder = new ThreadedEmbedder({
    dir: emb.modelDir,
    dimensions: config.embeddingDimensions,
    threads: emb.threads,
    workers: emb.workers,
    load: activity,
    busyShare: emb.busyShare,
    busySubBatch: emb.busyBatch,
    retryMs: emb.retryMs,
    log: logger.info,
  });
  const embeddings = new EmbeddingQueue({
    redisUrl: config.redisUrl,
    prefix: config.subconscious.queuePrefix,
    stores: config.scopeStores,
    embedder,
    target: core.hippocampus,
    batchSize: emb.batchSize,
    retry: { attempts: emb.jobAttempts, backoffMs: emb.jobBackoffMs },
    runWorker,
    load: activity,
    busyWriteBatch: emb.busyWriteBatch,
    log: logger.info,
    progress: core.progress,
  }).subscribe(core.bus);
  void embedder.start();
  return { embedder, embeddings };
}
