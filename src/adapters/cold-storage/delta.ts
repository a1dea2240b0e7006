/**
 * A delta: what changed in scope since the head (the last verified export),
 * chained to it by its sha256. Every statement that writes a node, or one of
 * its outgoing relationships, stamps the node's `changedAt` with Neo4j's
 * clock; forgetting (the only deletion) leaves a stamped MemoryForgotten
 * event. A delta holds the deleted keys, the changed nodes whole, and all of
 * their outgoing relationships.
 */
import { writeColdFile, type ExportOptions, type ExportResult } from './export.js';
import type { Head } from './head.js';
import { COMMIT_OVERLAP_MS, FORMAT_VERSION } from './format.js';
import { neo4jNow, readChanges } from './read-graph.js';
import type { LosslessGraph } from './lossless-graph.js';

export { COMMIT_OVERLAP_MS } from './format.js';

export async function writeDelta(
  graph: LosslessGraph,
  dir: string,
  head: Head,
  options: ExportOptions,
): Promise<ExportResult> {
  const until = await neo4jNow(graph);
  const since = head.until - COMMIT_OVERLAP_MS;
  return writeColdFile(dir, { kind: 'delta', previous: head.sha256, since, until }, options, (sink) =>
    readChanges(graph, options.stores, since, sink, FORMAT_VERSION, until - COMMIT_OVERLAP_MS),
  );
}
