/**
 * The periodic full export, written in the background from the chain's files
 * rather than from Neo4j (which keeps changing meanwhile): the graph the chain
 * ends in, as one full export with the head's clock, checked, then made the
 * head — unless a shutdown's delta moved the head first — and the files it
 * replaces removed. Restoring then reads one file instead of a long chain.
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { chainOf, resolveChain } from './chain.js';
import { writeColdFile, type ExportOptions, type ExportResult } from './export.js';
import { readHead, writeHead } from './head.js';
import { checkFile } from './verify.js';
import type { LosslessGraph } from './lossless-graph.js';

export type CompactResult =
  | { readonly compacted: false; readonly reason: string }
  | ({ readonly compacted: true; readonly files: number } & ExportResult);

/** `signal`: shutdown stops a compaction (its temporary file is removed; the job runs again later). */
export async function compactChain(
  graph: LosslessGraph,
  options: ExportOptions,
  signal?: AbortSignal,
): Promise<CompactResult> {
  const head = await readHead(graph, options.stores);
  if (!head) return { compacted: false, reason: 'no verified export yet' };
  const chain = await chainOf(head.path);
  if (chain.length < 2) return { compacted: false, reason: 'the last verified export is a full one' };
  const written = await writeColdFile(
    dirname(head.path),
    { kind: 'full', previous: null, since: null, until: head.until },
    options,
    (sink) =>
      resolveChain(chain, {
        node: (line) => {
          signal?.throwIfAborted();
          return sink.node(line);
        },
        relationship: (line) => {
          signal?.throwIfAborted();
          return sink.relationship(line);
        },
      }),
  );
  const check = await checkFile(written.path);
  if (check.problems.length > 0) {
    await rm(written.path, { force: true });
    throw new Error(`the compacted export does not check: ${check.problems.join('; ')}`);
  }
  const next = { path: written.path, sha256: written.sha256, until: head.until };
  if (!(await writeHead(graph, options.stores, next, head.sha256))) {
    await rm(written.path, { force: true });
    return { compacted: false, reason: 'another export moved the head meanwhile' };
  }
  for (const file of chain) await rm(file.path, { force: true });
  return { compacted: true, files: chain.length, ...written };
}
