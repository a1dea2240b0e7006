/**
 * The last layer: the ports every adapter (GraphQL, MCP) calls, over the contexts built before them.
 * Each port checks `accepting` first, so shutdown closes them all at once.
 */
import { resolve } from 'node:path';
import {
  InvalidInputError,
  isStoreBound,
  mayReach,
  progressShare,
  UnavailableError,
  type Access,
  type ProgressEntry,
} from '../domain/index.js';
import { OUTAGE_RETRY_AFTER_MS } from '../adapters/outage.js';
import { AssociationPort, LifecyclePort, MemoryPort, RecallPort, ReflectionPort } from '../contexts/cortex/index.js';
import { SCHEDULED_KINDS, type QueueStatus } from '../contexts/subconscious/index.js';
import { currentSalience } from '../contexts/salience/index.js';
import type { HealthReport, Ports } from '../adapters/graphql/index.js';
import { pingRedis } from '../adapters/redis.js';
import { describeEmbedder } from '../adapters/embeddings/index.js';
import type { Config } from '../config.js';
import type { Core } from './core.js';
import type { Embeddings } from './embeddings.js';
import type { Background } from './background.js';

/** How long health waits for each backing service. */
const HEALTH_MS = 1000;

/** Health's `degraded`: each part that is not fully up, and what callers get meanwhile. */
export function degradedParts(up: {
  neo4j: boolean;
  redis: boolean;
  embeddings: string;
  building?: readonly string[];
}): string[] {
  const lines: string[] = [];
  if (!up.neo4j) lines.push('neo4j: unreachable; requests fail with UNAVAILABLE (retryable) until it is back');
  if (!up.redis)
    lines.push(
      'redis: unreachable; stores and searches go on, embeddings, jobs and live notifications wait ' +
        '(the reconciliation re-queues from Neo4j once it is back)',
    );
  if (up.embeddings !== 'ready' && up.embeddings !== 'disabled')
    lines.push(`embeddings: ${up.embeddings}; recall is lexical only`);
  for (const index of up.building ?? [])
    lines.push(
      `neo4j: the ${index} index is being built (health.progress says how far); stores too large to keep in ` +
        'process are searched by words, people, dates and associations until it is online',
    );
  return lines;
}

/** Health must answer even when Redis does not. */
function withTimeout<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([
    work.catch(() => fallback),
    new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms).unref()),
  ]);
}

export interface PortNeeds {
  readonly core: Core;
  readonly embeddings: Embeddings;
  readonly background: Background;
  readonly accepting: () => boolean;
  readonly clock: () => number;
}

/**
 * The long operations a caller may see: an operator every one; a store-bound caller those of its own stores and
 * those naming none (an index build). A backfill over several stores names them joined by commas.
 */
export function progressSeenBy(entries: readonly ProgressEntry[], access?: Access): ProgressEntry[] {
  return entries.filter((p) => p.store === null || p.store.split(',').every((store) => mayReach(access, store)));
}

/**
 * The queues as a caller may see them: depths and schedules are the service's own, but a last run can name other
 * stores (a sweep's result, an error) or their sessions (a timer's job id), so a store-bound caller sees only when
 * a scheduled job last ran and how it went; an operator sees everything.
 */
export function queuesSeenBy(queues: readonly QueueStatus[], access?: Access): QueueStatus[] {
  if (!isStoreBound(access)) return [...queues];
  const scheduled = (kind: string) => (SCHEDULED_KINDS as readonly string[]).includes(kind);
  return queues.map((q) => ({
    ...q,
    lastRun: q.lastRun && scheduled(q.name) ? { ...q.lastRun, result: null, error: null } : null,
  }));
}

export function buildPorts(config: Config, needs: PortNeeds): Ports {
  const { core, accepting, clock } = needs;
  const { bus, graph, hippocampus, sessions, progress } = core;
  const { inbox, jobs, protocol } = needs.background;
  const { embedder } = needs.embeddings;
  const defaultStore = config.defaultStore;
  const memory = new MemoryPort({ bus, sessions, defaultStore, accepting, clock });
  const lifecycle = new LifecyclePort({ bus, sessions, inbox, defaultStore, accepting, clock });
  const recallPort = new RecallPort({ bus, sessions, defaultStore, accepting, sessionIdleMs: config.sessionIdleMs });
  const associations = new AssociationPort({ bus, sessions, accepting });
  const reflection = new ReflectionPort({
    bus,
    graph,
    recall: recallPort,
    memory,
    associations,
    sessions,
    defaultStore,
    accepting,
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
      accepting: accepting(),
      embeddings: embeddingState,
      degraded: degradedParts({
        neo4j: memories !== null,
        redis,
        embeddings: embeddingState,
        building: core.indexes.building(),
      }),
      progress: progressSeenBy(progress.list(), access).map((p) => ({ ...p, share: progressShare(p) })),
    };
  };
  return {
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
      status: async (access) => {
        if (!(await pingRedis(config.redisUrl, HEALTH_MS)))
          throw new UnavailableError('redis', 'unreachable', OUTAGE_RETRY_AFTER_MS);
        return queuesSeenBy(await withTimeout(jobs.status(), 2000, [] as QueueStatus[]), access);
      },
    },
    shutdown: (dir) => {
      // Exports go only to the configured directory: a caller cannot choose where every store is written.
      if (dir !== null && resolve(dir) !== resolve(config.coldStorageDir)) {
        return Promise.reject(
          new InvalidInputError(
            'ADMIN.PATH_NOT_ALLOWED',
            'shutdown writes cold storage only to the configured directory (TOTAL_RECALL_COLD_STORAGE_DIR); ' +
              'omit coldStorageDir',
          ),
        );
      }
      return protocol.run(null);
    },
  };
}
