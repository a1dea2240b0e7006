/**
 * Gives each reflect candidate the actions that fit it: one read of the
 * candidates' ties (weak links, near-duplicates) and, for a memory linked to
 * almost nothing, the memories nearest to it by a recall of its own words.
 */
import {
  type AssociationType,
  type MemoryRecord,
  type ReflectCandidateWithActions,
  type GraphPort,
  toMemoryRecord,
} from '../../domain/index.js';
import { Q } from './cypher.js';
import type { ReflectCandidate } from './reflection.js';
import type { SearchRequest } from './search-request.js';
import type { RankedHit } from './scoring.js';
import { WEAK_BELOW, MOST_OFFERED, fittingActions, reflectKindOf, type CandidateTies } from './reflection-rules.js';

export type { ReflectCandidateWithActions } from '../../domain/index.js';

export interface ReflectionActionsDeps {
  readonly graph: GraphPort;
  /** Recall's ranking without recording (Recall.rankOnly). */
  readonly rank: (request: SearchRequest) => Promise<RankedHit[]>;
  /** A MECHANICAL THEMATIC strength from which two memories are near-duplicates (consolidation's threshold). */
  readonly duplicateStrength: number;
}

/** A memory linked to fewer than this many others is offered its nearest memories by text too. */
const FEW_LINKS = 2;
/** The words of a memory a neighbour search reads (the start says what it is about). */
const QUERY_CHARS = 500;

type TieRow = {
  id: string;
  weak: { type: AssociationType; strength: number; memory: Record<string, unknown> }[];
  duplicates: Record<string, unknown>[];
  linked: string[];
};

export class ReflectionActions {
  constructor(private readonly deps: ReflectionActionsDeps) {}

  async of(store: string, candidates: readonly ReflectCandidate[]): Promise<ReflectCandidateWithActions[]> {
    if (candidates.length === 0) return [];
    const rows = await this.deps.graph.read<TieRow>(Q.reflectTies, {
      ids: candidates.map((c) => c.memory.id),
      weakBelow: WEAK_BELOW,
      duplicateStrength: this.deps.duplicateStrength,
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return Promise.all(
      candidates.map(async (candidate) => {
        const row = byId.get(candidate.memory.id);
        const linked = new Set(row?.linked ?? []);
        const near = linked.size < FEW_LINKS ? await this.nearest(store, candidate.memory, linked) : [];
        const ties: CandidateTies = {
          weak: (row?.weak ?? [])
            .map((w) => ({ type: w.type, strength: Number(w.strength), memory: toMemoryRecord(w.memory) }))
            .sort((a, b) => a.strength - b.strength || (a.memory.id < b.memory.id ? -1 : 1)),
          near,
          duplicates: (row?.duplicates ?? []).map((d) => toMemoryRecord(d)),
        };
        return { ...candidate, actions: fittingActions(candidate.memory, reflectKindOf(candidate.reason), ties) };
      }),
    );
  }

  /** The memories a recall of this one's words finds first, but itself and what it is linked to already. */
  private async nearest(store: string, memory: MemoryRecord, linked: ReadonlySet<string>): Promise<MemoryRecord[]> {
    const query = memory.content.slice(0, QUERY_CHARS).trim();
    if (query === '') return [];
    const hits = await this.deps.rank({
      query,
      store,
      limit: MOST_OFFERED + 1 + linked.size,
      includeAssociations: false,
      minConfidence: null,
      filters: { tiers: null, from: null, to: null, tags: null, people: null, sessionId: null },
    });
    return hits
      .map((h) => h.memory)
      .filter((m) => m.id !== memory.id && !linked.has(m.id))
      .slice(0, MOST_OFFERED);
  }
}
