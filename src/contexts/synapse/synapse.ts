/**
 * Synapse, the association layer. It reacts to Hippocampus's events (mechanical
 * links when a memory is stored, stronger links when one is claimed) and to the
 * mind's AssociateCommand (semantic links), and answers traversal reads. It
 * writes association relationships only, never Memory nodes.
 */
import {
  ASSOCIATION_DIRECTIONS,
  ASSOCIATION_TYPES,
  InvalidInputError,
  NotFoundError,
  assertNever,
  concurrent,
  type AssociateCommand,
  type AssociationOrigin,
  type AssociationType,
  type AssociationsFound,
  type AssociationsQuery,
  type NeighbourhoodQuery,
  type Bus,
  type MemoryClaimed,
  type MemoryRecord,
  type Meta,
  type GraphPort,
  type RequestLoad,
  withinReach,
} from '../../domain/index.js';
import { Q } from './cypher.js';
import { canonical, toAssociation, type AssociationRecord } from './records.js';
import {
  DEFAULT_SEMANTIC_STRENGTH,
  DEFAULT_STEP,
  storedStrength,
  strengthen,
  validateStrength,
  weaken,
} from './strength.js';
import { LinkPipeline, linkSourceOf, type Linking, type StartLinking } from './link-pipeline.js';
import type { LinkSource } from './mechanical.js';
import { isAssociationType, MAX_LIMIT, type SynapseSettings } from './settings.js';
import * as read from './traversal.js';
import type { Activated, Seed } from './activation.js';

export interface SynapseDeps {
  readonly graph: GraphPort;
  readonly bus: Bus;
  readonly settings: SynapseSettings;
  readonly clock?: () => number;
  /** Starts the linking thread; without it, mechanical linking runs on the calling thread. */
  readonly linkingThread?: StartLinking | null;
  /** The requests the process serves: linking on the calling thread paces itself by them (Pacer). */
  readonly load?: RequestLoad;
}

type Link = AssociationsFound['data']['links'][number];

/** What a memory handed to linking carries back: its id (for MemoriesLinked) and the event that caused it. */
type LinkTag = { readonly id: string; readonly cause: Meta };

/** Reconciliation: memories a crash left unlinked, relinked per run at most. */
const RELINK_PAGE = 500;

type AssociationRow = {
  readonly origin: AssociationOrigin;
  readonly strength: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly changeId?: string | null;
};

const invalid = (code: string, message: string, details?: Record<string, unknown>) =>
  new InvalidInputError(`SYNAPSE.${code}`, message, details);

export class Synapse {
  private readonly graph: GraphPort;
  private readonly bus: Bus;
  readonly settings: SynapseSettings;
  private readonly clock: () => number;
  private readonly linking: Linking<LinkTag>;

  constructor(deps: SynapseDeps) {
    this.graph = deps.graph;
    this.bus = deps.bus;
    this.settings = deps.settings;
    this.clock = deps.clock ?? Date.now;
    // A batch's links are reported once, caused by its first memory's MemoryStored;
    // then its memories wait for linking no longer (Hippocampus clears the mark).
    const linked = (store: string, links: Link[], tags: LinkTag[]) => {
      const first = tags[0] as LinkTag;
      this.found(store, links, first.cause);
      this.bus.publish(
        this.bus.message('MemoriesLinked', { store, ids: tags.map((t) => t.id) }, 'synapse', { cause: first.cause }),
      );
    };
    this.linking = deps.linkingThread
      ? deps.linkingThread(linked)
      : new LinkPipeline(this.graph, this.settings, linked, deps.load ?? null);
  }

