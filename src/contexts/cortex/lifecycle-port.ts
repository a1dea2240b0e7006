/**
 * The Lifecycle Port: a mind instance starts a session, moves between modes,
 * logs decisions, ends the session (and is asked what it refuses to lose), and
 * a new process resumes where the last one stopped. Every call is checked here
 * and sent to the session actor as a typed command; reads go to it directly.
 */
import { admit } from './admission.js';
import {
  isStoreBound,
  mayReach,
  requireWrite,
  sortableId,
  storeFor,
  type Bus,
  type MemoryRecord,
  type SessionEndCause,
  type WorkingMode,
} from '../../domain/index.js';
import { memoriesById } from './memory-queries.js';
import type { Caller } from './memory-port.js';
import { noOpenSession, type Sessions } from './sessions.js';
import type { NotificationInbox } from './notification-inbox.js';
import type { DecisionRecord, NotificationRecord, SessionRecord } from './session-records.js';
import { AUDIT_PROMPT } from '../../domain/index.js';
import {
  namedStore,
  DEFAULT_AUDIT_LIMIT,
  checkOwnInstance,
  optionalText,
  requireName,
  requireText,
  validateLimit,
  validateSessionId,
  visibleTo,
} from './session-rules.js';

export interface StartSessionArgs {
  readonly id?: string | null;
  readonly instanceId: string;
  readonly mindType: string;
  readonly store?: string | null;
  readonly task?: string | null;
  readonly project?: string | null;
}

export interface SessionAudit {
  readonly session: SessionRecord;
  readonly prompt: string;
  readonly memoriesStored: number;
  readonly unclaimed: readonly MemoryRecord[];
}

export interface ResumeState {
  readonly session: SessionRecord | null;
  readonly identity: readonly MemoryRecord[];
  readonly activeContext: readonly MemoryRecord[];
}

export interface LifecyclePortDeps {
  readonly bus: Bus;
  readonly sessions: Sessions;
  readonly inbox: NotificationInbox;
  readonly defaultStore: string;
  readonly accepting: () => boolean;
  readonly clock?: () => number;
}

/** How many memories resume returns per tier. */
export const RESUME_IDENTITY_LIMIT = 200;
export const RESUME_ACTIVE_LIMIT = 50;

export class LifecyclePort {
  constructor(private readonly deps: LifecyclePortDeps) {}

  private init(caller: Caller, sessionId: string | null = caller.sessionId) {
    return { instanceId: caller.instanceId, sessionId, correlationId: caller.correlationId };
  }

  /** The instance named by the call, which a self-named caller may only name as itself. */
  private instance(instanceId: string, caller: Caller): string {
    const name = requireName(instanceId, 'instanceId');
    checkOwnInstance(caller.instanceId, name);
    return name;
  }

  /**
   * Before a change on an instance's open session: a caller bound to some
   * stores may not touch a session of another store (it is as if none were open).
   */
  private async ownSession(instanceId: string, caller: Caller): Promise<void> {
    requireWrite(caller.access);
    if (!isStoreBound(caller.access)) return;
    const open = await this.deps.sessions.open(instanceId);
    if (open && !mayReach(caller.access, open.store)) throw noOpenSession(instanceId);
  }

  async startSession(args: StartSessionArgs, caller: Caller): Promise<SessionRecord> {
    admit(this.deps.accepting);
    requireWrite(caller.access);
    const instanceId = this.instance(args.instanceId, caller);
    // The session actor ends (CRASH) only an open session of this same store, in the start's transaction.
    const store = storeFor(caller.access, namedStore(args.store), this.deps.defaultStore);
    const now = (this.deps.clock ?? Date.now)();
    const sessionId = args.id === null || args.id === undefined ? sortableId('ses', now) : validateSessionId(args.id);
    const data = {
      sessionId,
      instanceId,
      mindType: requireName(args.mindType, 'mindType'),
      store: requireName(store, 'store'),
      task: optionalText(args.task, 'task'),
      project: optionalText(args.project, 'project'),
    };
    return this.deps.bus.ask(
      this.deps.bus.message('SessionStart', data, 'cortex', this.init({ ...caller, instanceId }, sessionId)),
    );
  }

  async transition(
    instanceId: string,
    mode: WorkingMode,
    task: string | null | undefined,
    context: unknown,
    caller: Caller,
  ): Promise<SessionRecord> {
    admit(this.deps.accepting);
    const name = this.instance(instanceId, caller);
    await this.ownSession(name, caller);
    const data = { instanceId: name, mode, task: optionalText(task, 'task'), context: context ?? null };
    return this.deps.bus.ask(
      this.deps.bus.message('StateTransition', data, 'cortex', this.init({ ...caller, instanceId: name })),
    );
  }

  async logDecision(
    instanceId: string,
    text: string,
    rationale: string | null | undefined,
    caller: Caller,
  ): Promise<DecisionRecord> {
    admit(this.deps.accepting);
    const name = this.instance(instanceId, caller);
    await this.ownSession(name, caller);
    const now = (this.deps.clock ?? Date.now)();
    const data = {
      instanceId: name,
      decisionId: sortableId('dec', now),
      text: requireText(text, 'text'),
      rationale: optionalText(rationale, 'rationale', 4000),
    };
    return this.deps.bus.ask(
      this.deps.bus.message('LogDecision', data, 'cortex', this.init({ ...caller, instanceId: name })),
    );
  }

