/**
 * Reflect sessions: a mind opens a reflection over Recall's candidates (each
 * with the actions that fit it), walks them, and answers each one. An answer
 * becomes the command it names (claim, reclassify, associate, consolidate,
 * forget — each through its owner, with its own audit event) and is recorded
 * as a ReflectionAnswered event about the memories, saying what the mind
 * decided and why. Answers to one reflection are taken one at a time.
 */
import { admit } from './admission.js';
import {
  InvalidInputError,
  NotFoundError,
  isTier,
  mayReach,
  requireWrite,
  sortableId,
  storeFor,
  REFLECT_ACTION_KINDS,
  ASSOCIATION_TYPES,
  MERGE_STRATEGIES,
  type Bus,
  type MemoryRecord,
  type ReflectionScope,
  type GraphPort,
} from '../../domain/index.js';
import { memoriesById, memoryById } from './memory-queries.js';
import type { ReflectCandidateWithActions } from '../../domain/index.js';
import { Q } from './cypher.js';
import { checkCallerSession, type Caller, type MemoryPort, type SessionStores } from './memory-port.js';
import type { RecallPort } from './recall-port.js';
import type { AssociationPort } from './association-port.js';
import { namedStore, requireText } from './session-rules.js';
import {
  offeredFrom,
  toAnswerRecord,
  toReflectionRecord,
  type OfferedCandidate,
  type ReflectAnswerArgs,
  type ReflectionAnswerRecord,
  type ReflectionRecord,
  type ReflectionView,
} from './reflection-records.js';

export interface ReflectionPortDeps {
  readonly bus: Bus;
  readonly graph: GraphPort;
  readonly recall: RecallPort;
  readonly memory: MemoryPort;
  readonly associations: AssociationPort;
  readonly defaultStore: string;
  readonly accepting: () => boolean;
  readonly clock?: () => number;
  /** Cortex's sessions: a session the caller names must be of a store it may reach. */
  readonly sessions?: SessionStores;
}

export interface OpenReflectionArgs {
  readonly store?: string | null;
  readonly scope?: ReflectionScope | null;
  readonly timeSpanDays?: number | null;
  readonly limit?: number | null;
}

export interface ReflectionAnswered {
  readonly answer: ReflectionAnswerRecord;
  /** The memory the answer left (null after FORGET). */
  readonly memory: MemoryRecord | null;
  readonly reflection: ReflectionView;
}

const invalid = (code: string, text: string, details?: Record<string, unknown>) =>
  new InvalidInputError(`CORTEX.${code}`, text, details);
const notFound = (id: string) =>
  new NotFoundError('CORTEX.REFLECTION_NOT_FOUND', `no reflection with id ${id}`, { id });

/** The caller, as the envelope of a query Cortex sends for it. */
const envelope = (caller: Caller) => ({
  instanceId: caller.instanceId,
  sessionId: caller.sessionId,
  correlationId: caller.correlationId,
});

export class ReflectionPort {
  private readonly clock: () => number;
  /** The answer being applied per reflection: the next one waits for it. */
  private readonly turns = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: ReflectionPortDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  /**
   * Opens a reflection over the store's candidates (as `reflect` finds them)
   * and returns it with its first candidate.
   */
  async open(args: OpenReflectionArgs, caller: Caller): Promise<ReflectionView> {
    admit(this.deps.accepting);
    // Opening one writes the Reflection: a reader may not.
    requireWrite(caller.access);
    await checkCallerSession(this.deps.sessions, caller);
    // Like every other call: the named store, else the token's own, else the service default.
    const store = storeFor(caller.access, namedStore(args.store), this.deps.defaultStore);
    const candidates = await this.deps.recall.reflect(
      store,
      args.scope ?? 'ALL',
      args.timeSpanDays ?? null,
      args.limit ?? 20,
      caller,
    );
    const now = this.clock();
    const id = sortableId('rfl', now);
    const eventId = sortableId('evt', now);
    const memoryIds = candidates.map((c) => c.memory.id);
    const started = this.deps.bus.message('ReflectionStarted', { reflectionId: id, store, memoryIds }, 'cortex', {
      instanceId: caller.instanceId,
      sessionId: caller.sessionId,
      correlationId: caller.correlationId,
      messageId: eventId,
    });
    await this.deps.graph.write(Q.openReflection, {
      id,
      store,
      instanceId: caller.instanceId,
      sessionId: caller.sessionId,
      candidates: JSON.stringify(offeredFrom(candidates)),
      memoryIds,
      now,
      eventId,
      payload: JSON.stringify({ reflectionId: id, candidates: memoryIds.length }),
      correlationId: started.meta.correlationId,
    });
    this.deps.bus.publish(started);
    const view = await this.get(id, caller);
    if (!view) throw notFound(id);
    return view;
  }