  /** Puts the handlers on the bus; commands about one pair keep their order. */
  register(): this {
    const bus = this.bus;
    if (this.settings.mechanicalLinking) {
      // A key per message: they all reach the coalescer at once and share a batch.
      // The handler settles when the memory's links are written, not when they are planned.
      bus.subscribe(
        'synapse',
        'MemoryStored',
        (m) => this.stored(m.data.memory, m.meta),
        (m) => `stored:${m.meta.messageId}`,
      );
    }
    bus.subscribe(
      'synapse',
      'MemoryClaimed',
      (m) => this.claimed(m).then(() => undefined),
      (m) => m.data.id,
    );
    bus.handle(
      'synapse',
      'AssociateCommand',
      (m) => this.associate(m),
      (m) => {
        const { lo, hi } = canonical(m.data.a, m.data.b);
        return `pair:${lo}:${hi}`;
      },
    );
    bus.handle(
      'synapse',
      'AssociationsOfQuery',
      ({ data: { id, ...query } }) => this.associations(id, query),
      concurrent,
    );
    bus.handle(
      'synapse',
      'NeighbourhoodOfQuery',
      ({ data: { id, ...query } }) => this.neighbourhood(id, query),
      concurrent,
    );
    return this;
  }

  // ── events ────────────────────────────────────────────────────────────────

  /** Settles when the memory's mechanical links are written (or their write failed). */
  private stored(memory: MemoryRecord, meta: Meta): Promise<void> {
    return this.linking.link(linkSourceOf(memory), this.clock(), { id: memory.id, cause: meta });
  }

  /**
   * The reconciliation: links again the memories stored before `before` whose
   * links were never written (a killed process or linking thread lost them).
   * Linking is idempotent (MERGE per pair and type), so a memory linked twice
   * gets no second link. Returns how many were handed to linking, and how many
   * of them failed again (they stay for the next run).
   */
  async relinkPending(before: number, stores: readonly string[] | null): Promise<{ relinked: number; failed: number }> {
    if (!this.settings.mechanicalLinking) return { relinked: 0, failed: 0 };
    const rows = await this.graph.read<LinkSource>(Q.unlinkedMemories, {
      before,
      limit: RELINK_PAGE,
      stores: stores ? [...stores] : null,
    });
    const cause = this.bus.meta('synapse');
    const results = await Promise.allSettled(
      rows.map((row) => this.linking.link(linkSourceOf(row), this.clock(), { id: row.id, cause })),
    );
    return { relinked: rows.length, failed: results.filter((r) => r.status === 'rejected').length };
  }

  /** A claim strengthens every link of the memory by `claimBoost` (saturating). */
  async claimed(event: MemoryClaimed): Promise<Link[]> {
    const { id, store } = event.data;
    await this.linked(store); // links still being made for this store get the boost too
    const now = this.clock();
    const changeId = event.meta.messageId;
    const changed = await this.graph.transaction(async (tx) => {
      const rows = await tx.run<{ other: string; type: AssociationType; strength: number; changeId: string | null }>(
        Q.memoryAssociations,
        {
          id,
          types: [...ASSOCIATION_TYPES],
          minStrength: 0,
          limit: MAX_LIMIT * 10,
        },
      );
      // A replayed transaction finds its own changeId on what it changed already.
      const changes = rows
        .filter((r) => r.changeId !== changeId)
        .map((r) => ({
          ...canonical(id, r.other),
          type: r.type,
          strength: strengthen(r.strength, this.settings.claimBoost),
        }));
      if (changes.length === 0) return [];
      return tx.run<Link>(Q.setStrengths, { changes, now, changeId });
    });
    const links = changed.map(({ a, b, type, origin, strength }) => ({ a, b, type, origin, strength }));
    this.found(store, links, event.meta);
    return links;
  }

  // ── commands ──────────────────────────────────────────────────────────────

