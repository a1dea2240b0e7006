/** Streams the graph in scope as cold-storage records: every node, then every relationship. */
import { Q } from './cypher.js';
import { encodeProps, nodeRef, type NodeLine, type RelationshipLine } from './format.js';
import type { LosslessGraph } from './lossless-graph.js';

export interface GraphVisitor {
  node(line: NodeLine): void | Promise<void>;
  relationship(line: RelationshipLine): void | Promise<void>;
}

export async function readGraph(
  graph: LosslessGraph,
  stores: readonly string[] | null,
  visit: GraphVisitor,
): Promise<void> {
  await graph.stream(Q.exportNodes, { stores }, (row) => {
    const labels = row.labels as string[];
    const props = row.props as Record<string, unknown>;
    const ref = nodeRef(labels, props.id, String(row.elementId));
    return visit.node({ type: 'node', ref, labels: [...labels].sort(), ...encodeProps(props, ref) });
  });
  await graph.stream(Q.exportRelationships, { stores }, (row) => {
    const start = nodeRef(row.startLabels as string[], row.startId, String(row.startElementId));
    const end = nodeRef(row.endLabels as string[], row.endId, String(row.endElementId));
    const rel = String(row.type);
    return visit.relationship({
      type: 'relationship',
      rel,
      start,
      end,
      ...encodeProps(row.props as Record<string, unknown>, `${start}-${rel}->${end}`),
    });
  });
}
