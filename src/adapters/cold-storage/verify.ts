/**
 * Checks an export twice: the file against its own trailer (SHA-256 of the
 * bytes, counts, content digest), and the live store against the file — a
 * full export against the whole graph in scope, a delta against what changed
 * since the export it follows (its link to that file checked too).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Q } from './cypher.js';
import {
  FORMAT,
  FORMAT_VERSION,
  GraphDigest,
  compareCounts,
  fileKind,
  type Header,
  type Line,
  type NodeLine,
  type RelationshipLine,
  type Trailer,
  type FileRecord,
} from './format.js';
import { readTrailer, type Head } from './head.js';
import { checkWhileWriting } from './live-check.js';
import { readChanges, readGraph } from './read-graph.js';
import type { LosslessGraph } from './lossless-graph.js';

export interface FileCheck {
  readonly header: Header | null;
  readonly trailer: Trailer | null;
  readonly problems: string[];
}

export interface ExportCheck {
  readonly verified: boolean;
  readonly problems: readonly string[];
  /** The file's own sha256 and clock (`until`), for the head a verified export becomes. */
  readonly sha256: string;
  readonly until: number | null;
  /**
   * Only while writers run: the file's records compared with Neo4j, and those
   * left to the next delta (their node changed after the export read it).
   */
  readonly live?: { readonly compared: number; readonly left: number };
}

export type { FileRecord } from './format.js';

const ORDER = { deleted: 0, node: 1, relationship: 2 } as const;

/** Reads an export line by line; `onRecord` sees each deleted key, node and relationship. */
export async function checkFile(
  path: string,
  onRecord?: (line: FileRecord) => void | Promise<void>,
): Promise<FileCheck> {
  const problems: string[] = [];
  const hash = createHash('sha256');
  const digest = new GraphDigest();
  let header: Header | null = null;
  let trailer: Trailer | null = null;
  let lineNo = 0;
  let stage = 0;
  let deleted = 0;
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const text of lines) {
    lineNo++;
    if (trailer) {
      problems.push(`line ${lineNo}: content after the trailer`);
      break;
    }
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      problems.push(`line ${lineNo}: not JSON`);
      break;
    }
    if (lineNo === 1) {
      if (line.type !== 'header' || line.format !== FORMAT) {
        problems.push('the first line is not a Total Recall cold-storage header');
        break;
      }
      if (line.version > FORMAT_VERSION) {
        problems.push(`format version ${line.version} is newer than this reader (${FORMAT_VERSION})`);
        break;
      }
      header = line;
      hash.update(`${text}\n`);
      continue;
    }
    if (line.type === 'trailer') {
      trailer = line;
      continue;
    }
    hash.update(`${text}\n`);
    if (line.type !== 'node' && line.type !== 'relationship' && line.type !== 'deleted') {
      problems.push(`line ${lineNo}: unexpected ${(line as { type: string }).type} line`);
      continue;
    }
    if (line.type === 'deleted' && fileKind(header as Header) !== 'delta') {
      problems.push(`line ${lineNo}: a deleted node in a full export`);
      continue;
    }
    if (ORDER[line.type] < stage) {
      const what = line.type === 'deleted' ? 'deleted node' : line.type;
      problems.push(`line ${lineNo}: a ${what} after the ${['deleted nodes', 'nodes', 'relationships'][stage]}`);
    }
    stage = Math.max(stage, ORDER[line.type]);
    if (line.type === 'node') digest.node(line);
    else if (line.type === 'relationship') digest.relationship(line);
    else deleted++;
    await onRecord?.(line);
  }
  if (!header && problems.length === 0) problems.push('the file is empty');
  if (header && !trailer && problems.length === 0) problems.push('no trailer: the export is incomplete');
  if (trailer) {
    if (hash.digest('hex') !== trailer.sha256) problems.push('sha256 of the file does not match its trailer');
    problems.push(...compareCounts(trailer.counts, digest.counts()).map((p) => `file: ${p}`));
    if ((trailer.deleted ?? 0) !== deleted)
      problems.push(`file: deleted: expected ${trailer.deleted}, found ${deleted}`);
    if (digest.digest() !== trailer.digest) problems.push('content digest of the file does not match its trailer');
  }
  return { header, trailer, problems };
}