  /** A reflection as it stands; null when unknown, another instance's or of a store the caller may not reach. */
  async get(id: string, caller: Caller): Promise<ReflectionView | null> {
    const record = await this.record(id);
    if (!record || !this.visible(record, caller)) return null;
    return this.view(record);
  }

  /** Answers one candidate: validates everything first (a refused answer changes nothing), applies it, records it. */
  async answer(args: ReflectAnswerArgs, caller: Caller): Promise<ReflectionAnswered> {
    admit(this.deps.accepting);
    requireWrite(caller.access);
    await checkCallerSession(this.deps.sessions, caller);
    const previous = this.turns.get(args.reflectionId) ?? Promise.resolve();
    const turn = previous.catch(() => undefined).then(() => this.answerNow(args, caller));
    this.turns.set(args.reflectionId, turn);
    try {
      return await turn;
    } finally {
      if (this.turns.get(args.reflectionId) === turn) this.turns.delete(args.reflectionId);
    }
  }

  private async answerNow(args: ReflectAnswerArgs, caller: Caller): Promise<ReflectionAnswered> {
    const record = await this.record(args.reflectionId);
    if (!record || !this.visible(record, caller)) throw notFound(args.reflectionId);
    const candidate = record.offered.find((c) => c.memoryId === args.memoryId);
    if (!candidate)
      throw invalid('NOT_A_CANDIDATE', `memory ${args.memoryId} is not a candidate of reflection ${record.id}`, {
        memoryId: args.memoryId,
      });
    if (!(REFLECT_ACTION_KINDS as readonly string[]).includes(args.action))
      throw invalid('UNKNOWN_ACTION', `unknown action "${args.action}"`);
    const earlier = record.answers.find((a) => a.memoryId === args.memoryId);
    if (earlier) {
      if (earlier.action !== args.action)
        throw invalid('ALREADY_ANSWERED', `memory ${args.memoryId} was answered with ${earlier.action} already`, {
          answerId: earlier.id,
        });
      return {
        answer: earlier,
        memory: await memoryById(this.deps.bus, earlier.resultMemoryId ?? args.memoryId, envelope(caller)),
        reflection: await this.view(record),
      };
    }
    const why = requireText(args.why, 'why');
    // The actions as they stand: one that can no longer succeed is not offered any more.
    const standing = (await this.standing(record)).offered.find((c) => c.memoryId === args.memoryId);
    const plan = this.plan(standing ?? candidate, args);
    await this.checkOthers(plan.with, record.store, caller);
    const result = await this.apply(plan, args.memoryId, why, caller);
    const now = this.clock();
    // Time-sortable like every other event (the events cursor pages by id); made once, so a replay of the
    // write reuses it. The statement keeps one answer per memory: a concurrent answer gets the recorded one.
    const eventId = sortableId('evt', now);
    const payload = {
      reflectionId: record.id,
      memoryId: args.memoryId,
      action: args.action,
      why,
      resultMemoryId: result?.id ?? null,
      with: plan.with,
    };
    const rows = await this.deps.graph.write<{ answer: Record<string, unknown> }>(Q.recordReflectionAnswer, {
      eventId,
      reflectionId: record.id,
      memoryId: args.memoryId,
      memoryIds: [...new Set([args.memoryId, ...plan.with, ...(result ? [result.id] : [])])],
      now,
      payload: JSON.stringify(payload),
      commandId: eventId,
      correlationId: caller.correlationId ?? eventId,
      sessionId: caller.sessionId,
    });
    const answer = toAnswerRecord((rows[0] as { answer: Record<string, unknown> }).answer);
    const after = (await this.record(record.id)) ?? record;
    const reflection = await this.view(after);
    // Another answer to this memory was recorded first (its caller published it): nothing new to tell.
    if (answer.id !== eventId) return { answer, memory: result, reflection };
    const event = this.deps.bus.message(
      'ReflectionAnswered',
      { reflectionId: record.id, store: record.store, memoryId: args.memoryId, action: args.action, why },
      'cortex',
      {
        instanceId: caller.instanceId,
        sessionId: caller.sessionId,
        correlationId: caller.correlationId,
        messageId: eventId,
      },
    );
    this.deps.bus.publish(event);
    return { answer, memory: result, reflection };
  }

