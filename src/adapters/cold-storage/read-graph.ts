/**
 * Streams the graph in scope as cold-storage records: every node, then every
 * relationship — or, for a delta, what was stamped since a time: the memories
 * forgotten, the nodes changed, and all the outgoing relationships of those.
 */
import neo4j from 'neo4j-driver';
import type { RecordShape } from 'neo4j-driver';
import { Q } from './cypher.js';
import { FORMAT_VERSION, keptProps, nodeKey, nodeRef, type NodeLine, type RelationshipLine } from './format.js';
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

const millis = (value: unknown): number | null =>
  value === null || value === undefined ? null : neo4j.isInt(value) ? value.toNumber() : Number(value);

/**
 * Keeps a file whole while writers run (a background checkpoint). Nodes and
 * relationships are read by separate statements, so the relationships read
 * may start at a node the file did not read (created, or first changed,
 * after the nodes were read) or end at one created since, which the file
 * would name without holding. Such a relationship is left out when the next
 * delta is sure to carry it: every write stamps the node it changes and the
 * start of every relationship it makes, and the next delta holds every node
 * stamped at or after `lateFrom` (the export's clock reading less the commit
 * overlap, delta.ts) with all its relationships. A relationship from a node
 * the file holds to one that existed before stays in. With nothing writing,
 * nothing is left out: every node stamped that late is read. The keys read
 * are held while the file is written.
 */
export class ReadSince {
  private readonly read = new Set<string>();

  constructor(private readonly lateFrom: number | null) {}

  private isLate(changedAt: unknown): boolean {
    const at = millis(changedAt);
    return this.lateFrom !== null && at !== null && at >= this.lateFrom;
  }

  /** Notes a node the file holds. */
  node(line: NodeLine): NodeLine {
    if (this.lateFrom !== null) this.read.add(nodeKey(line.ref));
    return line;
  }

  /** False for a relationship the file cannot hold whole and the next delta carries. */
  keeps(row: RecordShape, line: RelationshipLine): boolean {
    if (this.lateFrom === null) return true;
    if (!this.read.has(nodeKey(line.start))) return false;
    const endMayBeNew = !this.read.has(nodeKey(line.end)) && this.isLate(row.endChangedAt);
    return !(endMayBeNew && this.isLate(row.startChangedAt));
  }
}

/**
 * The whole graph in scope, in format `version`'s form (a check of an older
 * file reads it in that file's). With `lateFrom` (an export's clock reading
 * less the commit overlap), a relationship the file could not hold whole is
 * left to the next delta (ReadSince).
 */
export async function readGraph(
  graph: LosslessGraph,
  stores: readonly string[] | null,
  visit: GraphVisitor,
  version = FORMAT_VERSION,
  lateFrom: number | null = null,
): Promise<void> {
  const read = new ReadSince(lateFrom);
  await graph.stream(Q.exportNodes, { stores }, (row) => visit.node(read.node(nodeLine(row, version))));
  await graph.stream(Q.exportRelationships, { stores }, (row) => {
    const line = relationshipLine(row, version);
    return read.keeps(row, line) ? visit.relationship(line) : undefined;
  });
}

/**
 * What was stamped at or after `since` (Neo4j ms): deleted nodes, changed
 * nodes, their outgoing relationships. With `lateFrom`, as readGraph.
 */
export async function readChanges(
  graph: LosslessGraph,
  stores: readonly string[] | null,
  since: number,
  visit: DeltaVisitor,
  version = FORMAT_VERSION,
  lateFrom: number | null = null,
): Promise<void> {
  const params = { stores, since: neo4j.int(since) };
  const read = new ReadSince(lateFrom);
  await graph.stream(Q.deltaDeleted, params, (row) => visit.deleted(`#${String(row.id)}`));
  await graph.stream(Q.deltaNodes, params, (row) => visit.node(read.node(nodeLine(row, version))));
  await graph.stream(Q.deltaRelationships, params, (row) => {
    const line = relationshipLine(row, version);
    return read.keeps(row, line) ? visit.relationship(line) : undefined;
  });
}

/** Neo4j's clock (ms), the one `changedAt` stamps are read from. */
export async function neo4jNow(graph: LosslessGraph): Promise<number> {
  const [row] = await graph.run(Q.now);
  if (!row) throw new Error('Neo4j did not say the time');
  return (row.now as { toNumber(): number }).toNumber();
}
