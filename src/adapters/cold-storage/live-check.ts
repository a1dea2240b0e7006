/**
 * Checks an export against a graph the service kept writing while it was
 * read: the background's checkpoints (index.ts), which must not stop the
 * minds. Records are hashed into groups by their node's key (a relationship
 * by its start node's), in the file and in Neo4j. After Neo4j has been read,
 * the keys stamped since the export's clock reading (less the commit
 * overlap, delta.ts) or forgotten since mark their groups as moved; every
 * other group must hold the same records on both sides. What moved is the
 * next delta's to carry, and that delta is checked in turn.
 */
import { createHash } from 'node:crypto';
import {
  COMMIT_OVERLAP_MS,
  canonicalJson,
  fileKind,
  nodeKey,
  type FileRecord,
  type Header,
  type NodeLine,
  type RelationshipLine,
} from './format.js';
import { readChanges, readGraph } from './read-graph.js';
import type { LosslessGraph } from './lossless-graph.js';
import { Q } from './cypher.js';

/** Enough groups that a few thousand changes leave most of them to compare. */
const GROUPS = 1 << 16;

/** A group per key (FNV-1a: the key only needs spreading, not hiding). */
export function groupOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % GROUPS;
}

/** Per group: how many records, and the sum (mod 2^64) of their canonical forms' hashes. */
export class GroupedRecords {
  readonly sums = new BigUint64Array(GROUPS);
  readonly counts = new Uint32Array(GROUPS);

  private add(key: string, record: unknown): void {
    const group = groupOf(key);
    const hash = createHash('sha256').update(canonicalJson(record)).digest();
    this.sums[group] = (this.sums[group] as bigint) + hash.readBigUInt64BE(0);
    this.counts[group] = (this.counts[group] as number) + 1;
  }

  node(line: NodeLine): void {
    this.add(nodeKey(line.ref), { ref: line.ref, labels: line.labels, props: line.props, types: line.types });
  }

  relationship(line: RelationshipLine): void {
    const { rel, start, end, props, types } = line;
    this.add(nodeKey(start), { rel, start, end, props, types });
  }
}

export interface MovedKeys {
  readonly keys: Set<string>;
  readonly deleted: Set<string>;
}

/** The nodes stamped (or forgotten) since `since`: what the next delta will carry again. */
export async function movedSince(
  graph: LosslessGraph,
  stores: readonly string[] | null,
  since: number,
  version: number,
): Promise<MovedKeys> {
  const moved: MovedKeys = { keys: new Set(), deleted: new Set() };
  await readChanges(
    graph,
    stores,
    since,
    {
      deleted: (key) => {
        moved.keys.add(key);
        moved.deleted.add(key);
      },
      node: (line) => {
        moved.keys.add(nodeKey(line.ref));
      },
      relationship: () => undefined,
    },
    version,
  );
  return moved;
}

/**
 * The groups no change touched, compared. A relationship whose end moved
 * marks its start's group too: forgetting a memory removes the
 * relationships that end at it without stamping their start nodes.
 */
export function compareGroups(
  file: GroupedRecords,
  live: GroupedRecords,
  touched: Uint8Array,
): { compared: number; left: number; differing: number } {
  let compared = 0;
  let left = 0;
  let differing = 0;
  for (let g = 0; g < GROUPS; g++) {
    const records = file.counts[g] as number;
    if (touched[g]) {
      left += records;
      continue;
    }
    compared += records;
    if (records !== live.counts[g] || file.sums[g] !== live.sums[g]) differing++;
  }
  return { compared, left, differing };
}

export interface LiveCheck {
  readonly problems: string[];
  /** Records of the file compared with Neo4j, and those left to the next delta (their node changed since). */
  readonly compared: number;
  readonly left: number;
}

/**
 * An export (full or delta, already checked against its trailer and, a
 * delta, its link) against Neo4j while writers run; `readFile` reads the
 * file's records again.
 */
export async function checkWhileWriting(
  graph: LosslessGraph,
  header: Header,
  deletedInFile: ReadonlySet<string>,
  readFile: (onRecord: (line: FileRecord) => void) => Promise<unknown>,
  signal?: AbortSignal,
): Promise<LiveCheck> {
  const stores = header.scope.stores;
  const grouped = new GroupedRecords();
  const live = {
    node: (line: NodeLine) => {
      signal?.throwIfAborted();
      grouped.node(line);
    },
    relationship: (line: RelationshipLine) => {
      signal?.throwIfAborted();
      grouped.relationship(line);
    },
  };
  const liveDeleted = new Set<string>();
  if (fileKind(header) === 'delta') {
    const deleted = (key: string) => void liveDeleted.add(key);
    await readChanges(graph, stores, header.since ?? 0, { ...live, deleted }, header.version);
  } else {
    await readGraph(graph, stores, live, header.version);
  }
  // Read after Neo4j: whatever changed while it was read is among these.
  const moved = await movedSince(graph, stores, (header.until ?? 0) - COMMIT_OVERLAP_MS, header.version);
  const touched = new Uint8Array(GROUPS);
  for (const key of moved.keys) touched[groupOf(key)] = 1;
  const file = new GroupedRecords();
  await readFile((line) => {
    signal?.throwIfAborted();
    if (line.type === 'node') file.node(line);
    else if (line.type === 'relationship') {
      file.relationship(line);
      if (moved.keys.has(nodeKey(line.end))) touched[groupOf(nodeKey(line.start))] = 1;
    }
  });
  const { compared, left, differing } = compareGroups(file, grouped, touched);
  const problems: string[] = [];
  if (differing > 0) problems.push(`Neo4j: ${differing} groups of records no change touched differ from the export`);
  // A forgotten memory stays forgotten; one forgotten after the export read the graph is the next delta's.
  for (const key of deletedInFile)
    if (!liveDeleted.has(key)) problems.push(`Neo4j: ${key} is deleted in the delta but not forgotten`);
  for (const key of liveDeleted)
    if (!deletedInFile.has(key) && !moved.deleted.has(key))
      problems.push(`Neo4j: ${key} was forgotten before the delta was read but is not in it`);
  const gone = [...deletedInFile].filter((key) => !moved.keys.has(key)).map((key) => key.slice(1));
  const [row] = gone.length > 0 ? await graph.run(Q.countMemories, { ids: gone }) : [];
  const present = (row?.count as { toNumber(): number } | undefined)?.toNumber() ?? 0;
  if (present > 0) problems.push(`Neo4j: ${present} memories the delta deletes still exist`);
  return { problems, compared, left };
}
