/**
 * Cortex's session actor: per-instance working state (mode, task, state,
 * decisions) kept as Session nodes. Lifecycle commands for one instance run
 * one at a time, in order; each change is written with its audit event in one
 * transaction and only then published (ModeChanged and SessionEnded drive the
 * Subconscious's timers).
 */
import {
  ConcurrentChangeError,
  InvalidInputError,
  parseJsonText,
  sortableId,
  type Bus,
  type LogDecision,
  type Meta,
  type SessionEnd,
  type SessionStart,
  type StateTransition,
  type Tier,
  type GraphPort,
  type Tx,
} from '../../domain/index.js';
import { Q } from './cypher.js';
import type { SessionOwner } from './memory-port.js';
import { toDecisionRecord, toSessionRecord, type DecisionRecord, type SessionRecord } from './session-records.js';
import { initialMode, validateState } from './session-rules.js';

export interface SessionsDeps {
  readonly graph: GraphPort;
  readonly bus: Bus;
  readonly clock?: () => number;
}

export interface SessionMemories {
  readonly stored: number;
  readonly unclaimedIds: readonly string[];
}

type Row = { session: Record<string, unknown> };

type StartArgs = SessionStart['data'];

/**
 * Whether a start repeats the one that opened `session`: a retry of it. The task is the one it started with
 * (`started`, its SessionStarted payload), as a transition may have changed it since.
 */
function sameStart(session: SessionRecord, started: unknown, args: StartArgs): boolean {
  const at = (typeof started === 'object' && started !== null ? started : {}) as { task?: unknown; project?: unknown };
  return (
    session.store === args.store &&
    session.instanceId === args.instanceId &&
    session.mindType === args.mindType &&
    ('task' in at ? at.task : session.task) === args.task &&
    ('project' in at ? at.project : session.project) === args.project
  );
}

/** Session ids are unique across stores: the refusal says nothing of the session that holds it. */
const idConflict = (id: string) => new InvalidInputError('CORTEX.ID_CONFLICT', `session id ${id} is taken`, { id });

/**
 * An instance name has one open session service-wide (the schema's openInstance constraint), so a start in
 * another store can neither open beside it nor end it; nothing else of it is told.
 */
const instanceInUse = (instanceId: string) =>
  new InvalidInputError(
    'CORTEX.INSTANCE_IN_USE',
    `instance "${instanceId}" has an open session in another store; start this one under another instanceId`,
    { instanceId },
  );

export const noOpenSession = (instanceId: string) =>
  new InvalidInputError(
    'CORTEX.NO_OPEN_SESSION',
    `instance "${instanceId}" has no open session; call startSession first`,
    { instanceId },
  );

const json = (value: unknown) => JSON.stringify(value);
const audit = (meta: Meta) => ({ commandId: meta.messageId, correlationId: meta.correlationId });

export class Sessions {
  private readonly graph: GraphPort;
  private readonly bus: Bus;
  private readonly clock: () => number;

  constructor(deps: SessionsDeps) {
    this.graph = deps.graph;
    this.bus = deps.bus;
    this.clock = deps.clock ?? Date.now;
  }

  /** Lifecycle commands of one instance keep their order (key = instance). */
  register(): this {
    const byInstance = (m: { data: { instanceId: string } }) => `instance:${m.data.instanceId}`;
    this.bus.handle('cortex', 'SessionStart', (m) => this.start(m), byInstance);
    this.bus.handle('cortex', 'SessionEnd', (m) => this.end(m), byInstance);
    this.bus.handle('cortex', 'StateTransition', (m) => this.transition(m), byInstance);
    this.bus.handle('cortex', 'LogDecision', (m) => this.logDecision(m), byInstance);
    return this;
  }

  // ── commands ──────────────────────────────────────────────────────────────

