/** The tier-labels migration, run once per database at start. */
import type { GraphPort } from '../../adapters/neo4j/index.js';
import { Q } from './cypher.js';

const TIER_LABELS_MIGRATION = 'tier-labels';

/**
 * Memories stored before tier labels existed get the label of their tier
 * (Neo4j Browser styles nodes by label only), a batch at a time, once per
 * database: a marker then says it is done. Returns how many it labelled.
 */
export async function labelTiers(graph: GraphPort, now: () => number, batch = 10_000): Promise<number> {
  if ((await graph.read(Q.getMigration, { id: TIER_LABELS_MIGRATION })).length > 0) return 0;
  let total = 0;
  for (;;) {
    const labelled = Number(
      (await graph.write<{ labelled: number }>(Q.labelTiers, { limit: batch }))[0]?.labelled ?? 0,
    );
    total += labelled;
    if (labelled < batch) break;
  }
  await graph.write(Q.finishMigration, { id: TIER_LABELS_MIGRATION, now: now() });
  return total;
}
