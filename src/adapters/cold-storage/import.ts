/**
 * Restores a chain (a full export and the deltas that follow it, chain.ts):
 * every file and link is checked first (nothing is written for a damaged file
 * or a broken chain); the database must be empty unless the caller says
 * otherwise; the full export's nodes go in with a temporary label and key,
 * its relationships find their ends by it, each delta then deletes, replaces
 * and relinks what it names, the temporary marks are removed, and the result
 * is checked against the graph the chain ends in. An import that fails while
 * writing deletes what it wrote (every node it wrote carries its mark); one
 * that was killed leaves its marked nodes, which the next import removes.
 */
import neo4j from 'neo4j-driver';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Q } from './cypher.js';
import { ChainError, chainOf, resolveChain, type ChainFile } from './chain.js';
import { GraphDigest, compareCounts, fileKind, nodeKey, type Counts } from './format.js';
import { clearHeads } from './head.js';
import { readGraph } from './read-graph.js';
import { decodeProps } from './values.js';
import { checkFile } from './verify.js';
import type { LosslessGraph } from './lossless-graph.js';

export interface ImportOptions {
  /** Restore into a database that already holds nodes (the default refuses). */
  readonly allowNonEmpty?: boolean;
  readonly batchSize?: number;
  readonly log?: (line: string) => void;
  /** Called after each batch written: records (nodes and relationships) restored so far, of the total. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Runs once the chain is checked and the database admitted, before anything is written (the schema, say). */
  readonly beforeWrite?: () => Promise<void>;
}

export interface ImportReport {
  readonly path: string;
  /** The chain's files, its full export first. */
  readonly files: readonly string[];
  readonly counts: Counts;
  readonly verified: boolean;
  readonly problems: readonly string[];
}

export class ImportRefused extends Error {}

/** An import that failed while writing; what it wrote was removed. */
export class ImportFailed extends Error {}

const BATCH = neo4j.int(10_000);

const toCount = (row: Record<string, unknown> | undefined) =>
  (row?.count as { toNumber(): number } | undefined)?.toNumber() ?? 0;

/** The graph the chain ends in, as a digest (every file checked against its trailer and link on the way). */
async function expectedGraph(chain: readonly ChainFile[]): Promise<GraphDigest> {
  const expected = new GraphDigest();
  await resolveChain(chain, expected);
  return expected;
}

/** Writes one file of the chain: a full export's records are created, a delta's applied over them. */
async function writeFile(
  graph: LosslessGraph,
  file: ChainFile,
  mark: string,
  batchSize: number,
  progressed: (n: number) => void,
): Promise<void> {
  const delta = fileKind(file.header) === 'delta';
  let deleted: string[] = [];
  let nodes: Record<string, unknown>[] = [];
  let relationships: Record<string, unknown>[] = [];
  const writeDeleted = async () => {
    if (deleted.length === 0) return;
    await graph.run(Q.importDeleteNodes, { keys: deleted });
    deleted = [];
  };
  const writeNodes = async () => {
    await writeDeleted();
    if (nodes.length === 0) return;
    await graph.run(delta ? Q.importUpsertNodes : Q.importNodes, { rows: nodes });
    progressed(nodes.length);
    nodes = [];
  };
  const writeRelationships = async () => {
    if (relationships.length === 0) return;
    const made = toCount((await graph.run(Q.importRelationships, { rows: relationships }))[0]);
    if (made !== relationships.length)
      throw new Error(
        `${relationships.length - made} relationships in ${file.path} name a node the chain does not hold`,
      );
    progressed(relationships.length);
    relationships = [];
  };
  await checkFile(file.path, async (line) => {
    if (line.type === 'deleted') {
      deleted.push(mark + line.key);
      if (deleted.length >= batchSize) await writeDeleted();
    } else if (line.type === 'node') {
      nodes.push({ ref: mark + nodeKey(line.ref), labels: line.labels, props: decodeProps(line.props, line.types) });
      if (nodes.length >= batchSize) await writeNodes();
    } else {
      await writeNodes();
      relationships.push({
        start: mark + nodeKey(line.start),
        end: mark + nodeKey(line.end),
        type: line.rel,
        props: decodeProps(line.props, line.types),
      });
      if (relationships.length >= batchSize) await writeRelationships();
    }
  });
  await writeNodes();
  await writeRelationships();
}