  /**
   * Opens a session. An instance has at most one open session: one still open
   * from before in the same store (its process died without ending it) ends
   * with cause CRASH; one of another store is left alone (INSTANCE_IN_USE).
   * A retried start (same id and arguments) returns the session it opened;
   * the same id with other arguments is ID_CONFLICT.
   */
  async start(command: SessionStart): Promise<SessionRecord> {
    const { sessionId, instanceId, store, mindType, task, project } = command.data;
    const now = this.clock();
    const mode = initialMode(task);
    const startEventId = sortableId('evt', now);
    const crashEventId = sortableId('evt', now);
    const outcome = await this.graph.transaction(async (tx) => {
      const [taken] = await tx.run<Row & { started: unknown }>(Q.startedSession, { id: sessionId });
      if (taken) {
        const session = toSessionRecord(taken.session);
        if (!sameStart(session, parseJsonText(taken.started), command.data)) throw idConflict(sessionId);
        return { session, crashed: null, created: false };
      }
      const open = await this.readOne(tx, Q.openSession, { instanceId });
      if (open && open.store !== store) throw instanceInUse(instanceId);
      let crashed: SessionRecord | null = null;
      if (open) {
        const ended = await tx.run<Row>(Q.endSession, {
          instanceId,
          guardSessionId: open.id,
          idleBefore: null,
          cause: 'CRASH',
          reason: 'a new session started for this instance',
          now,
          eventId: crashEventId,
          payload: json({ cause: 'CRASH', by: sessionId }),
          ...audit(command.meta),
        });
        crashed = ended[0] ? toSessionRecord(ended[0].session) : null;
      }
      const rows = await tx.run<Row & { created: boolean }>(Q.startSession, {
        session: { id: sessionId, store, instanceId, mindType, mode, task, project },
        now,
        eventId: startEventId,
        payload: json({ mindType, mode, task, project }),
        ...audit(command.meta),
      });
      const row = rows[0] as Row & { created: boolean };
      const session = toSessionRecord(row.session);
      // Another process opened this id in between: only a start like this one may share it.
      if (!row.created && !sameStart(session, null, command.data)) throw idConflict(sessionId);
      return { session, crashed, created: row.created };
    });
    const cause = { cause: command.meta, sessionId };
    if (outcome.crashed) this.publishEnded(outcome.crashed, command.meta, crashEventId);
    if (outcome.created) {
      const s = outcome.session;
      this.bus.publish(
        this.bus.message('SessionStarted', { sessionId, instanceId, store }, 'cortex', {
          ...cause,
          messageId: startEventId,
        }),
      );
      this.bus.publish(
        this.bus.message(
          'ModeChanged',
          { sessionId, instanceId, from: 'IDLE', to: s.mode, at: s.modeSince },
          'cortex',
          cause,
        ),
      );
    }
    return outcome.session;
  }

  /** Ends the instance's open session; a guarded (timer) end that no longer applies returns null. */
  async end(command: SessionEnd): Promise<SessionRecord | null> {
    const { instanceId, cause, reason } = command.data;
    const guard = command.data.guard ?? null;
    const now = this.clock();
    const eventId = sortableId('evt', now);
    const session = await this.graph.transaction(async (tx) => {
      const rows = await tx.run<Row>(Q.endSession, {
        instanceId,
        guardSessionId: guard?.sessionId ?? null,
        idleBefore: guard?.idleBefore ?? null,
        cause,
        reason,
        now,
        eventId,
        payload: json({ cause, reason }),
        ...audit(command.meta),
      });
      if (rows[0]) return toSessionRecord(rows[0].session);
      // A replay of a transaction that did commit finds its own event.
      return this.readOne(tx, Q.sessionOfEvent, { eventId });
    });
    if (!session) {
      if (guard) return null;
      throw noOpenSession(instanceId);
    }
    this.publishEnded(session, command.meta, eventId);
    return session;
  }

  async transition(command: StateTransition): Promise<SessionRecord> {
    const { instanceId, mode, task, context } = command.data;
    const state = validateState(context);
    const now = this.clock();
    const eventId = sortableId('evt', now);
    const { session, from } = await this.graph.transaction(async (tx) => {
      const open = await this.readOne(tx, Q.openSession, { instanceId });
      if (!open) {
        const replayed = await this.readOne(tx, Q.sessionOfEvent, { eventId });
        if (replayed) return { session: replayed, from: null };
        throw noOpenSession(instanceId);
      }
      const rows = await tx.run<Row>(Q.transitionSession, {
        instanceId,
        from: open.mode,
        mode,
        task,
        keepTask: task === null,
        state,
        now,
        eventId,
        payload: json({ from: open.mode, to: mode, task, stateChanged: state !== null }),
        ...audit(command.meta),
      });
      if (!rows[0]) throw new ConcurrentChangeError(`the mode of ${instanceId}'s session`, { instanceId });
      return { session: toSessionRecord(rows[0].session), from: open.mode };
    });
    const cause = { cause: command.meta, sessionId: session.id };
    this.bus.publish(
      this.bus.message(
        'StateTransitioned',
        { sessionId: session.id, instanceId, mode: session.mode, task: session.task },
        'cortex',
        { ...cause, messageId: eventId },
      ),
    );
    if (from !== null && from !== session.mode) {
      this.bus.publish(
        this.bus.message(
          'ModeChanged',
          { sessionId: session.id, instanceId, from, to: session.mode, at: session.modeSince },
          'cortex',
          cause,
        ),
      );
    }
    return session;
  }

