/**
 * The reading half of the Memory Port: search, context packing, reflection
 * and usefulness feedback, sent on to Recall as queries and commands on the bus.
 */
import { admit } from './admission.js';
import {
  isReadOnly,
  reachOf,
  requireWrite,
  storeFor,
  type Bus,
  type OutcomeKind,
  type ReflectionScope,
  type SearchFilters,
} from '../../domain/index.js';
import type { Pack, RecallResult, ReflectCandidateWithActions, UseRecord } from '../../domain/index.js';
import { checkCallerSession, touchOpenSession, type Caller, type SessionActivity } from './memory-port.js';
import { namedStore } from './session-rules.js';
import { checkSessionScope, type SessionScope } from './session-scope.js';

/** The idle time after which a session times out, when the port is not told (config.sessionIdleMs). */
const DEFAULT_SESSION_IDLE_MS = 3_600_000;

/**
 * How often a recall marks its session active at most: a minute, or a tenth of the idle time after which a session
 * times out when that is shorter, so a session in use never looks idle.
 */
export function recallActivityEveryMs(sessionIdleMs: number): number {
  return Math.min(60_000, Math.floor(sessionIdleMs / 10));
}

export interface SearchArgs {
  readonly query: string;
  readonly store?: string | null;
  readonly limit?: number | null;
  readonly includeAssociations?: boolean | null;
  readonly minConfidence?: number | null;
  readonly tiers?: SearchFilters['tiers'];
  readonly from?: number | null;
  readonly to?: number | null;
  readonly tags?: readonly string[] | null;
  readonly people?: readonly string[] | null;
  readonly sessionId?: string | null;
}

export interface ContextArgs {
  readonly query: string;
  readonly store?: string | null;
  readonly sessionId?: string | null;
  readonly maxTokens: number;
  readonly maxItems?: number | null;
  readonly injectFloor?: number | null;
  readonly liveFloor?: number | null;
}

export interface RecallPortDeps {
  readonly bus: Bus;
  readonly defaultStore: string;
  readonly accepting: () => boolean;
  /**
   * Cortex's sessions: a session the caller names must be of a store it may reach, and one a read is scoped to of
   * the store read; a recall is activity on one.
   */
  readonly sessions?: SessionActivity & SessionScope;
  /** The idle time after which a session times out (config.sessionIdleMs); default an hour. */
  readonly sessionIdleMs?: number;
}

export class RecallPort {
  constructor(private readonly deps: RecallPortDeps) {}

  private init(caller: Caller) {
    return { instanceId: caller.instanceId, sessionId: caller.sessionId, correlationId: caller.correlationId };
  }

  /** The store a call reads (the caller's own when it names none); FORBIDDEN outside the caller's stores. */
  private store(named: string | null | undefined, caller: Caller): string {
    return storeFor(caller.access, namedStore(named), this.deps.defaultStore);
  }

  async search(args: SearchArgs, caller: Caller): Promise<RecallResult> {
    admit(this.deps.accepting);
    const store = this.store(args.store, caller);
    await checkCallerSession(this.deps.sessions, caller, store);
    await checkSessionScope(this.deps.sessions, args.sessionId, store);
    const request = {
      query: args.query,
      store,
      limit: args.limit ?? 10,
      includeAssociations: args.includeAssociations ?? true,
      minConfidence: args.minConfidence ?? null,
      filters: {
        tiers: args.tiers ?? null,
        from: args.from ?? null,
        to: args.to ?? null,
        tags: args.tags ?? null,
        people: args.people ?? null,
        sessionId: args.sessionId ?? null,
      },
      // A reader's recall is answered but not recorded: a reader token writes nothing.
      record: !isReadOnly(caller.access),
    };
    const result = await this.deps.bus.ask(this.deps.bus.message('SearchQuery', request, 'cortex', this.init(caller)));
    await this.markActive(caller);
    return result;
  }

  async contextFor(args: ContextArgs, caller: Caller): Promise<Pack & { recallId: string }> {
    admit(this.deps.accepting);
    const store = this.store(args.store, caller);
    await checkCallerSession(this.deps.sessions, caller, store);
    // The argument only, and not when it repeats the caller's own (the header, checked above for its store only):
    // that may name a session nothing was stored in yet, as `store` allows, and an agent passes it as "its current
    // session".
    if (args.sessionId !== caller.sessionId) await checkSessionScope(this.deps.sessions, args.sessionId, store);
    const sessionId = args.sessionId ?? caller.sessionId;
    const request = {
      query: args.query,
      store,
      limit: 100,
      includeAssociations: true,
      minConfidence: null,
      filters: { tiers: null, from: null, to: null, tags: null, people: null, sessionId: null },
      sessionId,
      maxTokens: args.maxTokens,
      maxItems: args.maxItems ?? 8,
      injectFloor: args.injectFloor ?? null,
      liveFloor: args.liveFloor ?? null,
      record: !isReadOnly(caller.access),
    };
    const pack = await this.deps.bus.ask(
      this.deps.bus.message('ContextQuery', request, 'cortex', { ...this.init(caller), sessionId }),
    );
    await this.markActive(caller);
    return pack;
  }

  /**
   * An instance that only recalls is still at work: its open session must not time out. Marked after the recall
   * answered, and seldom (recallActivityEveryMs): a write on every search would cost each one.
   */
  private markActive(caller: Caller): Promise<void> {
    const everyMs = recallActivityEveryMs(this.deps.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS);
    return touchOpenSession(this.deps.sessions, caller, everyMs);
  }

  async reflect(
    store: string | null | undefined,
    scope: ReflectionScope,
    timeSpanDays: number | null,
    limit: number,
    caller: Caller,
  ): Promise<ReflectCandidateWithActions[]> {
    admit(this.deps.accepting);
    const name = this.store(store, caller);
    return this.deps.bus.ask(
      this.deps.bus.message('ReflectQuery', { store: name, scope, timeSpanDays, limit }, 'cortex', this.init(caller)),
    );
  }

  async markUsed(
    recallId: string,
    memoryIds: readonly string[] | null,
    action: unknown,
    caller: Caller,
  ): Promise<UseRecord> {
    admit(this.deps.accepting);
    requireWrite(caller.access);
    await checkCallerSession(this.deps.sessions, caller);
    // Salience counts the use (MemoryUsed) like a read: it raises the score.
    const reach = reachOf(caller.access);
    return this.deps.bus.ask(
      this.deps.bus.message('MarkUsedCommand', { recallId, memoryIds, action, reach }, 'cortex', this.init(caller)),
    );
  }

  async reportOutcome(useId: string, outcome: OutcomeKind, note: string | null, caller: Caller): Promise<UseRecord> {
    admit(this.deps.accepting);
    requireWrite(caller.access);
    await checkCallerSession(this.deps.sessions, caller);
    const reach = reachOf(caller.access);
    return this.deps.bus.ask(
      this.deps.bus.message('ReportOutcomeCommand', { useId, outcome, note, reach }, 'cortex', this.init(caller)),
    );
  }
}