/** Deletes what the import with this mark wrote; how many nodes. */
async function removeMarked(graph: LosslessGraph, mark: string): Promise<number> {
  for (let removed = 0; ; ) {
    const n = toCount((await graph.run(Q.importAbort, { mark, limit: BATCH }))[0]);
    if (n === 0) return removed;
    removed += n;
  }
}

/**
 * Whether the import that wrote this mark (`host/pid/uuid:`) is gone: it ran on this machine and its process no
 * longer exists. One of another machine, or still running, is left alone.
 */
function abandoned(mark: string): boolean {
  const [host, pid] = mark.split('/');
  if (host !== hostname() || !/^\d+$/.test(pid ?? '')) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Takes one import's temporary marks off its nodes, then the record that it had written everything. */
async function unmark(graph: LosslessGraph, mark: string): Promise<void> {
  while (toCount((await graph.run(Q.importFinish, { mark, limit: BATCH }))[0]) > 0);
  await graph.run(Q.importWrittenClear, { mark });
}

/**
 * Deals with what imports killed before they finished left: one stopped while writing left part of a graph, which
 * goes (only nodes still carrying its mark); one stopped while taking its marks off had written everything, and
 * is finished.
 */
async function removeAbandoned(graph: LosslessGraph, log: (line: string) => void): Promise<void> {
  for (const row of await graph.run(Q.importMarks)) {
    const mark = row.mark as string | null;
    if (!mark || !abandoned(mark)) continue;
    if (row.written === true) {
      await unmark(graph, mark);
      log(`finished what an import stopped while finishing had restored (${mark.slice(0, -1)})`);
    } else log(`removed ${await removeMarked(graph, mark)} nodes an unfinished import left (${mark.slice(0, -1)})`);
  }
}

export async function importChain(
  graph: LosslessGraph,
  target: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const batchSize = options.batchSize ?? 500;
  const log = options.log ?? (() => undefined);
  let chain: ChainFile[];
  let expected: GraphDigest;
  try {
    chain = await chainOf(target);
    expected = await expectedGraph(chain);
  } catch (error) {
    if (error instanceof ChainError) throw new ImportRefused(error.message);
    throw error;
  }
  await removeAbandoned(graph, log);
  const count = toCount((await graph.run(Q.countNodes))[0]);
  if (count > 0 && !options.allowNonEmpty) {
    throw new ImportRefused(
      `the database holds ${count} nodes; import restores into an empty database (pass --allow-non-empty ` +
        'to add to it)',
    );
  }
  await options.beforeWrite?.();
  const counts = expected.counts();
  const files = chain.map((f) => f.path);
  log(
    `restoring ${counts.totalNodes} nodes and ${counts.totalRelationships} relationships from ${files.length} ` +
      `file${files.length === 1 ? '' : 's'}: ${files.join(', ')}`,
  );
  await graph.run(Q.importRefIndex);
  await graph.run(Q.importAwaitIndex);
  const total = chain.reduce((n, f) => n + f.trailer.counts.totalNodes + f.trailer.counts.totalRelationships, 0);
  let done = 0;
  const progressed = (n: number) => {
    done += n;
    options.onProgress?.(done, total);
  };
  // This import's temporary keys start with its own mark: another import beside it keeps its own. Its machine and
  // process in it tell a later import whether it is still running.
  const mark = `${hostname()}/${process.pid}/${randomUUID()}:`;
  try {
    for (const file of chain) await writeFile(graph, file, mark, batchSize, progressed);
  } catch (error) {
    // Each batch commits alone: without this, the nodes written so far would stay, with only some relationships.
    const removed = await removeMarked(graph, mark).then(
      () => 'what it wrote was removed; the database is as it was',
      (cleanup: Error) => `removing what it wrote failed too (${cleanup.message}); the next import removes it`,
    );
    const why = (error as Error).message.split('\n')[0];
    throw new ImportFailed(`the import failed while writing (${why}); ${removed}`, {
      cause: error,
    });
  }
  await graph.run(Q.importWritten, { mark });
  await unmark(graph, mark);
  const stores = chain[0]?.header.scope.stores ?? null;
  await clearHeads(graph, stores);
  const live = new GraphDigest();
  await readGraph(graph, stores, live);
  const problems = compareCounts(counts, live.counts()).map((p) => `Neo4j: ${p}`);
  if (live.digest() !== expected.digest()) problems.push('Neo4j: content digest differs from the export');
  return { path: target, files, counts, verified: problems.length === 0, problems };
}
