/**
 * The Memory Port: what a mind may ask of its memory, from any adapter
 * (GraphQL today). Cortex turns each call into a typed command or query and
 * sends it to the context that owns the answer.
 */
import { admit } from './admission.js';
import {
  InvalidInputError,
  isReadOnly,
  isStoreBound,
  mayReach,
  NotFoundError,
  reachOf,
  requireWrite,
  storeFor,
  type Access,
  type Bus,
  type MemoryEventRecord,
  type MemoryRecord,
  type MergeStrategy,
  type StoreRequest,
} from '../../domain/index.js';
import { consolidatedFrom, memoriesById, memoryById, memoryEvents, memoryHistory } from './memory-queries.js';
import { checkOwnInstance } from './session-rules.js';
import type { Stored, ForgetOutcome } from '../../domain/index.js';

/** Who is asking: carried into every message's envelope. */
export interface Caller {
  readonly instanceId: string | null;
  readonly sessionId: string | null;
  readonly correlationId?: string;
  /** What the caller's token lets it reach; absent = everything (authentication off, internal callers). */
  readonly access?: Access;
  /** One request's shared state (an adapter that serves requests sets it); absent = every call on its own. */
  readonly request?: RequestScope;
}

/**
 * What the calls of one request share: reads by id are made once (aliases of
 * one memory count as one access), and the accesses they record are written
 * only when the whole request succeeded (a read that fails writes nothing).
 */
export class RequestScope {
  readonly reads = new Map<string, Promise<MemoryRecord | null>>();
  private readonly pending: (() => Promise<unknown>)[] = [];

  /** Work to do once the request has succeeded. */
  afterSuccess(work: () => Promise<unknown>): void {
    this.pending.push(work);
  }

  /** Runs the deferred work (the adapter calls this when the request had no error). */
  async commit(): Promise<void> {
    const work = this.pending.splice(0);
    await Promise.all(work.map((w) => w()));
  }

  discard(): void {
    this.pending.length = 0;
  }
}

export interface MemoryPortDeps {
  readonly bus: Bus;
  readonly defaultStore: string;
  readonly accepting: () => boolean;
  readonly clock?: () => number;
  /**
   * Cortex's sessions: a call from an instance is activity on its open session; a named session's owner decides
   * whether a caller naming an instance may store into it.
   */
  readonly sessions?: SessionActivity & SessionOwners;
}

/** A session's store, and the instance it is open for (null once it has ended). */
export interface SessionOwner {
  readonly store: string;
  readonly openInstance: string | null;
}

/** Cortex's sessions as far as store() needs the ones it names: their stores and open instances, in one read. */
export interface SessionOwners {
  ownersOf(ids: readonly string[]): Promise<ReadonlyMap<string, SessionOwner>>;
}

/** Cortex's sessions as far as a check of a named session needs them: the store of each that exists. */
export interface SessionStores {
  storesOf(ids: readonly string[]): Promise<ReadonlyMap<string, string>>;
}

/** Cortex's sessions as far as the ports need them: named sessions' stores, and activity on an open session. */
export interface SessionActivity extends SessionStores {
  open(instanceId: string): Promise<{ readonly id: string; readonly store: string } | null>;
  markActive(instanceId: string, everyMs: number): Promise<void>;
}

/** The caller's open session, read and not touched (a reader stores nothing into one): that session, or null. */
export function openSessionOf(
  sessions: SessionActivity | undefined,
  caller: Caller,
): Promise<{ readonly id: string; readonly store: string } | null> {
  if (!sessions || !caller.instanceId || isReadOnly(caller.access)) return Promise.resolve(null);
  return sessions.open(caller.instanceId);
}

/**
 * A call from an instance is activity on its open session (an idle one times out), marked once the call has
 * succeeded: a refused one changes nothing. At most once per `everyMs` (0: every call). Best effort: the call is
 * answered, and a change committed, so a failed mark must not turn it into an error a client would retry; the next
 * call marks it. A reader touches nothing.
 */
export async function touchOpenSession(
  sessions: SessionActivity | undefined,
  caller: Caller,
  everyMs = 0,
): Promise<void> {
  if (!sessions || !caller.instanceId || isReadOnly(caller.access)) return;
  await sessions.markActive(caller.instanceId, everyMs).catch(() => undefined);
}

export const foreignSession = (sessionId: string, what: string) =>
  new InvalidInputError('CORTEX.FOREIGN_SESSION', `sessionId ${sessionId} is not a session of ${what}`, { sessionId });

/**
 * The session a caller names itself with (x-session-id) is written into what its change records (events, a
 * consolidated memory): one of a store the caller may not reach is refused, as store() refuses it. A read of one
 * store (`read`) records it too: there a session of any other store is refused, before anything is read. One no
 * store knows passes: an agent may name its session before it stores anything, as `store` allows.
 */
