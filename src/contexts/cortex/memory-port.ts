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
  /** Cortex's sessions: a call from an instance is activity on its open session. */
  readonly sessions?: { touch(instanceId: string): Promise<string | null> };
}

export class MemoryPort {
  constructor(private readonly deps: MemoryPortDeps) {}

  private gate(): void {
    if (!this.deps.accepting()) throw new ShuttingDownError();
  }

  /** The gate, then activity on the caller's open session; that session's id (or null). */
  private async enter(caller: Caller): Promise<string | null> {
    this.gate();
    return caller.instanceId && this.deps.sessions ? this.deps.sessions.touch(caller.instanceId) : null;
  }

  private meta(caller: Caller) {
    return { instanceId: caller.instanceId, sessionId: caller.sessionId, correlationId: caller.correlationId };
  }

  storeName(store: string | null | undefined): string {
    return store ?? this.deps.defaultStore;
  }

  async store(memories: readonly StoreRequest[], caller: Caller): Promise<Stored[]> {
    // What an instance stores while it has an open session belongs to that session.
    const open = await this.enter(caller);
    const sessionId = caller.sessionId ?? open;
    const stamped = sessionId === null ? memories : memories.map((m) => (m.sessionId ? m : { ...m, sessionId }));
    return this.deps.bus.ask(message('StoreCommand', { memories: stamped }, 'cortex', this.meta({ ...caller, sessionId })));
  }

  async claim(id: string, caller: Caller): Promise<MemoryRecord> {
    await this.enter(caller);
    return this.deps.bus.ask(message('ClaimCommand', { id }, 'cortex', this.meta(caller)));
  }

  async reclassify(id: string, tier: string, reason: string, metadata: unknown, caller: Caller): Promise<MemoryRecord> {
    await this.enter(caller);
    return this.deps.bus.ask(message('ReclassifyCommand', { id, tier, reason, metadata }, 'cortex', this.meta(caller)));
  }

  async consolidate(ids: readonly string[], strategy: MergeStrategy, content: string | null, caller: Caller): Promise<MemoryRecord> {
    await this.enter(caller);
    return this.deps.bus.ask(message('ConsolidateCommand', { ids, strategy, content }, 'cortex', this.meta(caller)));
  }

  async forget(id: string, confirmId: string, reason: string, caller: Caller): Promise<ForgetOutcome> {
    await this.enter(caller);
    return this.deps.bus.ask(message('ForgetCommand', { id, confirmId, reason }, 'cortex', this.meta(caller)));
  }

  /** `memory(id)`: a read by id, which counts as an access. Null when unknown. */
  async memory(id: string, caller: Caller): Promise<MemoryRecord | null> {
    await this.enter(caller);
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