  /** Ends the open session and answers with its audit: what will fade unless claimed. */
  async endSession(
    instanceId: string,
    cause: SessionEndCause,
    reason: string | null | undefined,
    caller: Caller,
  ): Promise<SessionAudit> {
    admit(this.deps.accepting);
    const name = this.instance(instanceId, caller);
    await this.ownSession(name, caller);
    const data = { instanceId: name, cause, reason: optionalText(reason, 'reason', 4000) };
    const session = await this.deps.bus.ask(
      this.deps.bus.message('SessionEnd', data, 'cortex', this.init({ ...caller, instanceId: name })),
    );
    if (!session) throw noOpenSession(name); // only a guarded (timer) end answers null
    return this.audit(session);
  }

  async audit(session: SessionRecord): Promise<SessionAudit> {
    const { stored, unclaimedIds } = await this.deps.sessions.memories(session.id, DEFAULT_AUDIT_LIMIT);
    const byId = new Map((await memoriesById(this.deps.bus, unclaimedIds)).map((m) => [m.id, m]));
    const unclaimed = unclaimedIds.flatMap((id) => byId.get(id) ?? []);
    return { session, prompt: AUDIT_PROMPT, memoriesStored: stored, unclaimed };
  }

  // ── reads ─────────────────────────────────────────────────────────────────

  async session(id: string, caller: Caller): Promise<SessionRecord | null> {
    admit(this.deps.accepting);
    const session = await this.deps.sessions.get(id);
    return session && visibleTo(caller.instanceId, session) && mayReach(caller.access, session.store) ? session : null;
  }

  async sessions(
    store: string | null | undefined,
    instanceId: string | null | undefined,
    limit: number,
    caller: Caller,
  ): Promise<SessionRecord[]> {
    admit(this.deps.accepting);
    const name = instanceId ? this.instance(instanceId, caller) : caller.instanceId;
    return this.deps.sessions.list(this.store(store, caller), name, validateLimit(limit));
  }

  /**
   * What a new process needs to pick up where the last one stopped: the newest
   * session of the store (of the instance, when named), the identity core and
   * the active context.
   */
  async resume(
    store: string | null | undefined,
    instanceId: string | null | undefined,
    caller: Caller,
  ): Promise<ResumeState> {
    admit(this.deps.accepting);
    const storeName = this.store(store, caller);
    const name = instanceId ? this.instance(instanceId, caller) : caller.instanceId;
    const [session] = await this.deps.sessions.list(storeName, name, 1);
    const [identity, activeContext] = await Promise.all([
      this.memoriesIn(storeName, 'IDENTITY_CORE', RESUME_IDENTITY_LIMIT),
      this.memoriesIn(storeName, 'ACTIVE_CONTEXT', RESUME_ACTIVE_LIMIT),
    ]);
    return { session: session ?? null, identity, activeContext };
  }

  /** Bounded: a session logs decisions without end, and this field is read under every session of a list. */
  decisions(sessionId: string, limit: number): Promise<DecisionRecord[]> {
    return this.deps.sessions.decisions(sessionId, validateLimit(limit));
  }

  async memoriesStored(sessionId: string): Promise<number> {
    return (await this.deps.sessions.memories(sessionId, 1)).stored;
  }

  async notifications(
    instanceId: string,
    after: string | null | undefined,
    caller: Caller,
  ): Promise<NotificationRecord[]> {
    admit(this.deps.accepting);
    const list = await this.deps.inbox.list(this.instance(instanceId, caller), after ?? null);
    return list.filter((n) => this.mayRead(n, caller));
  }

  /** A caller bound to some stores sees only its stores' notifications. */
  private mayRead(notification: NotificationRecord, caller: Caller): boolean {
    return !isStoreBound(caller.access) || (notification.store !== null && mayReach(caller.access, notification.store));
  }

  /** The store a call names (the caller's own when it names none); FORBIDDEN outside the caller's stores. */
  private store(named: string | null | undefined, caller: Caller): string {
    return storeFor(caller.access, namedStore(named), this.deps.defaultStore);
  }

  async listen(
    instanceId: string,
    after: string | null | undefined,
    caller: Caller,
  ): Promise<AsyncIterableIterator<NotificationRecord>> {
    admit(this.deps.accepting);
    const feed = await this.deps.inbox.listen(this.instance(instanceId, caller), after ?? null);
    return isStoreBound(caller.access) ? filtered(feed, (n) => this.mayRead(n, caller)) : feed;
  }

  private async memoriesIn(
    store: string,
    tier: 'IDENTITY_CORE' | 'ACTIVE_CONTEXT',
    limit: number,
  ): Promise<MemoryRecord[]> {
    const ids = await this.deps.sessions.tierMemberIds(store, tier, limit);
    const byId = new Map((await memoriesById(this.deps.bus, ids)).map((m) => [m.id, m]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }
}

/** The records of a feed that pass `keep`; closing it closes the feed. */
function filtered<T>(feed: AsyncIterableIterator<T>, keep: (item: T) => boolean): AsyncIterableIterator<T> {
  const it: AsyncIterableIterator<T> = {
    async next() {
      for (;;) {
        const step = await feed.next();
        if (step.done || keep(step.value)) return step;
      }
    },
    return: async (value?: unknown) => (feed.return ? feed.return(value) : { done: true, value: undefined as T }),
    throw: async (error?: unknown) => (feed.throw ? feed.throw(error) : Promise.reject(error)),
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}
