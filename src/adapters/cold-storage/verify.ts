/**
 * Checks an export twice: the file against its own trailer (SHA-256 of the
 * bytes, counts, content digest), and the live store against the file (the
 * same counts and digest recomputed from Neo4j).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import {
  FORMAT,
  FORMAT_VERSION,
  GraphDigest,
  compareCounts,
  type Header,
  type Line,
  type NodeLine,
  type RelationshipLine,
  type Trailer,
} from './format.js';
import { readGraph } from './read-graph.js';
import type { LosslessGraph } from './lossless-graph.js';

export interface FileCheck {
  readonly header: Header | null;
  readonly trailer: Trailer | null;
  readonly problems: string[];
}

export interface ExportCheck {
  readonly verified: boolean;
  readonly problems: readonly string[];
}

/** Reads an export line by line; `onRecord` sees each node and relationship. */
export async function checkFile(
  path: string,
  onRecord?: (line: NodeLine | RelationshipLine) => void | Promise<void>,
): Promise<FileCheck> {
  const problems: string[] = [];
  const hash = createHash('sha256');
  const digest = new GraphDigest();
  let header: Header | null = null;
  let trailer: Trailer | null = null;
  let lineNo = 0;
  let seenRelationship = false;
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
    if (line.type === 'node') {
      if (seenRelationship) problems.push(`line ${lineNo}: a node after the relationships`);
      digest.node(line);
    } else if (line.type === 'relationship') {
      seenRelationship = true;
      digest.relationship(line);
    } else {
      problems.push(`line ${lineNo}: unexpected ${(line as { type: string }).type} line`);
      continue;
    }
    await onRecord?.(line);
  }
  if (!header && problems.length === 0) problems.push('the file is empty');
  if (header && !trailer && problems.length === 0) problems.push('no trailer: the export is incomplete');
  if (trailer) {
    if (hash.digest('hex') !== trailer.sha256) problems.push('sha256 of the file does not match its trailer');
    problems.push(...compareCounts(trailer.counts, digest.counts()).map((p) => `file: ${p}`));
    if (digest.digest() !== trailer.digest) problems.push('content digest of the file does not match its trailer');
  }
  return { header, trailer, problems };
}

/** The live store (in the export's scope) against the export's trailer. */
export async function checkLive(graph: LosslessGraph, header: Header, trailer: Trailer): Promise<string[]> {
  const live = new GraphDigest();
  await readGraph(graph, header.scope.stores, live);
  const problems = compareCounts(trailer.counts, live.counts()).map((p) => `Neo4j: ${p}`);
  if (live.digest() !== trailer.digest) problems.push('Neo4j: content digest differs from the export');
  return problems;
}

export async function verifyExport(graph: LosslessGraph, path: string): Promise<ExportCheck> {
  const file = await checkFile(path);
  if (file.problems.length > 0 || !file.header || !file.trailer) return { verified: false, problems: file.problems };
  const problems = await checkLive(graph, file.header, file.trailer);
  return { verified: problems.length === 0, problems };
}