  async logDecision(command: LogDecision): Promise<DecisionRecord> {
    const { instanceId, decisionId, text, rationale } = command.data;
    const now = this.clock();
    const eventId = sortableId('evt', now);
    const rows = await this.graph.write<{ decision: Record<string, unknown>; session: Record<string, unknown> }>(
      Q.logDecision,
      {
        instanceId,
        decision: { id: decisionId, text, rationale },
        now,
        eventId,
        ...audit(command.meta),
      },
    );
    const row = rows[0];
    if (!row) throw noOpenSession(instanceId);
    const session = toSessionRecord(row.session);
    this.bus.publish(
      this.bus.message(
        'DecisionLogged',
        { sessionId: session.id, instanceId, store: session.store, decisionId },
        'cortex',
        {
          cause: command.meta,
          sessionId: session.id,
          messageId: eventId,
        },
      ),
    );
    return toDecisionRecord(row.decision);
  }

  // ── reads ─────────────────────────────────────────────────────────────────

  async get(id: string): Promise<SessionRecord | null> {
    const rows = await this.graph.read<Row>(Q.getSession, { id });
    return rows[0] ? toSessionRecord(rows[0].session) : null;
  }

  /** The store of each of these sessions that exists, in one read. */
  async storesOf(ids: readonly string[]): Promise<Map<string, string>> {
    return new Map([...(await this.ownersOf(ids))].map(([id, owner]) => [id, owner.store]));
  }

  /** The store of each of these sessions that exists and the instance it is open for (null once ended), in one read. */
  async ownersOf(ids: readonly string[]): Promise<Map<string, SessionOwner>> {
    if (ids.length === 0) return new Map();
    const rows = await this.graph.read<{ id: string; store: string; openInstance: string | null }>(Q.sessionStores, {
      ids: [...new Set(ids)],
    });
    return new Map(rows.map((r) => [r.id, { store: r.store, openInstance: r.openInstance ?? null }]));
  }

  /** Whether the store has a session of this id, or memories stored with it (a session never opened here). */
  async knows(id: string, store: string): Promise<boolean> {
    const rows = await this.graph.read<{ known: boolean }>(Q.sessionKnown, { id, store });
    return rows[0]?.known === true;
  }

  async open(instanceId: string): Promise<SessionRecord | null> {
    const rows = await this.graph.read<Row>(Q.openSession, { instanceId });
    return rows[0] ? toSessionRecord(rows[0].session) : null;
  }

  async list(store: string, instanceId: string | null, limit: number): Promise<SessionRecord[]> {
    const rows = await this.graph.read<Row>(Q.listSessions, { store, instanceId, limit });
    return rows.map((r) => toSessionRecord(r.session));
  }

  /** Marks activity on the instance's open session unless it was marked within the last `everyMs` (0: now). */
  async markActive(instanceId: string, everyMs: number): Promise<void> {
    await this.graph.write(Q.markSessionActive, { instanceId, now: this.clock(), everyMs });
  }

  /** The newest `limit` decisions, in the order made. */
  async decisions(sessionId: string, limit: number): Promise<DecisionRecord[]> {
    const rows = await this.graph.read<{ decision: Record<string, unknown> }>(Q.sessionDecisions, { sessionId, limit });
    return rows.map((r) => toDecisionRecord(r.decision)).reverse();
  }

  async memories(sessionId: string, limit: number): Promise<SessionMemories> {
    const rows = await this.graph.read<{ stored: number; unclaimed: string[] }>(Q.sessionMemories, {
      sessionId,
      limit,
    });
    return { stored: rows[0]?.stored ?? 0, unclaimedIds: rows[0]?.unclaimed ?? [] };
  }

  async tierMemberIds(store: string, tier: Tier, limit: number): Promise<string[]> {
    const rows = await this.graph.read<{ id: string }>(Q.tierMemberIds, { store, tier, limit });
    return rows.map((r) => r.id);
  }

  // ── internals ─────────────────────────────────────────────────────────────

  private async readOne(
    tx: Tx,
    statement: (typeof Q)[keyof typeof Q],
    params: Record<string, unknown>,
  ): Promise<SessionRecord | null> {
    const rows = await tx.run<Row>(statement, params);
    return rows[0] ? toSessionRecord(rows[0].session) : null;
  }

  private publishEnded(session: SessionRecord, cause: Meta, eventId: string): void {
    const data = {
      sessionId: session.id,
      instanceId: session.instanceId,
      store: session.store,
      cause: session.endCause ?? 'EXPLICIT',
    };
    this.bus.publish(
      this.bus.message('SessionEnded', data, 'cortex', { cause, sessionId: session.id, messageId: eventId }),
    );
  }
}
