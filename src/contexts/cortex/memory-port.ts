/**
 * The Memory Port: what a mind may ask of its memory, from any adapter
 * (GraphQL today). Cortex turns each call into a typed command or query and
 * sends it to the context that owns the answer.
 */
import {
  message,
  newMeta,
  NotFoundError,
  ShuttingDownError,
  type Bus,
  type MemoryEventRecord,
  type MemoryRecord,
  type MergeStrategy,
  type StoreRequest,
} from '../../domain/index.js';
import type { Hippocampus, Stored, ForgetOutcome } from '../hippocampus/index.js';

/** Who is asking: carried into every message's envelope. */
export interface Caller {
  readonly instanceId: string | null;
  readonly sessionId: string | null;
  readonly correlationId?: string;
}

export interface MemoryPortDeps {
  readonly bus: Bus;
  readonly hippocampus: Hippocampus;
  readonly defaultStore: string;
  readonly accepting: () => boolean;
}

export class MemoryPort {
  constructor(private readonly deps: MemoryPortDeps) {}

  private gate(): void {
    if (!this.deps.accepting()) throw new ShuttingDownError();
  }

  private meta(caller: Caller) {
    return { instanceId: caller.instanceId, sessionId: caller.sessionId, correlationId: caller.correlationId };
  }

  storeName(store: string | null | undefined): string {
    return store ?? this.deps.defaultStore;
  }

  async store(memories: readonly StoreRequest[], caller: Caller): Promise<Stored[]> {
    this.gate();
    return this.deps.bus.ask(message('StoreCommand', { memories }, 'cortex', this.meta(caller)));
  }

  async claim(id: string, caller: Caller): Promise<MemoryRecord> {
    this.gate();
    return this.deps.bus.ask(message('ClaimCommand', { id }, 'cortex', this.meta(caller)));
  }

  async reclassify(id: string, tier: string, reason: string, metadata: unknown, caller: Caller): Promise<MemoryRecord> {
    this.gate();
    return this.deps.bus.ask(message('ReclassifyCommand', { id, tier, reason, metadata }, 'cortex', this.meta(caller)));
  }

  async consolidate(ids: readonly string[], strategy: MergeStrategy, content: string | null, caller: Caller): Promise<MemoryRecord> {
    this.gate();
    return this.deps.bus.ask(message('ConsolidateCommand', { ids, strategy, content }, 'cortex', this.meta(caller)));
  }

  async forget(id: string, confirmId: string, reason: string, caller: Caller): Promise<ForgetOutcome> {
    this.gate();
    return this.deps.bus.ask(message('ForgetCommand', { id, confirmId, reason }, 'cortex', this.meta(caller)));
  }

  /** `memory(id)`: a read by id, which counts as an access. Null when unknown. */
  async memory(id: string, caller: Caller): Promise<MemoryRecord | null> {
    this.gate();
    try {
      return await this.deps.hippocampus.access(id, newMeta('cortex', this.meta(caller)));
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  async events(store: string | null | undefined, after: string | null, limit: number): Promise<MemoryEventRecord[]> {
    return this.deps.hippocampus.events(this.storeName(store), after, limit);
  }

  async history(id: string, limit: number): Promise<MemoryEventRecord[]> {
    return this.deps.hippocampus.history(id, limit);
  }

  async consolidatedFrom(id: string): Promise<MemoryRecord[]> {
    return this.deps.hippocampus.consolidatedFrom(id);
  }
}
