/**
 * The head of a scope's chain: the last verified export (full or delta), kept
 * in Neo4j as a ColdStorageHead node outside every export, so a restored or
 * emptied database has none and its next export is a full one.
 */
import neo4j from 'neo4j-driver';
import { open, stat } from 'node:fs/promises';
import { Q } from './cypher.js';
import type { Trailer } from './format.js';
import type { LosslessGraph } from './lossless-graph.js';

export interface Head {
  readonly path: string;
  readonly sha256: string;
  /** The next delta takes what was stamped from here on (Neo4j ms). */
  readonly until: number;
}

export const scopeKey = (stores: readonly string[] | null): string => (stores ? [...stores].sort().join(',') : '*');

export async function readHead(graph: LosslessGraph, stores: readonly string[] | null): Promise<Head | null> {
  const [row] = await graph.run(Q.readHead, { scope: scopeKey(stores) });
  if (!row || typeof row.path !== 'string' || typeof row.sha256 !== 'string' || row.until === null) return null;
  const until = neo4j.isInt(row.until) ? (row.until as { toNumber(): number }).toNumber() : Number(row.until);
  return { path: row.path, sha256: row.sha256, until };
}

/** Moves the head; with `expected`, only if it is still there (false when another export moved it first). */
export async function writeHead(
  graph: LosslessGraph,
  stores: readonly string[] | null,
  head: Head,
  expected: string | null = null,
): Promise<boolean> {
  const rows = await graph.run(Q.writeHead, {
    scope: scopeKey(stores),
    path: head.path,
    sha256: head.sha256,
    until: neo4j.int(head.until),
    expected,
  });
  return rows.length > 0;
}

/** After a restore: the scope's and the whole database's heads name files of another graph. */
export async function clearHeads(graph: LosslessGraph, stores: readonly string[] | null): Promise<void> {
  await graph.run(Q.clearHead, { scopes: [...new Set([scopeKey(stores), '*'])] });
}

/** A file's trailer, read from its end (a delta checks its link without reading the file it follows). */
export async function readTrailer(path: string): Promise<Trailer | null> {
  const size = (await stat(path)).size;
  const file = await open(path, 'r');
  try {
    // A trailer is a few hundred bytes, more with many label combinations; read back until a line starts.
    for (let span = 4096; ; span *= 4) {
      const from = Math.max(0, size - span);
      const buffer = Buffer.alloc(size - from);
      await file.read(buffer, 0, buffer.length, from);
      const text = buffer.toString('utf8').replace(/\n$/, '');
      const at = text.lastIndexOf('\n');
      if (at < 0 && from > 0) continue;
      const line = JSON.parse(text.slice(at + 1)) as { type?: string };
      return line.type === 'trailer' ? (line as Trailer) : null;
    }
  } catch {
    return null;
  } finally {
    await file.close();
  }
}
