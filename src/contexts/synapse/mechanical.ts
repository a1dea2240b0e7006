/**
 * Mechanical linking of a batch of newly stored memories of one store: a
 * sample of the store's newest labels and words (to leave common ones out of
 * the full-text queries), one statement finding every memory's candidates
 * through indexes, the pure rules (linking.ts) choosing, and one MERGE of the
 * links (batched across memories by link-writer.ts). Each statement is its own
 * auto-commit transaction (one round trip, no begin or commit of their own):
 * reads in Neo4j take no locks, so one transaction around them would not make
 * the degree caps any stricter, and one store's batches already run one at a
 * time (coalescer.ts).
 */
import { storeKeyOf, type MemoryRecord, type GraphPort } from '../../domain/index.js';
import { Q } from './cypher.js';
import { commonLabels, contentWords, peopleQuery, rareOnly, thematicQuery } from './text-queries.js';
import {
  MECHANICAL_TYPES,
  planLinks,
  type Candidate,
  type Degrees,
  type LinkBatchItem,
  type MechanicalType,
  type PlannedLink,
} from './linking.js';
import { TEXT_CANDIDATES, type SynapseSettings } from './settings.js';
import { RecentPool } from './recent-pool.js';

/** What linking reads of a stored memory (all the linking thread is sent). */
export type LinkSource = Pick<
  MemoryRecord,
  'id' | 'store' | 'content' | 'tags' | 'people' | 'emotions' | 'occurredAt' | 'sessionId'
>;

export type CreatedLink = {
  readonly a: string;
  readonly b: string;
  readonly type: MechanicalType;
  readonly origin: 'MECHANICAL';
  readonly strength: number;
};

/** A candidate as find-link-candidates returns it (a list: see the statement). */
type CandidateTuple = [
  string,
  string | null,
  number,
  number,
  string[],
  string[],
  number | null,
  [number, number, number, number],
];

type CandidateRow = {
  readonly id: string;
  readonly selfScore: number | null;
  readonly degree: Degrees | null;
  readonly candidates: CandidateTuple[];
};

const NO_LINKS: Degrees = Object.fromEntries(MECHANICAL_TYPES.map((t) => [t, 0])) as unknown as Degrees;

function toCandidate([
  id,
  sessionId,
  occurredAt,
  createdAt,
  people,
  emotions,
  textScore,
  [t, th, p, e],
]: CandidateTuple): Candidate {
  return {
    id,
    sessionId,
    occurredAt,
    createdAt,
    people,
    emotions,
    textScore,
    degree: { TEMPORAL: t, THEMATIC: th, PERSON: p, EMOTIONAL: e },
  };
}

function bestScore(candidates: readonly Candidate[]): number | null {
  const scores = candidates.flatMap((c) => (c.textScore === null ? [] : [c.textScore]));
  return scores.length > 0 ? Math.max(...scores) : null;
}

/** How long a store's sample (common labels, newest memories) is reused before it is taken again. */
export const SAMPLE_TTL_MS = 60_000;

interface Common {
  readonly tags: ReadonlySet<string>;
  readonly people: ReadonlySet<string>;
  readonly words: ReadonlySet<string>;
  /** The store's newest memories, kept up to date with every batch linked here. */
  readonly pool: RecentPool;
  readonly at: number;
}

/**
 * Plans and writes the mechanical links of batches of stored memories. Which
 * labels are common changes slowly, so each store's sample is reused for
 * SAMPLE_TTL_MS (it only decides which labels the full-text queries skip and
 * seeds the newest-memories pool, never which links are allowed).
 */
export class Linker {
  private readonly common = new Map<string, Common>();

  constructor(
    private readonly graph: GraphPort,
    private readonly settings: SynapseSettings,
  ) {}

  /** The links a batch of stored memories should get, besides `pending` ones not yet written. */
  async plan(
    memories: readonly LinkSource[],
    now: number,
    pending: () => readonly PlannedLink[],
  ): Promise<PlannedLink[]> {
    const settings = this.settings;
    const store = (memories[0] as LinkSource).store;
    const common = await this.commonOf(store, now);
    // The batch is the newest part of the store (later in the batch = newer).
    common.pool.add([...memories].reverse());
    const poolLimit = settings.linksPerType * 4;
    const inputs = memories.map((m) => ({
      id: m.id,
      thematicQuery: thematicQuery(storeKeyOf(store), m.content, rareOnly(m.tags, common.tags), common.words),
      peopleQuery: peopleQuery(storeKeyOf(store), rareOnly(m.people, common.people)),
      poolIds: common.pool.sharing(m.id, m.people, m.emotions, poolLimit),
    }));
    const rows = await this.graph.read<CandidateRow>(Q.findLinkCandidates, {
      memories: inputs,
      windowMs: settings.temporalWindowMs,
      temporalLimit: settings.linksPerType * 2,
      textLimit: TEXT_CANDIDATES,
    });
    const found = new Map(rows.map((r) => [r.id, r]));
    // In store order: earlier memories of the batch choose first.
    const batch: LinkBatchItem[] = memories.flatMap((m) => {
      const row = found.get(m.id);
      if (!row) return [];
      const candidates = row.candidates.map(toCandidate);
      return {
        subject: {
          id: m.id,
          sessionId: m.sessionId,
          occurredAt: m.occurredAt,
          people: m.people,
          emotions: m.emotions,
          degree: row.degree ?? NO_LINKS,
        },
        candidates,
        // Normally the memory is its own best match; if not, the best match stands in.
        selfScore: row.selfScore ?? bestScore(candidates),
      };
    });
    return planLinks(batch, settings, pending());
  }

  /** Creates planned links (MERGE: a pair linked already is left as it is); returns those this call created. */
  write(links: readonly PlannedLink[], now: number, changeId: string): Promise<CreatedLink[]> {
    return this.graph.write<CreatedLink>(Q.mergeMechanicalLinks, { links, now, changeId });
  }

  /** The store's sample (common labels and words, newest memories), taken again when older than SAMPLE_TTL_MS. */
  private async commonOf(store: string, now: number): Promise<Common> {
    const known = this.common.get(store);
    if (known && now - known.at <= SAMPLE_TTL_MS && now >= known.at) return known;
    const sample = await this.graph.read<{
      id: string;
      tags: string[];
      people: string[];
      emotions: string[];
      content: string | null;
    }>(Q.recentLabels, {
      store,
      limit: this.settings.recentWindow,
    });
    const pool = new RecentPool(this.settings.recentWindow);
    pool.add(sample);
    const common: Common = {
      tags: commonLabels(sample.map((r) => r.tags)),
      people: commonLabels(sample.map((r) => r.people)),
      words: commonLabels(sample.map((r) => contentWords(r.content ?? ''))),
      pool,
      at: now,
    };
    this.common.set(store, common);
    return common;
  }
}
