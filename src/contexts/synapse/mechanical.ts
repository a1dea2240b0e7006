/**
 * Mechanical linking of a batch of newly stored memories of one store: a
 * sample of the store's newest labels and words (to leave common ones out of
 * the full-text queries), one statement finding every memory's candidates
 * through indexes, the pure rules (linking.ts) choosing, one MERGE of all
 * links. Each statement is its own auto-commit transaction (one round trip,
 * no begin or commit of their own): reads in Neo4j take no locks, so one
 * transaction around them would not make the degree caps any stricter, and
 * one store's batches already run one at a time (coalescer.ts).
 */
import { storeKeyOf, type MemoryRecord } from '../../domain/index.js';
import type { GraphPort } from '../../adapters/neo4j/index.js';
import { Q } from './cypher.js';
import { commonLabels, contentWords, peopleQuery, rareOnly, thematicQuery } from './text-queries.js';
import { MECHANICAL_TYPES, planLinks, type Candidate, type Degrees, type LinkBatchItem, type MechanicalType } from './linking.js';
import { TEXT_CANDIDATES, type SynapseSettings } from './settings.js';

export type CreatedLink = {
  readonly a: string;
  readonly b: string;
  readonly type: MechanicalType;
  readonly origin: 'MECHANICAL';
  readonly strength: number;
};

type CandidateRow = {
  readonly id: string;
  readonly selfScore: number | null;
  readonly degree: Degrees | null;
  readonly candidates: Candidate[];
};

const NO_LINKS: Degrees = Object.fromEntries(MECHANICAL_TYPES.map((t) => [t, 0])) as unknown as Degrees;
const lower = (xs: readonly string[]) => xs.map((x) => x.trim().toLowerCase());

function bestScore(candidates: readonly Candidate[]): number | null {
  const scores = candidates.flatMap((c) => (c.textScore === null ? [] : [c.textScore]));
  return scores.length > 0 ? Math.max(...scores) : null;
}

/** How long a store's common labels are reused before they are sampled again. */
export const SAMPLE_TTL_MS = 60_000;

interface Common {
  readonly tags: ReadonlySet<string>;
  readonly people: ReadonlySet<string>;
  readonly words: ReadonlySet<string>;
  readonly at: number;
}

/**
 * Links batches of stored memories. Which labels are common changes slowly,
 * so each store's sample is reused for SAMPLE_TTL_MS (it only decides which
 * labels the full-text queries skip, never which links are allowed).
 */
export class Linker {
  private readonly common = new Map<string, Common>();

  constructor(
    private readonly graph: GraphPort,
    private readonly settings: SynapseSettings,
  ) {}

  async link(memories: readonly MemoryRecord[], now: number, changeId: string): Promise<CreatedLink[]> {
    const settings = this.settings;
    const store = (memories[0] as MemoryRecord).store;
    const common = await this.commonOf(store, now);
    const inputs = memories.map((m) => ({
      id: m.id,
      thematicQuery: thematicQuery(storeKeyOf(store), m.content, rareOnly(m.tags, common.tags), common.words),
      peopleQuery: peopleQuery(storeKeyOf(store), rareOnly(m.people, common.people)),
      people: lower(m.people),
      emotions: lower(m.emotions),
    }));
    const rows = await this.graph.read<CandidateRow>(Q.findLinkCandidates, {
      store,
      memories: inputs,
      windowMs: settings.temporalWindowMs,
      temporalLimit: settings.linksPerType * 2,
      textLimit: TEXT_CANDIDATES,
      recentLimit: settings.recentWindow,
      poolLimit: settings.linksPerType * 4,
    });
    const found = new Map(rows.map((r) => [r.id, r]));
    // In store order: earlier memories of the batch choose first.
    const batch: LinkBatchItem[] = memories.flatMap((m) => {
      const row = found.get(m.id);
      if (!row) return [];
      return {
        subject: { id: m.id, sessionId: m.sessionId, occurredAt: m.occurredAt, people: m.people, emotions: m.emotions, degree: row.degree ?? NO_LINKS },
        candidates: row.candidates,
        // Normally the memory is its own best match; if not, the best match stands in.
        selfScore: row.selfScore ?? bestScore(row.candidates),
      };
    });
    const links = planLinks(batch, settings);
    if (links.length === 0) return [];
    return this.graph.write<CreatedLink>(Q.mergeMechanicalLinks, { links, now, changeId });
  }

  /** The store's common labels and words, sampled again when older than SAMPLE_TTL_MS. */
  private async commonOf(store: string, now: number): Promise<Common> {
    const known = this.common.get(store);
    if (known && now - known.at <= SAMPLE_TTL_MS && now >= known.at) return known;
    const sample = await this.graph.read<{ tags: string[]; people: string[]; content: string | null }>(Q.recentLabels, { store, limit: this.settings.recentWindow });
    const common: Common = {
      tags: commonLabels(sample.map((r) => r.tags)),
      people: commonLabels(sample.map((r) => r.people)),
      words: commonLabels(sample.map((r) => contentWords(r.content ?? ''))),
      at: now,
    };
    this.common.set(store, common);
    return common;
  }
}