/** The live store (in the export's scope) against a full export's trailer, read in the file's version's form. */
export async function checkLive(graph: LosslessGraph, header: Header, trailer: Trailer): Promise<string[]> {
  const live = new GraphDigest();
  await readGraph(graph, header.scope.stores, live, header.version);
  return liveProblems(trailer, live);
}

function liveProblems(trailer: Trailer, live: GraphDigest): string[] {
  const problems = compareCounts(trailer.counts, live.counts()).map((p) => `Neo4j: ${p}`);
  if (live.digest() !== trailer.digest) problems.push('Neo4j: content digest differs from the export');
  return problems;
}

/** A delta must follow the head: the last verified export, whose file still ends as it did. */
async function linkProblems(header: Header, head: Head | null): Promise<string[]> {
  if (!head || head.sha256 !== header.previous)
    return [`chain: the delta follows ${header.previous}, the last verified export is ${head?.sha256 ?? 'none'}`];
  // Gone (a compaction in another worker replaced it): not the file the delta follows.
  if ((await readTrailer(head.path).catch(() => null))?.sha256 !== header.previous)
    return [`chain: ${head.path} is not the file the delta follows`];
  return [];
}

/** A delta's records against what Neo4j holds now, and its link to the head it follows. */
async function checkDelta(
  graph: LosslessGraph,
  header: Header,
  trailer: Trailer,
  deletedInFile: readonly string[],
  head: Head | null,
): Promise<string[]> {
  const problems = await linkProblems(header, head);
  const live = new GraphDigest();
  const deleted: string[] = [];
  await readChanges(
    graph,
    header.scope.stores,
    header.since ?? 0,
    {
      ...{ node: (l: NodeLine) => live.node(l), relationship: (l: RelationshipLine) => live.relationship(l) },
      deleted: (key: string) => {
        deleted.push(key);
      },
    },
    header.version,
  );
  problems.push(...liveProblems(trailer, live));
  if ([...deleted].sort().join() !== [...deletedInFile].sort().join())
    problems.push('Neo4j: the forgotten memories differ from the delta');
  const ids = deletedInFile.map((k) => k.slice(1));
  const [row] = await graph.run(Q.countMemories, { ids });
  const present = (row?.count as { toNumber(): number } | undefined)?.toNumber() ?? 0;
  if (present > 0) problems.push(`Neo4j: ${present} memories the delta deletes still exist`);
  return problems;
}

export interface VerifyOptions {
  /**
   * The service keeps writing (a background checkpoint): records whose node
   * changed after the export read the graph are left to the next delta, and
   * the rest must match (live-check.ts).
   */
  readonly writersRunning?: boolean;
  /** Stops the check (a checkpoint's, when shutdown begins). */
  readonly signal?: AbortSignal;
}

export async function verifyExport(
  graph: LosslessGraph,
  path: string,
  head: Head | null,
  options: VerifyOptions = {},
): Promise<ExportCheck> {
  const deleted: string[] = [];
  const file = await checkFile(path, (line) => {
    if (line.type === 'deleted') deleted.push(line.key);
  });
  if (file.problems.length > 0 || !file.header || !file.trailer)
    return { verified: false, problems: file.problems, sha256: '', until: null };
  const { header, trailer } = file;
  const delta = fileKind(header) === 'delta';
  let problems: string[];
  let live: ExportCheck['live'];
  if (options.writersRunning) {
    problems = delta ? await linkProblems(header, head) : [];
    const check = await checkWhileWriting(
      graph,
      header,
      new Set(deleted),
      (each) => checkFile(path, each),
      options.signal,
    );
    problems.push(...check.problems);
    live = { compared: check.compared, left: check.left };
  } else {
    problems = delta
      ? await checkDelta(graph, header, trailer, deleted, head)
      : await checkLive(graph, header, trailer);
  }
  return { verified: problems.length === 0, problems, sha256: trailer.sha256, until: header.until ?? null, live };
}
