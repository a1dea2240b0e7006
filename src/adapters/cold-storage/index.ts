/**
 * Cold storage: a complete, versioned NDJSON export of the graph (memories,
 * associations, sessions, decisions, uses, events, notifications — every node
 * and relationship in scope), written atomically, verified against Neo4j, and
 * restorable exactly with `npm run import -- FILE`. Format: docs/cold-storage.md.
 */
import type { ColdStoragePort, ColdStorageCheck, ColdStorageWrite } from '../../contexts/subconscious/index.js';
import { LosslessGraph } from './lossless-graph.js';
import type { Neo4jSettings } from '../neo4j/index.js';
import { writeExport } from './export.js';
import { verifyExport } from './verify.js';
import { importExport, type ImportOptions, type ImportReport } from './import.js';
import type { Counts } from './format.js';
import type { ProgressBoard } from '../../domain/index.js';

export interface ColdStorageOptions {
  readonly neo4j: Neo4jSettings;
  /** Only these stores (null = the whole database). */
  readonly stores: readonly string[] | null;
  readonly service: string;
  /** Where exports and imports report how far they got (health, the CLI). */
  readonly progress?: ProgressBoard;
}

export class ColdStorage implements ColdStoragePort {
  private graph: LosslessGraph | null = null;

  constructor(private readonly options: ColdStorageOptions) {}

  /** Opened on first use: most processes never write cold storage. */
  private lossless(): LosslessGraph {
    this.graph ??= new LosslessGraph(this.options.neo4j);
    return this.graph;
  }

  async write(
    dir: string,
    onProgress?: (records: number) => void,
  ): Promise<ColdStorageWrite & { readonly counts: Counts; readonly digest: string }> {
    const tracked = this.options.progress?.start(
      'export',
      this.options.stores?.join(',') ?? null,
      'nodes and relationships',
    );
    const report = (n: number) => {
      tracked?.update(n);
      onProgress?.(n);
    };
    const result = await writeExport(this.lossless(), dir, {
      stores: this.options.stores,
      service: this.options.service,
      onProgress: report,
    }).catch((error: unknown) => {
      tracked?.fail();
      throw error;
    });
    tracked?.finish();
    return {
      path: result.path,
      bytes: result.bytes,
      nodes: result.counts.totalNodes,
      relationships: result.counts.totalRelationships,
      // Counts are by label combination: a memory's carries its tier (LONG_TERM:Memory, …).
      memories: Object.entries(result.counts.nodes).reduce(
        (n, [key, count]) => (key.split(':').includes('Memory') ? n + count : n),
        0,
      ),
      counts: result.counts,
      digest: result.digest,
    };
  }

  verify(path: string): Promise<ColdStorageCheck> {
    return verifyExport(this.lossless(), path);
  }

  async import(path: string, options: ImportOptions = {}): Promise<ImportReport> {
    const tracked = this.options.progress?.start('import', null, 'nodes and relationships');
    try {
      const report = await importExport(this.lossless(), path, {
        ...options,
        onProgress: (done, total) => {
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

export { ImportRefused } from './import.js';
export type { ImportOptions, ImportReport } from './import.js';
export type { Counts } from './format.js';
