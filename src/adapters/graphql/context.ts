/** What resolvers get per request: the ports they may call and who is asking. */
import type { MemoryRecord } from '../../domain/index.js';
import type { Caller, MemoryPort } from '../../contexts/cortex/index.js';

export interface HealthReport {
  readonly neo4j: boolean;
  readonly redis: boolean;
  readonly version: string;
  readonly memories: number;
  readonly accepting: boolean;
}

export interface Ports {
  readonly memory: MemoryPort;
  /** The score decayed to now (Salience's read model). */
  readonly salienceOf: (memory: MemoryRecord) => number;
  readonly health: () => Promise<HealthReport>;
}

export interface GraphQLContext {
  readonly ports: Ports;
  readonly caller: Caller;
}
