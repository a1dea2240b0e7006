/**
 * Streams the graph in scope as cold-storage records: every node, then every
 * relationship — or, for a delta, what was stamped since a time: the memories
 * forgotten, the nodes changed, and all the outgoing relationships of those.
 */
import neo4j from 'neo4j-driver';
import type { RecordShape } from 'neo4j-driver';
import { Q } from './cypher.js';
import { FORMAT_VERSION, keptProps, nodeRef, type NodeLine, type RelationshipLine } from './format.js';
import { encodeProps } from './values.js';
import type { LosslessGraph } from './lossless-graph.js';

export interface GraphVisitor {
  node(line: NodeLine): void | Promise<void>;
  relationship(line: RelationshipLine): void | Promise<void>;
}

export interface DeltaVisitor extends GraphVisitor {
  /** A node deleted since, by key (`#id`). */
  deleted(key: string): void | Promise<void>;
}

const nodeLine = (row: RecordShape, version: number): NodeLine => {
  const labels = row.labels as string[];
  const props = row.props as Record<string, unknown>;
  const ref = nodeRef(labels, props.id, String(row.elementId));
  return {
    type: 'node',
    ref,
    labels: [...labels].sort(),
    ...encodeProps(keptProps(labels, props, version), ref, version),
  };
};

const relationshipLine = (row: RecordShape, version: number): RelationshipLine => {
  const start = nodeRef(row.startLabels as string[], row.startId, String(row.startElementId));
  const end = nodeRef(row.endLabels as string[], row.endId, String(row.endElementId));
  const rel = String(row.type);
  return {
    type: 'relationship',
    rel,
    start,
    end,
    ...encodeProps(row.props as Record<string, unknown>, `${start}-${rel}->${end}`, version),
  };
};

/** The whole graph in scope, in format `version`'s form (a check of an older file reads it in that file's). */
export async function readGraph(
  graph: LosslessGraph,
  stores: readonly string[] | null,
  visit: GraphVisitor,
  version = FORMAT_VERSION,
): Promise<void> {
  await graph.stream(Q.exportNodes, { stores }, (row) => visit.node(nodeLine(row, version)));
  await graph.stream(Q.exportRelationships, { stores }, (row) => visit.relationship(relationshipLine(row, version)));
}

/** What was stamped at or after `since` (Neo4j ms): deleted nodes, changed nodes, their outgoing relationships. */
export async function readChanges(
  graph: LosslessGraph,
  stores: readonly string[] | null,
  since: number,
  visit: DeltaVisitor,
  version = FORMAT_VERSION,
): Promise<void> {
  const params = { stores, since: neo4j.int(since) };
  await graph.stream(Q.deltaDeleted, params, (row) => visit.deleted(`#${String(row.id)}`));
  await graph.stream(Q.deltaNodes, params, (row) => visit.node(nodeLine(row, version)));
  await graph.stream(Q.deltaRelationships, params, (row) => visit.relationship(relationshipLine(row, version)));
}

/** Neo4j's clock (ms), the one `changedAt` stamps are read from. */
export async function neo4jNow(graph: LosslessGraph): Promise<number> {
  const [row] = await graph.run(Q.now);
  if (!row) throw new Error('Neo4j did not say the time');
  return (row.now as { toNumber(): number }).toNumber();
}