export async function checkCallerSession(
  sessions: SessionStores | undefined,
  caller: Caller,
  read: string | null = null,
): Promise<void> {
  const { sessionId } = caller;
  if (!sessionId || !sessions || (read === null && !isStoreBound(caller.access))) return;
  const store = (await sessions.storesOf([sessionId])).get(sessionId);
  if (store === undefined) return;
  if (read !== null && store !== read) throw foreignSession(sessionId, `store "${read}"`);
  if (!mayReach(caller.access, store)) throw foreignSession(sessionId, 'a store this token may reach');
}

/** What an unknown id gets; a memory of a store the caller may not reach gets the same. */
export const memoryNotFound = (id: string) =>
  new NotFoundError('HIPPOCAMPUS.MEMORY_NOT_FOUND', `no memory with id ${id}`, { id });

export class MemoryPort {
  constructor(private readonly deps: MemoryPortDeps) {}

  /** The gate, then the caller's open session, read (null for a reader or a caller naming no instance). */
  private async enter(caller: Caller): Promise<{ readonly id: string; readonly store: string } | null> {
    admit(this.deps.accepting);
    return openSessionOf(this.deps.sessions, caller);
  }

  /** The answer of a call that succeeded, after marking the caller's session active. */
  private async active<T>(caller: Caller, answer: Promise<T>): Promise<T> {
    const result = await answer;
    await touchOpenSession(this.deps.sessions, caller);
    return result;
  }

  private meta(caller: Caller) {
    return { instanceId: caller.instanceId, sessionId: caller.sessionId, correlationId: caller.correlationId };
  }

  /** The store a call acts on (the caller's own when it names none); FORBIDDEN outside the caller's stores. */
  storeName(store: string | null | undefined, access?: Access): string {
    return storeFor(access, store, this.deps.defaultStore);
  }

  /**
   * Refuses ids the caller may not reach as if they did not exist (a store-bound
   * caller learns nothing about other stores); unknown ids are left to the command.
   */
  async checkReach(ids: readonly string[], caller: Caller): Promise<void> {
    if (!isStoreBound(caller.access) || ids.length === 0) return;
    for (const memory of await memoriesById(this.deps.bus, [...new Set(ids)], this.meta(caller))) {
      if (!mayReach(caller.access, memory.store)) throw memoryNotFound(memory.id);
    }
  }

  async store(memories: readonly StoreRequest[], caller: Caller): Promise<Stored[]> {
    admit(this.deps.accepting);
    requireWrite(caller.access);
    const placed = memories.map((m) =>
      isStoreBound(caller.access) ? { ...m, store: this.storeName(m.store, caller.access) } : m,
    );
    // What an instance stores while it has an open session belongs to that session
    // (a memory of another store does not).
    const open = await this.enter(caller);
    const stamped = placed.map((m) => {
      const sessionId =
        m.sessionId ?? caller.sessionId ?? (open && open.store === this.storeName(m.store) ? open.id : null);
      return sessionId === null || m.sessionId ? m : { ...m, sessionId };
    });
    await this.checkSessions(stamped, caller);
    return this.active(
      caller,
      this.deps.bus.ask(
        this.deps.bus.message(
          'StoreCommand',
          { memories: stamped },
          'cortex',
          this.meta({ ...caller, sessionId: caller.sessionId ?? open?.id ?? null }),
        ),
      ),
    );
  }

  /**
   * A memory may only join a session of its own store. And (invariant 8) a caller that names an instance (header or
   * token) stores nothing into another instance's open session, named by argument or header: its end would list the
   * memories as that instance's own. A caller naming none (an operator, an import) may; a session of a store the
   * caller may not reach is left to the store checks. One read for all of them: a storeMany of a long history names
   * many sessions.
   */
  private async checkSessions(memories: readonly StoreRequest[], caller: Caller): Promise<void> {
    const { sessions } = this.deps;
    const byId = new Map<string, string>();
    for (const m of memories)
      if (typeof m.sessionId === 'string' && m.sessionId.trim() !== '')
        byId.set(m.sessionId.trim(), this.storeName(m.store));
    // The header's session, when every memory names its own.
    const header = caller.instanceId && caller.sessionId && !byId.has(caller.sessionId) ? [caller.sessionId] : [];
    if ((byId.size === 0 && header.length === 0) || !sessions) return;
    const owners = await sessions.ownersOf([...byId.keys(), ...header]);
    for (const [sessionId, store] of byId) {
      const owner = owners.get(sessionId);
      if (owner !== undefined && owner.store !== store) throw foreignSession(sessionId, `store "${store}"`);
    }
    for (const owner of owners.values())
      if (owner.openInstance !== null && mayReach(caller.access, owner.store))
        checkOwnInstance(caller.instanceId, owner.openInstance);
  }

  async claim(id: string, caller: Caller): Promise<MemoryRecord> {
    await this.writeTo([id], caller);
    return this.active(
      caller,
      this.deps.bus.ask(this.deps.bus.message('ClaimCommand', { id }, 'cortex', this.meta(caller))),
    );
  }

