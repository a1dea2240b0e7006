/**
 * Reads over the association graph, always undirected: a memory's own links,
 * its neighbourhood (breadth first, one round trip per level) and spreading
 * activation for Recall (one round trip per hop, never one per memory).
 */
import {
  DEFAULT_ASSOCIATIONS_LIMIT,
  DEFAULT_NEIGHBOURHOOD_LIMIT,
  NotFoundError,
  type AssociationType,
  type AssociationsQuery,
  type GraphPort,
  type NeighbourhoodQuery,
} from '../../domain/index.js';
import { Q } from './cypher.js';
import { toAssociation, type AssociationRecord } from './records.js';
import { Levels } from './neighbourhood.js';
import { Spread, type Activated, type Seed } from './activation.js';
import {
  ACTIVATION_FRONTIER,
  ACTIVATION_MIN_SHARE,
  ACTIVATION_PER_NODE,
  validateDepth,
  validateLimit,
  validateMinStrength,
  validateTypes,
  type SynapseSettings,
} from './settings.js';

export interface ActivationQuery {
  readonly maxHops?: number;
  readonly maxNodes?: number;
  readonly types?: readonly string[] | null;
}

export const notFound = (id: string) =>
  new NotFoundError('SYNAPSE.MEMORY_NOT_FOUND', `no memory with id ${id}`, { id });

export async function associationsOf(
  graph: GraphPort,
  id: string,
  query: AssociationsQuery,
): Promise<AssociationRecord[]> {
  const rows = await graph.read(Q.memoryAssociations, {
    id,
    types: validateTypes(query.types),
    minStrength: validateMinStrength(query.minStrength),
    limit: validateLimit(query.limit ?? DEFAULT_ASSOCIATIONS_LIMIT),
  });
  return rows.map((row) => toAssociation(id, row));
}

export async function neighbourhood(
  graph: GraphPort,
  id: string,
  query: NeighbourhoodQuery,
): Promise<AssociationRecord[]> {
  const depth = validateDepth(query.depth ?? 1);
  const types = validateTypes(query.types);
  const limit = validateLimit(query.limit ?? DEFAULT_NEIGHBOURHOOD_LIMIT);
  return graph.readTransaction(async (tx) => {
    if ((await tx.run(Q.getMemoryStores, { ids: [id] })).length === 0) throw notFound(id);
    const levels = new Levels(id);
    const out: AssociationRecord[] = [];
    for (let level = 1; level <= depth && out.length < limit; level++) {
      const frontier = levels.frontier();
      if (frontier.length === 0) break;
      // Enough per memory for the level's budget twice over, so the strongest of the level win.
      const remaining = limit - out.length;
      const rows = await tx.run<{ from: string; to: string; type: string; strength: number }>(Q.expandNeighbourhood, {
        ids: frontier,
        types,
        perNode: Math.min(remaining, Math.max(10, Math.ceil((2 * remaining) / frontier.length))),
      });
      for (const e of levels.take(rows, remaining)) out.push(toAssociation(e.from, { ...e, other: e.to }, e.hop));
    }
    return out;
  });
}

/** Spreading activation from seed memories of one store (see activation.ts). */
export async function activate(
  graph: GraphPort,
  settings: SynapseSettings,
  store: string,
  seeds: readonly Seed[],
  query: ActivationQuery = {},
): Promise<Activated[]> {
  const maxHops = validateDepth(query.maxHops ?? 2, 'maxHops');
  const types = validateTypes(query.types);
  const maxNodes = validateLimit(query.maxNodes ?? settings.maxActivatedNodes);
  const options = {
    maxHops,
    maxNodes,
    hopDecay: settings.hopDecay,
    maxFrontier: ACTIVATION_FRONTIER,
    minShare: ACTIVATION_MIN_SHARE,
  };
  // One auto-commit read per hop over the whole frontier (never one per
  // memory). Activation is a ranking signal, so hops need not share one
  // snapshot, and no transaction means no round trips to open and close one.
  // (Fetching the first two hops in one statement was measured slower at 100k
  // memories: it expands every memory the seeds reach, not just the frontier.)
  const spread = new Spread(seeds, options);
  for (let frontier = spread.frontier(); frontier.length > 0; frontier = spread.frontier()) {
    const rows = await graph.read<{ from: string; fan: number; edges: [string, AssociationType, number][] }>(
      Q.expandActivation,
      {
        store,
        ids: frontier,
        types,
        perNode: ACTIVATION_PER_NODE,
      },
    );
    spread.step(
      rows.flatMap((row) =>
        row.edges.map(([to, type, strength]) => ({ from: row.from, to, type, strength, fan: row.fan })),
      ),
    );
  }
  return spread.result();
}
