/** What resolvers get per request: the ports they may call and who is asking. */
import type { Access, MemoryRecord, ProgressEntry } from '../../domain/index.js';
import type {
  AssociationPort,
  Caller,
  LifecyclePort,
  MemoryPort,
  RecallPort,
  ReflectionPort,
} from '../../contexts/cortex/index.js';
import type { QueueStatus, ShutdownReport } from '../../contexts/subconscious/index.js';
import type { StoreEmbeddingProgress } from '../../contexts/hippocampus/index.js';

export interface HealthReport {
  readonly neo4j: boolean;
  readonly redis: boolean;
  readonly version: string;
  readonly memories: number;
  readonly accepting: boolean;
  /** "ready", "loading", "disabled" or "missing: <reason>" (then recall is lexical only). */
  readonly embeddings: string;
  /** What works less well right now and what that means for callers, one line each; empty when all is up. */
  readonly degraded: readonly string[];
  /** Long operations of this process (ProgressBoard.list, with their share done). */
  readonly progress: readonly (ProgressEntry & { readonly share: number | null })[];
}

export interface Ports {
  readonly memory: MemoryPort;
  readonly recall: RecallPort;
  readonly associations: AssociationPort;
  /** Reflect sessions: open one, walk its candidates, answer each. */
  readonly reflection: ReflectionPort;
  /** The score decayed to now (Salience's read model). */
  readonly salienceOf: (memory: MemoryRecord) => number;
  /** `memories` counts the stores `access` reaches (all without one). */
  readonly health: (access?: Access) => Promise<HealthReport>;
  /** Sessions, decisions, resume and notifications. */
  readonly lifecycle: LifecyclePort;
  /**
   * Embedding progress per store: the stores `access` reaches, each listed (all without one: those with work waiting or
   * failed).
   */
  readonly embeddingProgress: (access?: Access) => Promise<readonly StoreEmbeddingProgress[]>;
  /** The background queues (depths, schedules; last runs in full for an operator or without `access`). */
  readonly background: { status(access?: Access): Promise<QueueStatus[]> };
  /** Runs the shutdown protocol (once; later calls get the same report). */
  readonly shutdown: (coldStorageDir: string | null) => Promise<ShutdownReport>;
}

export interface GraphQLContext {
  readonly ports: Ports;
  readonly caller: Caller;
}