  /** The answer's command with its defaults filled from what was offered; throws before anything is written. */
  private plan(candidate: OfferedCandidate, args: ReflectAnswerArgs) {
    const offered = candidate.actions.find((a) => a.kind === args.action);
    if (!offered) {
      throw invalid(
        'ACTION_NOT_OFFERED',
        `${args.action} does not fit memory ${candidate.memoryId}; ` +
          `offered: ${candidate.actions.map((a) => a.kind).join(', ')}`,
      );
    }
    const ids = (list: readonly string[] | null | undefined) =>
      [...new Set((list ?? offered.memoryIds).map((x) => String(x).trim()))].filter((x) => x !== candidate.memoryId);
    switch (args.action) {
      case 'CLAIM':
      case 'KEEP':
        return { action: args.action, with: [] as string[] } as const;
      case 'RECLASSIFY': {
        const tier = args.tier ?? offered.tier;
        if (!isTier(tier)) throw invalid('INVALID_TIER', 'RECLASSIFY needs a tier');
        return { action: args.action, tier, with: [] as string[] } as const;
      }
      case 'ASSOCIATE': {
        const others = ids(args.with);
        if (others.length === 0) throw invalid('NOTHING_TO_ASSOCIATE', 'ASSOCIATE needs at least one other memory');
        if (args.associationType && !(ASSOCIATION_TYPES as readonly string[]).includes(args.associationType))
          throw invalid('INVALID_TYPE', `unknown association type "${args.associationType}"`);
        const typeOf = (id: string) =>
          args.associationType ?? offered.associationTypes[offered.memoryIds.indexOf(id)] ?? 'THEMATIC';
        return { action: args.action, with: others, links: others.map((b) => ({ b, type: typeOf(b) })) } as const;
      }
      case 'CONSOLIDATE': {
        const others = ids(args.with);
        if (others.length === 0) throw invalid('NOTHING_TO_CONSOLIDATE', 'CONSOLIDATE needs at least one other memory');
        const strategy = args.strategy ?? 'COMBINE';
        if (!(MERGE_STRATEGIES as readonly string[]).includes(strategy))
          throw invalid('INVALID_STRATEGY', `unknown strategy "${strategy}"`);
        return { action: args.action, with: others, strategy, content: args.content ?? null } as const;
      }
      case 'FORGET':
        if (args.confirmId !== candidate.memoryId) {
          throw invalid(
            'FORGET_NOT_CONFIRMED',
            'FORGET needs your explicit consent: confirmId must repeat the memory id',
          );
        }
        return { action: args.action, with: [] as string[], confirmId: args.confirmId } as const;
      default: {
        const never: never = args.action;
        throw invalid('UNKNOWN_ACTION', `unknown action "${String(never)}"`);
      }
    }
  }

  /** Runs the planned command through its owner; the memory it leaves (null after FORGET). */
  private async apply(
    plan: ReturnType<ReflectionPort['plan']>,
    id: string,
    why: string,
    caller: Caller,
  ): Promise<MemoryRecord | null> {
    switch (plan.action) {
      case 'KEEP':
        return memoryById(this.deps.bus, id, envelope(caller));
      case 'CLAIM':
        return this.deps.memory.claim(id, caller);
      case 'RECLASSIFY':
        return this.deps.memory.reclassify(id, plan.tier, why, null, caller);
      case 'ASSOCIATE':
        for (const link of plan.links)
          await this.deps.associations.associate({ a: id, b: link.b, type: link.type, direction: 'CREATE' }, caller);
        return memoryById(this.deps.bus, id, envelope(caller));
      case 'CONSOLIDATE':
        return this.deps.memory.consolidate([id, ...plan.with], plan.strategy, plan.content, caller);
      case 'FORGET':
        await this.deps.memory.forget(id, plan.confirmId, why, caller);
        return null;
    }
  }

