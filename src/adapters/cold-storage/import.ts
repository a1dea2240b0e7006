/**
 * Restores an export. The file is checked first (nothing is written for a
 * damaged file); the database must be empty unless the caller says otherwise;
 * nodes go in first with a temporary label and reference, relationships find
 * their ends by it, the temporary marks are removed, and the result is checked
 * against the export's trailer.
 */
import neo4j from 'neo4j-driver';
import { Q } from './cypher.js';
import { decodeProps, type Counts, type NodeLine, type RelationshipLine } from './format.js';
import { checkFile, checkLive } from './verify.js';
import type { LosslessGraph } from './lossless-graph.js';

export interface ImportOptions {
  /** Restore into a database that already holds nodes (the default refuses). */
  readonly allowNonEmpty?: boolean;
  readonly batchSize?: number;
  readonly log?: (line: string) => void;
  /** Called after each batch written: records (nodes and relationships) restored so far, of the total. */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface ImportReport {
  readonly path: string;
  readonly counts: Counts;
  readonly verified: boolean;
  readonly problems: readonly string[];
}

export class ImportRefused extends Error {}

export async function importExport(
  graph: LosslessGraph,
  path: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const batchSize = options.batchSize ?? 500;
  const log = options.log ?? (() => undefined);
  const checked = await checkFile(path);
  if (checked.problems.length > 0 || !checked.header || !checked.trailer) {
    throw new ImportRefused(`${path} is not a complete, intact export: ${checked.problems.join('; ')}`);
  }
  const [{ count }] = (await graph.run(Q.countNodes)) as [{ count: { toNumber(): number } }];
  if (count.toNumber() > 0 && !options.allowNonEmpty) {
    throw new ImportRefused(
      `the database holds ${count.toNumber()} nodes; import restores into an empty database (pass --allow-non-empty ` +
        `to add to it)`,
    );
  }
  const { header, trailer } = checked;
  log(
    `restoring ${trailer.counts.totalNodes} nodes and ${trailer.counts.totalRelationships} relationships from ${path}`,
  );
  await graph.run(Q.importRefIndex);
  await graph.run(Q.importAwaitIndex);
  const total = trailer.counts.totalNodes + trailer.counts.totalRelationships;
  let done = 0;
  const progressed = (n: number) => {
    done += n;
    options.onProgress?.(done, total);
  };
  try {
    let nodes: Record<string, unknown>[] = [];
    let relationships: Record<string, unknown>[] = [];
    const writeNodes = async () => {
      if (nodes.length === 0) return;
      await graph.run(Q.importNodes, { rows: nodes });
      progressed(nodes.length);
      nodes = [];
    };
    const writeRelationships = async () => {
      if (relationships.length === 0) return;
      const [row] = await graph.run(Q.importRelationships, { rows: relationships });
      const made = (row?.count as { toNumber(): number } | undefined)?.toNumber() ?? 0;
      if (made !== relationships.length)
        throw new Error(`${relationships.length - made} relationships name a node the export does not hold`);
      progressed(relationships.length);
      relationships = [];
    };
    await checkFile(path, async (line: NodeLine | RelationshipLine) => {
      if (line.type === 'node') {
        nodes.push({ ref: line.ref, labels: line.labels, props: decodeProps(line.props, line.types) });
        if (nodes.length >= batchSize) await writeNodes();
      } else {
        await writeNodes();
        relationships.push({
          start: line.start,
          end: line.end,
          type: line.rel,
          props: decodeProps(line.props, line.types),
        });
        if (relationships.length >= batchSize) await writeRelationships();
      }
    });
    await writeNodes();
    await writeRelationships();
  } finally {
    for (;;) {
      const [row] = await graph.run(Q.importFinish, { limit: neo4j.int(10_000) });
      if (((row?.count as { toNumber(): number } | undefined)?.toNumber() ?? 0) === 0) break;
    }
    await graph.run(Q.importDropIndex);
  }
  const problems = await checkLive(graph, header, trailer);
  return { path, counts: trailer.counts, verified: problems.length === 0, problems };
}
