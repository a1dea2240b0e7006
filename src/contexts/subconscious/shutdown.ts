/**
 * The shutdown protocol (seeds, "Shutdown Protocol"; invariant 10), in order:
 * stop accepting, drain queues and workers, flush, write cold storage (only
 * what changed since the last verified export when there is one), verify it
 * against the live store, report ready. Each step is reported; a failed
 * step stops the protocol with ready = false. Run once: a second request
 * (SIGTERM after the mutation, say) gets the same report.
 */
import type { Bus } from '../../domain/index.js';
import type { JobPort } from './jobs.js';

export interface ColdStorageWrite {
  readonly path: string;
  /** A full export, or a delta: what changed since the last verified export (docs/cold-storage.md). */
  readonly kind: 'full' | 'delta';
  readonly bytes: number;
  readonly nodes: number;
  readonly relationships: number;
  /** A delta's deleted nodes. */
  readonly deleted: number;
  /** The memories in a full export (a delta holds only the changed ones: null). */
  readonly memories: number | null;
}

export interface ColdStorageCheck {
  readonly verified: boolean;
  readonly problems: readonly string[];
}

/** Writes and checks the cold-storage export (an adapter implements it). */
export interface ColdStoragePort {
  /** A delta after the last verified export in `dir`, else a full export. */
  write(dir: string): Promise<ColdStorageWrite>;
  verify(path: string): Promise<ColdStorageCheck>;
}

export interface ShutdownReport {
  readonly ready: boolean;
  readonly memories: number;
  readonly coldStoragePath: string;
  readonly verified: boolean;
  readonly steps: readonly string[];
}

export interface ShutdownDeps {
  readonly bus: Bus;
  readonly jobs: JobPort;
  readonly coldStorage: ColdStoragePort;
  /** Every port answers SHUTTING_DOWN from now on. */
  readonly stopAccepting: () => void;
  readonly defaultDir: string;
  readonly drainTimeoutMs: number;
  /** Other background workers to stop in the drain step (embeddings, say). */
  readonly drains?: readonly { readonly name: string; run(): Promise<void> }[];
  /** Other buffered writes to commit in the flush step (Recall's records, say). */
  readonly flushes?: readonly { readonly name: string; run(): Promise<void> }[];
  readonly log?: (line: string) => void;
}

export class ShutdownProtocol {
  private running: Promise<ShutdownReport> | null = null;

  constructor(private readonly deps: ShutdownDeps) {}

  get started(): boolean {
    return this.running !== null;
  }

  run(coldStorageDir: string | null = null): Promise<ShutdownReport> {
    this.running ??= this.protocol(coldStorageDir ?? this.deps.defaultDir);
    return this.running;
  }

  private async protocol(dir: string): Promise<ShutdownReport> {
    const { bus, jobs, coldStorage } = this.deps;
    const steps: string[] = [];
    let memories = 0;
    let path = '';
    let verified = false;
    const report = (line: string) => {
      steps.push(line);
      this.deps.log?.(line);
    };
    const step = async (name: string, work: () => Promise<string>): Promise<void> => {
      const start = performance.now();
      const ms = () => Math.round(performance.now() - start);
      let what: string;
      try {
        what = await work();
      } catch (error) {
        report(`${steps.length + 1}. ${name}: FAILED: ${(error as Error).message} (${ms()} ms)`);
        throw error;
      }
      report(`${steps.length + 1}. ${name}: ${what} (${ms()} ms)`);
    };
    try {
      await step('stop accepting', async () => {
        this.deps.stopAccepting();
        return 'new requests get SHUTTING_DOWN';
      });
      await step('drain queues and workers', async () => {
        const d = await jobs.drain(this.deps.drainTimeoutMs);
        for (const other of this.deps.drains ?? []) await other.run();
        const others = (this.deps.drains ?? []).map((o) => `, ${o.name} stopped`).join('');
        const ran = d.worked ? `${d.ran} due jobs ran, workers stopped` : 'no workers in this process';
        const left =
          d.left > 0 ? `, ${d.left} jobs left waiting in Redis${d.timedOut ? ' (drain timed out)' : ''}` : '';
        return `${ran}${left}${others}, ${d.delayed} timers stay scheduled in Redis`;
      });
      await step('flush', async () => {
        for (const other of this.deps.flushes ?? []) await other.run();
        const flushed = await bus.ask(bus.message('ShutdownCommand', { coldStorageDir: dir }, 'subconscious'));
        await bus.idle();
        memories = flushed.memories;
        const others = (this.deps.flushes ?? []).map((o) => `${o.name} flushed, `).join('');
        return `${others}Hippocampus closed after ${flushed.inFlight} in-flight writes; every mailbox is empty`;
      });
      const out: { written?: ColdStorageWrite } = {};
      await step('write cold storage', async () => {
        const w = await coldStorage.write(dir);
        out.written = w;
        const deleted = w.kind === 'delta' ? `, ${w.deleted} deleted` : '';
        return `${w.kind} ${w.path} (${w.nodes} nodes, ${w.relationships} relationships${deleted}, ${w.bytes} bytes)`;
      });
      const written = out.written as ColdStorageWrite;
      path = written.path;
      memories = written.memories ?? memories;
      await step('verify against Neo4j', async () => {
        const check = await coldStorage.verify(written.path);
        verified = check.verified;
        if (!check.verified) throw new Error(`verification failed: ${check.problems.join('; ')}`);
        return 'counts and checksums match';
      });
      await step('ready', async () => 'safe to stop');
      return { ready: true, memories, coldStoragePath: path, verified, steps };
    } catch {
      // The failed step is in the report; the process stops anyway, not ready.
      return { ready: false, memories, coldStoragePath: path, verified, steps };
    }
  }
}
