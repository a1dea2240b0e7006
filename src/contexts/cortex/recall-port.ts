/**
 * The reading half of the Memory Port: search, context packing, reflection
 * and usefulness feedback, sent on to Recall.
 */
import { admit } from './admission.js';
import {
  isReadOnly,
  isStoreBound,
  mayReach,
  message,
  newMeta,
  requireWrite,
  storeFor,
  type Bus,
  type OutcomeKind,
  type ReflectionScope,
  type SearchFilters,
} from '../../domain/index.js';
import type { Hippocampus } from '../hippocampus/index.js';
import { frameLine } from '../recall/index.js';
import type {
  Pack,
  Recall,
  RecallResult,
  ReflectCandidate,
  ReflectCandidateWithActions,
  ReflectionActions,
  SearchRequest,
  UseRecord,
} from '../recall/index.js';
import type { Caller } from './memory-port.js';

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
  readonly recall: Recall;
  readonly hippocampus: Hippocampus;
  readonly defaultStore: string;
  readonly accepting: () => boolean;
  /** Gives reflect candidates the actions that fit them (without it, none are offered). */
  readonly actions?: ReflectionActions;
}

/**
 * The id a reader's recall gets: it is not recorded (no Recall node, no
 * MemoryRetrieved event), since a reader token writes nothing, and readers
 * may not markUsed anyway.
 */
export const UNRECORDED_RECALL_ID = 'unrecorded';

export class RecallPort {
  constructor(private readonly deps: RecallPortDeps) {}

  private init(caller: Caller) {
    return { instanceId: caller.instanceId, sessionId: caller.sessionId, correlationId: caller.correlationId };
  }

  /** The store a call reads (the caller's own when it names none); FORBIDDEN outside the caller's stores. */
  private store(named: string | null | undefined, caller: Caller): string {
    return storeFor(caller.access, named, this.deps.defaultStore);
  }

  async search(args: SearchArgs, caller: Caller): Promise<RecallResult> {
    admit(this.deps.accepting);
    const request: SearchRequest = {
      query: args.query,
      store: this.store(args.store, caller),
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
    };
    if (isReadOnly(caller.access)) {
      const hits = await this.deps.recall.rankOnly(request);
      return {
        id: UNRECORDED_RECALL_ID,
        query: request.query,
        hits,
        frame: frameLine(
          request.query,
          hits.map((h) => h.confidence),
        ),
      };
    }
    return this.deps.bus.ask(message('SearchQuery', request, 'cortex', this.init(caller)));
  }

  async contextFor(args: ContextArgs, caller: Caller): Promise<Pack & { recallId: string }> {
    admit(this.deps.accepting);
    const sessionId = args.sessionId ?? caller.sessionId;
    const request = {
      query: args.query,
      store: this.store(args.store, caller),
      limit: 100,
      includeAssociations: true,
      minConfidence: null,
      filters: { tiers: null, from: null, to: null, tags: null, people: null, sessionId: null },
      sessionId,
      maxTokens: args.maxTokens,
      maxItems: args.maxItems ?? 8,
      injectFloor: args.injectFloor ?? null,
      liveFloor: args.liveFloor ?? null,
    };
    if (isReadOnly(caller.access)) return this.unrecordedPack(request);
    return this.deps.recall.contextFor(request, newMeta('cortex', { ...this.init(caller), sessionId }));
  }

  /** Recall.contextFor's pack, without recording the recall (a reader's). */
  private async unrecordedPack(request: Parameters<Recall['contextFor']>[0]): Promise<Pack & { recallId: string }> {
    return { ...(await this.deps.recall.packOnly(request)), recallId: UNRECORDED_RECALL_ID };
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
    const candidates = await this.deps.bus.ask<ReflectCandidate[]>(
      message('ReflectQuery', { store: name, scope, timeSpanDays, limit }, 'cortex', this.init(caller)),
    );
    return this.deps.actions ? this.deps.actions.of(name, candidates) : candidates.map((c) => ({ ...c, actions: [] }));
  }

  async markUsed(
    recallId: string,
    memoryIds: readonly string[] | null,
    action: unknown,
    caller: Caller,
  ): Promise<UseRecord> {
    admit(this.deps.accepting);
    requireWrite(caller.access);
    // Salience counts the use (MemoryUsed) like a read: it raises the score.
    return this.deps.recall.markUsed(recallId, memoryIds, action, newMeta('cortex', this.init(caller)), (store) =>
      mayReach(caller.access, store),
    );
  }

  async reportOutcome(useId: string, outcome: OutcomeKind, note: string | null, caller: Caller): Promise<UseRecord> {
    admit(this.deps.accepting);
    requireWrite(caller.access);
    const reaches = isStoreBound(caller.access) ? (store: string) => mayReach(caller.access, store) : undefined;
    return this.deps.recall.reportOutcome(useId, outcome, note, newMeta('cortex', this.init(caller)), reaches);
  }
}