  async reclassify(id: string, tier: string, reason: string, metadata: unknown, caller: Caller): Promise<MemoryRecord> {
    await this.writeTo([id], caller);
    return this.active(
      caller,
      this.deps.bus.ask(
        this.deps.bus.message('ReclassifyCommand', { id, tier, reason, metadata }, 'cortex', this.meta(caller)),
      ),
    );
  }

  async consolidate(
    ids: readonly string[],
    strategy: MergeStrategy,
    content: string | null,
    caller: Caller,
  ): Promise<MemoryRecord> {
    // No reach check here: Hippocampus answers a memory out of reach exactly as an unknown one (code and details).
    await this.writeTo([], caller);
    const reach = reachOf(caller.access);
    return this.active(
      caller,
      this.deps.bus.ask(
        this.deps.bus.message('ConsolidateCommand', { ids, strategy, content, reach }, 'cortex', this.meta(caller)),
      ),
    );
  }

  async forget(id: string, confirmId: string, reason: string, caller: Caller): Promise<ForgetOutcome> {
    await this.writeTo([id], caller);
    return this.active(
      caller,
      this.deps.bus.ask(this.deps.bus.message('ForgetCommand', { id, confirmId, reason }, 'cortex', this.meta(caller))),
    );
  }

  /**
   * The checks before a change by id: accepting, a token that may write, memories and a named session the caller
   * may reach.
   */
  private async writeTo(ids: readonly string[], caller: Caller): Promise<void> {
    admit(this.deps.accepting);
    requireWrite(caller.access);
    await this.checkReach(ids, caller);
    await checkCallerSession(this.deps.sessions, caller);
  }

  /**
   * `memory(id)`: a read by id, which counts as an access (a reader's is not
   * recorded). Null when unknown (or in a store the caller may not reach).
   * Within one request the memory is read once, and its access is recorded
   * once the request has succeeded.
   */
  async memory(id: string, caller: Caller): Promise<MemoryRecord | null> {
    const scope = caller.request;
    if (!scope) return this.readAndAccess(id, caller);
    const known = scope.reads.get(id);
    if (known) return known;
    const read = this.readDeferred(id, caller, scope);
    scope.reads.set(id, read);
    return read;
  }

  /** Records an access (a write: Hippocampus admits it only while it takes writes). */
  private access(id: string, caller: Caller): Promise<MemoryRecord> {
    return this.deps.bus.ask(this.deps.bus.message('AccessCommand', { id }, 'cortex', this.meta(caller)));
  }

  private async readAndAccess(id: string, caller: Caller): Promise<MemoryRecord | null> {
    admit(this.deps.accepting);
    if (isReadOnly(caller.access)) return this.readUncounted(id, caller);
    return this.active(caller, this.accessUnlessMissing(id, caller));
  }

  private async accessUnlessMissing(id: string, caller: Caller): Promise<MemoryRecord | null> {
    try {
      await this.checkReach([id], caller);
      return await this.access(id, caller);
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  private async readDeferred(id: string, caller: Caller, scope: RequestScope): Promise<MemoryRecord | null> {
    admit(this.deps.accepting);
    const memory = await this.active(caller, this.readUncounted(id, caller));
    // A reader writes nothing: its read is answered, not counted.
    if (!memory || isReadOnly(caller.access)) return memory;
    const at = (this.deps.clock ?? Date.now)();
    scope.afterSuccess(() =>
      this.access(id, caller).catch((error: unknown) => {
        // Forgotten in between: nothing to count.
        if (!(error instanceof NotFoundError)) throw error;
      }),
    );
    // The answer shows the access it is about to record.
    return { ...memory, accessCount: memory.accessCount + 1, lastAccessedAt: at };
  }

  /** The memory as it is, recording nothing; null when unknown or out of the caller's reach. */
  private async readUncounted(id: string, caller: Caller): Promise<MemoryRecord | null> {
    const memory = await memoryById(this.deps.bus, id, this.meta(caller));
    return memory && mayReach(caller.access, memory.store) ? memory : null;
  }

  async events(
    store: string | null | undefined,
    after: string | null,
    limit: number,
    caller?: Caller,
  ): Promise<MemoryEventRecord[]> {
    const data = { store: this.storeName(store, caller?.access), after, limit };
    return memoryEvents(this.deps.bus, data, caller ? this.meta(caller) : {});
  }

  async history(id: string, limit: number): Promise<MemoryEventRecord[]> {
    return memoryHistory(this.deps.bus, id, limit);
  }

  async consolidatedFrom(id: string, caller?: Caller): Promise<MemoryRecord[]> {
    const originals = await consolidatedFrom(this.deps.bus, id, caller ? this.meta(caller) : {});
    return originals.filter((m) => mayReach(caller?.access, m.store));
  }
}
