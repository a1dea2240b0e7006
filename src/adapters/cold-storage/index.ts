/**
 * Cold storage: versioned NDJSON exports of the graph (memories,
 * associations, sessions, decisions, uses, events, notifications — every node
 * and relationship in scope), written atomically and verified against Neo4j:
 * a full export starts a chain, and each delta after it holds only what
 * changed since the last verified export. `npm run import -- FILE_OR_DIR`
 * restores a chain exactly. Format: docs/cold-storage.md.
 */
import type { ColdStoragePort, ColdStorageCheck, ColdStorageWrite } from '../../contexts/subconscious/index.js';
import { LosslessGraph } from './lossless-graph.js';
import type { Neo4jSettings } from '../neo4j/index.js';
import { writeExport, type ExportResult } from './export.js';
import { writeDelta } from './delta.js';
import { compactChain, type CompactResult } from './compact.js';
import { readHead, readTrailer, writeHead, type Head } from './head.js';
import { verifyExport, type ExportCheck, type VerifyOptions } from './verify.js';
import { importChain, type ImportOptions, type ImportReport } from './import.js';
import { FORMAT_VERSION, type Counts } from './format.js';
import { movedSince } from './live-check.js';
import { Pacer, TotalRecallError, type ProgressBoard, type RequestLoad } from '../../domain/index.js';
import { rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

export interface ColdStorageOptions {
  readonly neo4j: Neo4jSettings;
  /** Only these stores (null = the whole database). */
  readonly stores: readonly string[] | null;
  readonly service: string;
  /** Where exports and imports report how far they got (health, the CLI). */
  readonly progress?: ProgressBoard;
  /**
   * The requests of the process it runs in: while they run, its reads (a checkpoint's export and check) take
   * EXPORT_BUSY_SHARE of the time at most (none: a process that serves no requests, never waits).
   */
  readonly load?: RequestLoad;
}

/**
 * A checkpoint of 1M memories reads the whole graph for minutes on the thread that serves requests; beside it a
 * request waited 2–3 s. While requests run it now keeps to this share of the time, as linking does.
 */
const EXPORT_BUSY_SHARE = 0.2;

export interface WriteOptions {
  /** A full export even when a delta could follow the last verified one (`npm run export`). */
  readonly full?: boolean;
  readonly onProgress?: (records: number) => void;
  /** Stops the export (its temporary file removed): shutdown stops a checkpoint under way. */
  readonly signal?: AbortSignal;
}

/** What a background checkpoint did (`checkpoint`). */
export type CheckpointResult =
  | {
      readonly checkpointed: true;
      readonly kind: 'full' | 'delta';
      readonly path: string;
      readonly records: number;
      /** Records whose node changed after the export read it: the next delta carries them. */
      readonly left: number;
    }
  | { readonly checkpointed: false; readonly reason: string };

export type ColdStorageWritten = ColdStorageWrite & {
  readonly counts: Counts;
  readonly digest: string;
  readonly sha256: string;
};

/**
 * A verified export did not become the head: another export moved it while this one was checked. The file is
 * kept (nothing is lost); the next export follows the new head.
 */
export class ColdStorageHeadMovedError extends TotalRecallError {
  constructor(readonly path: string) {
    super(
      'COLD_STORAGE.HEAD_MOVED',
      `another export moved the head while ${path} was verified: the file is kept and the next export follows the ` +
        'new head',
      { path },
    );
    this.name = 'ColdStorageHeadMovedError';
  }
}

export class ColdStorage implements ColdStoragePort {
  private graph: LosslessGraph | null = null;
  /** The compactions and checkpoints under way (shutdown stops them). */
  private readonly background = new Set<AbortController>();
  /** Set by stopBackground: from then on reads are not paced (see lossless). */
  private shuttingDown = false;
  /** One background export at a time: a checkpoint and a compaction would move the same head. */
  private exclusive: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ColdStorageOptions) {}

  /** Opened on first use: most processes never write cold storage. */
  private lossless(): LosslessGraph {
    if (!this.graph) {
      const { load } = this.options;
      const pacer = load ? new Pacer({ load, share: EXPORT_BUSY_SHARE }) : null;
      // The shutdown's own export never waits: it must end within a supervisor's grace, and the requests refused
      // meanwhile would otherwise keep it at a fifth of its pace.
      const pace = async (tookMs: number) => {
        if (!pacer || this.shuttingDown) return;
        pacer.after(tookMs);
        await pacer.before();
      };
      this.graph = new LosslessGraph(this.options.neo4j, pacer ? pace : null);
    }
    return this.graph;
  }

  /** The last verified export when its file is in `dir` and intact at its end (a delta can follow it). */
  private async headIn(dir: string): Promise<Head | null> {
    const head = await readHead(this.lossless(), this.options.stores);
    if (!head || resolve(dirname(head.path)) !== resolve(dir)) return null;
    return (await readTrailer(head.path).catch(() => null))?.sha256 === head.sha256 ? head : null;
  }

  /**
   * A delta after the last verified export when that file is in `dir` and
   * intact at its end, else (or with `full`) a full export.
   */
  async write(dir: string, options: WriteOptions = {}): Promise<ColdStorageWritten> {
    const { stores, service } = this.options;
    const head = options.full ? null : await this.headIn(dir);
    const tracked = this.options.progress?.start('export', stores?.join(',') ?? null, 'nodes and relationships');
    const onProgress = (n: number) => {
      options.signal?.throwIfAborted();
      tracked?.update(n);
      options.onProgress?.(n);
    };
    let result: ExportResult;
    try {
      result = head
        ? await writeDelta(this.lossless(), dir, head, { stores, service, onProgress })
        : await writeExport(this.lossless(), dir, { stores, service, onProgress });
    } catch (error) {
      tracked?.fail();
      throw error;
    }
    tracked?.finish();
    const delta = result.header.kind === 'delta';
    return {
      path: result.path,
      kind: delta ? 'delta' : 'full',
      bytes: result.bytes,
      nodes: result.counts.totalNodes,
      relationships: result.counts.totalRelationships,
      deleted: result.deleted,
      // Counts are by label combination: a memory's carries its tier (LONG_TERM:Memory, …). A delta's are changes.
      memories: delta
        ? null
        : Object.entries(result.counts.nodes).reduce(
            (n, [key, count]) => (key.split(':').includes('Memory') ? n + count : n),
            0,
          ),
      counts: result.counts,
      digest: result.digest,
      sha256: result.sha256,
    };
  }

  /**
   * Checks an export against Neo4j; a verified one becomes the head the next
   * delta follows, unless another export moved the head meanwhile
   * (ColdStorageHeadMovedError). With `writersRunning`, records whose node
   * changed after the export read it are left to the next delta (live-check.ts).
   */
  async verify(path: string, options: VerifyOptions = {}): Promise<ColdStorageCheck & Pick<ExportCheck, 'live'>> {
    const graph = this.lossless();
    const head = await readHead(graph, this.options.stores);
    const check = await verifyExport(graph, path, head, options);
    if (check.verified && check.until !== null) {
      const next = { path: resolve(path), sha256: check.sha256, until: check.until };
      // Another worker's compaction may have moved the head (and removed the files this delta follows) meanwhile.
      if (!(await writeHead(graph, this.options.stores, next, head?.sha256 ?? null)))
        throw new ColdStorageHeadMovedError(path);
    }
    return { verified: check.verified, problems: check.problems, ...(check.live ? { live: check.live } : {}) };
  }

  /** Runs `work` after the background export before it, with a signal shutdown aborts. */
  private inBackground<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const run = this.exclusive.then(async () => {
      const stop = new AbortController();
      this.background.add(stop);
      try {
        return await work(stop.signal);
      } finally {
        this.background.delete(stop);
      }
    });
    this.exclusive = run.catch(() => undefined);
    return run;
  }

  /** The background's full export: the chain rewritten as one file (compact.ts). */
  compact(): Promise<CompactResult> {
    const { stores, service } = this.options;
    return this.inBackground(async (signal) => {
      const graph = this.lossless();
      const before = await readHead(graph, stores);
      try {
        return await compactChain(graph, { stores, service }, signal);
      } catch (error) {
        // Another worker's compaction or checkpoint moved the head (and removed the chain's files) meanwhile.
        if (!signal.aborted && (await readHead(graph, stores))?.sha256 !== before?.sha256)
          return { compacted: false, reason: 'another export moved the head meanwhile' };
        throw error;
      }
    });
  }

  /**
   * The background's checkpoint, while the service keeps writing: the next
   * export (a delta after the head, or a full one when there is none to
   * follow) written to `dir` and checked against Neo4j, records that changed
   * after it was read left to the next delta (live-check.ts). Verified, it
   * becomes the head, so a shutdown's delta holds only what changed since.
   * Not verified, the file is removed and the head stays.
   */
  checkpoint(dir: string): Promise<CheckpointResult> {
    return this.inBackground(async (signal) => {
      const graph = this.lossless();
      const { stores } = this.options;
      // With no head a delta can follow, the checkpoint is a full export, whatever changed.
      const followed = await this.headIn(dir);
      if (followed && (await movedSince(graph, stores, followed.until, FORMAT_VERSION)).keys.size === 0)
        return { checkpointed: false, reason: 'nothing changed since the last verified export' };
      const head = await readHead(graph, stores);
      const written = await this.write(dir, { signal });
      try {
        const check = await verifyExport(graph, written.path, head, { writersRunning: true, signal });
        signal.throwIfAborted();
        if (!check.verified) {
          await rm(written.path, { force: true });
          return { checkpointed: false, reason: `not verified: ${check.problems.join('; ')}` };
        }
        const next = { path: resolve(written.path), sha256: check.sha256, until: check.until ?? 0 };
        if (!(await writeHead(graph, stores, next, head?.sha256 ?? null))) {
          await rm(written.path, { force: true });
          return { checkpointed: false, reason: 'another export moved the head meanwhile' };
        }
        const records = written.nodes + written.relationships + (written.deleted ?? 0);
        return { checkpointed: true, kind: written.kind, path: written.path, records, left: check.live?.left ?? 0 };
      } catch (error) {
        await rm(written.path, { force: true });
        // Another worker's checkpoint or compaction moved the head under this one: the next run follows it.
        if (!signal.aborted && (await readHead(graph, stores))?.sha256 !== head?.sha256)
          return { checkpointed: false, reason: 'another export moved the head meanwhile' };
        throw error;
      }
    });
  }

  /** Shutdown begins: background exports under way stop (they run again after a restart): the drain need not wait. */
  stopBackground(): void {
    this.shuttingDown = true;
    for (const stop of this.background)
      stop.abort(new Error('shutting down: the background export stops and runs again later'));
  }

  /** Restores the chain ending in `target` (a file, or the newest in a folder). */
  async import(target: string, options: ImportOptions = {}): Promise<ImportReport> {
    const tracked = this.options.progress?.start('import', null, 'nodes and relationships');
    try {
      const report = await importChain(this.lossless(), target, {
        ...options,
        onProgress: (done: number, total: number) => {
          tracked?.update(done, total);
          options.onProgress?.(done, total);
        },
      });
      tracked?.finish();
      return report;
    } catch (error) {
      tracked?.fail();
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.graph?.close();
    this.graph = null;
  }
}

export { ImportFailed, ImportRefused } from './import.js';
export type { ImportOptions, ImportReport } from './import.js';
export type { CompactResult } from './compact.js';
export type { Counts } from './format.js';