  /**
   * The other memories an answer names exist and belong to the reflection's
   * store (checked before anything is written). One the caller may not reach
   * is missing to it: the same error as an unknown id.
   */
  private async checkOthers(ids: readonly string[], store: string, caller: Caller): Promise<void> {
    if (ids.length === 0) return;
    const found = (await memoriesById(this.deps.bus, ids)).filter((m) => mayReach(caller.access, m.store));
    const missing = ids.filter((id) => !found.some((m) => m.id === id));
    if (missing.length > 0)
      throw new NotFoundError('CORTEX.MEMORY_NOT_FOUND', `no memory with id ${missing.join(', ')}`, { ids: missing });
    const foreign = found.filter((m) => m.store !== store).map((m) => m.id);
    if (foreign.length > 0)
      throw invalid('CROSS_STORE', `memories ${foreign.join(', ')} are not in store "${store}"`, { ids: foreign });
  }

  /** The caller's instance's (or no instance's), in a store the caller may reach; else it is unknown to the caller. */
  private visible(record: ReflectionRecord, caller: Caller): boolean {
    const sameInstance =
      caller.instanceId === null || record.instanceId === null || caller.instanceId === record.instanceId;
    return sameInstance && mayReach(caller.access, record.store);
  }

  private async record(id: string): Promise<ReflectionRecord | null> {
    if (typeof id !== 'string' || id.trim() === '') throw invalid('INVALID_ID', 'reflectionId must not be empty');
    const row = (
      await this.deps.graph.read<{ reflection: Record<string, unknown>; answers: Record<string, unknown>[] }>(
        Q.getReflection,
        { id },
      )
    )[0];
    return row ? toReflectionRecord(row.reflection, row.answers) : null;
  }

  /**
   * The offered candidates still there, their memories read again (no access is counted), each with the actions
   * that can still succeed: an action's memories that are gone drop out of it, and the action too when none is
   * left (an ASSOCIATE or CONSOLIDATE with nothing to do); a CONSOLIDATE drops the memories consolidated
   * already, and is gone when its candidate is.
   */
  private async standing(record: ReflectionRecord) {
    const ids = [...new Set(record.offered.flatMap((c) => [c.memoryId, ...c.actions.flatMap((a) => a.memoryIds)]))];
    const byId = new Map((await memoriesById(this.deps.bus, ids)).map((m) => [m.id, m]));
    const merging = record.offered.some((c) => c.actions.some((a) => a.kind === 'CONSOLIDATE'));
    const consolidated = new Set(
      merging
        ? (await this.deps.graph.read<{ id: string }>(Q.reflectionConsolidated, { ids: [...byId.keys()] })).map(
            (r) => r.id,
          )
        : [],
    );
    const offered: OfferedCandidate[] = record.offered.flatMap((c) => {
      if (!byId.has(c.memoryId)) return [];
      const actions = c.actions.flatMap((a) => {
        const merge = a.kind === 'CONSOLIDATE';
        if (merge && consolidated.has(c.memoryId)) return [];
        const kept = a.memoryIds.map((x) => byId.has(x) && !(merge && consolidated.has(x)));
        if (a.memoryIds.length > 0 && !kept.includes(true)) return [];
        return [
          {
            ...a,
            memoryIds: a.memoryIds.filter((_, i) => kept[i]),
            // Aligned with memoryIds (ASSOCIATE), empty otherwise.
            associationTypes: a.associationTypes.filter((_, i) => kept[i]),
          },
        ];
      });
      return [{ ...c, actions }];
    });
    return { byId, offered };
  }

  private async view(record: ReflectionRecord): Promise<ReflectionView> {
    const { byId, offered } = await this.standing(record);
    const candidates: ReflectCandidateWithActions[] = offered.flatMap((c) => {
      const memory = byId.get(c.memoryId);
      if (!memory) return [];
      const actions = c.actions.map((a) => ({ ...a, memories: a.memoryIds.flatMap((x) => byId.get(x) ?? []) }));
      return [{ memory, reason: c.reason, staleDays: c.staleDays, associationCount: c.associationCount, actions }];
    });
    const answered = new Set(record.answers.map((a) => a.memoryId));
    return {
      ...record,
      candidates,
      // The visible ones only: a candidate forgotten outside the reflection can no longer be answered.
      remaining: candidates.filter((c) => !answered.has(c.memory.id)).length,
      next: candidates.find((c) => !answered.has(c.memory.id)) ?? null,
    };
  }
}