  /** The mind's CREATE, STRENGTHEN or WEAKEN of a typed link; a refused call writes nothing. */
  async associate(command: AssociateCommand): Promise<AssociationRecord> {
    const { a, b, type, direction } = command.data;
    if (!isAssociationType(type)) throw invalid('UNKNOWN_TYPE', `unknown association type "${String(type)}"`);
    if (!(ASSOCIATION_DIRECTIONS as readonly string[]).includes(direction))
      throw invalid('UNKNOWN_DIRECTION', `unknown direction "${String(direction)}"`);
    if (a === b) throw invalid('SELF_LINK', 'a memory cannot be associated with itself', { id: a });
    const amount = validateStrength(
      command.data.strength,
      direction === 'CREATE' ? DEFAULT_SEMANTIC_STRENGTH : DEFAULT_STEP,
    );
    const now = this.clock();
    const changeId = command.meta.messageId;
    const { lo, hi } = canonical(a, b);
    const { row, store } = await this.graph.transaction(async (tx) => {
      // A memory outside the caller's reach is missing to it: the same error, so it learns nothing of other stores.
      const found = (await tx.run<{ id: string; store: string }>(Q.getMemoryStores, { ids: [a, b] })).filter((f) =>
        withinReach(command.data.reach, f.store),
      );
      const missing = [a, b].filter((id) => !found.some((f) => f.id === id));
      if (missing.length > 0)
        throw new NotFoundError('SYNAPSE.MEMORY_NOT_FOUND', `no memory with id ${missing.join(', ')}`, {
          ids: missing,
        });
      const stores = [...new Set(found.map((f) => f.store))];
      if (stores.length > 1) throw invalid('CROSS_STORE', 'associated memories must belong to one store', { stores });
      const store = stores[0] as string;
      const existing = (await tx.run<AssociationRow>(Q.getAssociation, { lo, hi, type }))[0];
      if (existing && existing.changeId === changeId) return { row: existing, store }; // a replay: applied already
      switch (direction) {
        case 'CREATE': {
          const strength = storedStrength(command.data.strength ?? Math.max(existing?.strength ?? 0, amount));
          const rows = await tx.run<AssociationRow>(Q.putSemanticAssociation, {
            lo,
            hi,
            type,
            strength,
            now,
            changeId,
          });
          return { row: rows[0] as AssociationRow, store };
        }
        case 'STRENGTHEN':
        case 'WEAKEN': {
          if (!existing)
            throw new NotFoundError(
              'SYNAPSE.ASSOCIATION_NOT_FOUND',
              `no ${type} association between ${a} and ${b} to ${direction.toLowerCase()}`,
              { a, b, type },
            );
          const strength =
            direction === 'STRENGTHEN' ? strengthen(existing.strength, amount) : weaken(existing.strength, amount);
          const rows = await tx.run<AssociationRow>(Q.setStrengths, {
            changes: [{ lo, hi, type, strength }],
            now,
            changeId,
          });
          return { row: rows[0] as AssociationRow, store };
        }
        default:
          return assertNever(direction, 'direction');
      }
    });
    this.found(store, [{ a: lo, b: hi, type, origin: row.origin, strength: row.strength }], command.meta);
    return toAssociation(a, { ...row, other: b, type });
  }

  // ── reads ─────────────────────────────────────────────────────────────────

  associations(id: string, query: AssociationsQuery = {}): Promise<AssociationRecord[]> {
    return read.associationsOf(this.graph, id, query);
  }

  neighbourhood(id: string, query: NeighbourhoodQuery = {}): Promise<AssociationRecord[]> {
    return read.neighbourhood(this.graph, id, query);
  }

  /** Spreading activation for Recall: memories reached from the seeds, most activated first. */
  activate(store: string, seeds: readonly Seed[], query: read.ActivationQuery = {}): Promise<Activated[]> {
    return read.activate(this.graph, this.settings, store, seeds, query);
  }

  /** Resolves once every stored memory handed to Synapse so far is linked. */
  linked(store: string): Promise<void> {
    return this.linking.idle(store);
  }

  /** Readies mechanical linking (its thread) before the first memory arrives: the service calls it once it is up. */
  warmUp(): void {
    if (this.settings.mechanicalLinking) this.linking.warmUp();
  }

  /** Stops the linking thread, once what it holds is linked. */
  close(): Promise<void> {
    return this.linking.close();
  }

  private found(store: string, links: readonly Link[], cause: Meta): void {
    if (links.length === 0) return;
    this.bus.publish(this.bus.message('AssociationsFound', { store, links }, 'synapse', { cause }));
  }
}
