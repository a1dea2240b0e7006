/**
 * A chain: a full export and the deltas that follow it, each naming the
 * sha256 of the file before it. `chainOf` finds one (from a file or the
 * newest file in a folder) and checks its links; `resolveChain` streams the
 * graph the chain ends in — each node's last version, the relationships
 * neither replaced nor deleted since — for a compaction to write or an
 * import to check the restored graph against.
 */
import { readdir, stat } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { basename, dirname, join } from 'node:path';
import { FORMAT_VERSION, fileKind, keptProps, nodeKey, type Header, type NodeLine, type Trailer } from './format.js';
import { readTrailer } from './head.js';
import type { GraphVisitor } from './read-graph.js';
import { asVersion2 } from './values.js';
import { checkFile } from './verify.js';

export class ChainError extends Error {}

type OnRecord = Parameters<typeof checkFile>[1];

/** A node of a file written in `version`, in the current version's form (what the live graph is read in). */
function currentNode(line: NodeLine, version: number): NodeLine {
  const v2 = version === 1 ? asVersion2(line, line.ref) : line;
  if (version >= FORMAT_VERSION) return v2;
  const props = keptProps(line.labels, v2.props, FORMAT_VERSION);
  const types = keptProps(line.labels, v2.types, FORMAT_VERSION);
  return { ...v2, props, types };
}

export interface ChainFile {
  readonly path: string;
  readonly header: Header;
  readonly trailer: Trailer;
}

async function firstLine(path: string): Promise<Header | null> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  try {
    for await (const text of lines) {
      const line = JSON.parse(text) as Header;
      return line.type === 'header' ? line : null;
    }
    return null;
  } catch {
    return null;
  } finally {
    lines.close();
  }
}

/** The cold-storage files in a folder with their header and trailer (unreadable ones left out). */
async function filesIn(dir: string): Promise<ChainFile[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.ndjson') && !n.startsWith('.'));
  const files: ChainFile[] = [];
  for (const name of names.sort()) {
    const path = join(dir, name);
    // A file another worker removed meanwhile (a checkpoint that lost its race) is not part of any chain.
    const [header, trailer] = [await firstLine(path), await readTrailer(path).catch(() => null)];
    if (header && trailer) files.push({ path, header, trailer });
  }
  return files;
}

/**
 * The chain that ends in `target` (a file), or in the newest file of `target`
 * (a folder): its full export first. Refuses a chain with a missing or wrong link.
 */
export async function chainOf(target: string): Promise<ChainFile[]> {
  // A path that is not there (or not readable) is a bad argument, refused: not a failure worth retrying.
  const isDir = await stat(target).then(
    (s) => s.isDirectory(),
    (error: NodeJS.ErrnoException) => {
      throw new ChainError(error.code === 'ENOENT' ? `${target} does not exist` : `${target}: ${error.message}`);
    },
  );
  const files = await filesIn(isDir ? target : dirname(target));
  const newest = (a: ChainFile, b: ChainFile) => (a.header.createdAt < b.header.createdAt ? b : a);
  const end = isDir ? files.reduce<ChainFile | null>((a, b) => (a ? newest(a, b) : b), null) : null;
  const last = isDir ? end : files.find((f) => f.path === join(dirname(target), basename(target)));
  if (!last) {
    if (isDir) throw new ChainError(`${target} holds no complete cold-storage export`);
    // Not readable as a whole: checked (and refused) as the chain's only file.
    const header = await firstLine(target);
    if (!header) throw new ChainError(`${target} is not a complete, intact export: no cold-storage header`);
    return [{ path: target, header, trailer: (await readTrailer(target)) as Trailer }];
  }
  const chain = [last];
  for (let at = last; fileKind(at.header) === 'delta'; ) {
    const previous = files.find((f) => f.trailer.sha256 === at.header.previous);
    if (!previous) {
      throw new ChainError(
        `broken chain: ${at.path} follows the file with sha256 ${at.header.previous}, which is not in ` +
          `${dirname(at.path)}`,
      );
    }
    if (chain.includes(previous)) throw new ChainError(`broken chain: a loop at ${previous.path}`);
    chain.unshift(previous);
    at = previous;
  }
  const scope = JSON.stringify(chain[0]?.header.scope.stores ?? null);
  for (const file of chain)
    if (JSON.stringify(file.header.scope.stores ?? null) !== scope)
      throw new ChainError(`broken chain: ${file.path} has another scope than ${chain[0]?.path}`);
  return chain;
}

/** Reads a file of the chain, refusing it when it does not match its own trailer (or the link before it). */
async function readChecked(file: ChainFile, previous: ChainFile | null, onRecord: OnRecord): Promise<void> {
  const checked = await checkFile(file.path, onRecord);
  if (checked.problems.length > 0)
    throw new ChainError(`${file.path} is not a complete, intact export: ${checked.problems.join('; ')}`);
  if (previous && file.header.previous !== previous.trailer.sha256)
    throw new ChainError(`broken chain: ${file.path} does not follow ${previous.path}`);
}

/**
 * Streams the graph the chain ends in: nodes (each in its last version), then
 * relationships (those of the files where their start node last changed, not
 * ending at a node deleted since), ends named by the nodes' last refs, all in
 * the current version's form. Every file is checked against its trailer on the way.
 */
export async function resolveChain(chain: readonly ChainFile[], visit: GraphVisitor): Promise<void> {
  const lastTouch = new Map<string, number>();
  const lastDelete = new Map<string, number>();
  const finalRef = new Map<string, string>();
  for (let i = 1; i < chain.length; i++) {
    await readChecked(chain[i] as ChainFile, chain[i - 1] as ChainFile, (line) => {
      if (line.type === 'deleted') {
        lastTouch.set(line.key, i);
        lastDelete.set(line.key, i);
        finalRef.delete(line.key);
      } else if (line.type === 'node') {
        lastTouch.set(nodeKey(line.ref), i);
        finalRef.set(nodeKey(line.ref), line.ref);
      }
    });
  }
  const later = (map: Map<string, number>, key: string, i: number) => (map.get(key) ?? -1) > i;
  for (let i = 0; i < chain.length; i++) {
    // The full export is checked here; the deltas were above.
    const read = i === 0 ? readChecked : (file: ChainFile, _: null, each: OnRecord) => checkFile(file.path, each);
    await read(chain[i] as ChainFile, null, (line) => {
      if (line.type !== 'node' || later(lastTouch, nodeKey(line.ref), i)) return;
      return visit.node(currentNode(line, chain[i]?.header.version ?? FORMAT_VERSION));
    });
  }
  for (let i = 0; i < chain.length; i++) {
    await checkFile((chain[i] as ChainFile).path, (line) => {
      if (line.type !== 'relationship') return;
      const [start, end] = [nodeKey(line.start), nodeKey(line.end)];
      if (later(lastTouch, start, i) || later(lastDelete, end, i)) return;
      return visit.relationship({
        ...(chain[i]?.header.version === 1 ? asVersion2(line, line.rel) : line),
        start: finalRef.get(start) ?? line.start,
        end: finalRef.get(end) ?? line.end,
      });
    });
  }
}
