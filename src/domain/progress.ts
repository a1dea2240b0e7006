/**
 * Progress of long operations (import, export, backfill, sweeps,
 * consolidation, an index Neo4j builds) in this process: each reports how far it got, `health`
 * lists them, and the CLI scripts draw bars from the same reports. Finished
 * operations stay listed for a while, so a look after the fact still sees them.
 */
export const PROGRESS_OPERATIONS = ['import', 'export', 'backfill', 'sweep', 'consolidation', 'index'] as const;
export type ProgressOperation = (typeof PROGRESS_OPERATIONS)[number];

export interface ProgressEntry {
  readonly id: string;
  readonly operation: ProgressOperation;
  /** The store it works on (null: every store in scope). */
  readonly store: string | null;
  readonly done: number;
  /** null while the total is not known. */
  readonly total: number | null;
  /** What `done` counts ("memories", "nodes and relationships", "clusters"). */
  readonly unit: string;
  readonly startedAt: number;
  readonly updatedAt: number;
  readonly finishedAt: number | null;
  readonly failed: boolean;
}

export interface ProgressHandle {
  /** Sets how far it got (and the total, once known). */
  update(done: number, total?: number | null): void;
  finish(): void;
  fail(): void;
}

type Listener = (entry: ProgressEntry) => void;

/** How long a finished operation stays listed. */
const KEEP_FINISHED_MS = 10 * 60_000;
const MOST_KEPT = 20;

export class ProgressBoard {
  private readonly entries = new Map<string, ProgressEntry>();
  private readonly listeners = new Set<Listener>();
  private next = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  start(operation: ProgressOperation, store: string | null, unit: string, total: number | null = null): ProgressHandle {
    const now = this.clock();
    const id = `${operation}-${now}-${++this.next}`;
    this.put({
      id,
      operation,
      store,
      done: 0,
      total,
      unit,
      startedAt: now,
      updatedAt: now,
      finishedAt: null,
      failed: false,
    });
    const change = (patch: Partial<ProgressEntry>) => {
      const entry = this.entries.get(id);
      if (entry && entry.finishedAt === null) this.put({ ...entry, ...patch, updatedAt: this.clock() });
    };
    return {
      update: (done, total) => change(total === undefined ? { done } : { done, total }),
      finish: () => {
        const entry = this.entries.get(id);
        change({ finishedAt: this.clock(), total: entry?.total ?? entry?.done ?? null });
      },
      fail: () => change({ finishedAt: this.clock(), failed: true }),
    };
  }

  /** Running operations first (oldest first), then the recently finished (newest first). */
  list(): ProgressEntry[] {
    const now = this.clock();
    for (const [id, e] of this.entries)
      if (e.finishedAt !== null && now - e.finishedAt > KEEP_FINISHED_MS) this.entries.delete(id);
    const all = [...this.entries.values()];
    const running = all.filter((e) => e.finishedAt === null).sort((a, b) => a.startedAt - b.startedAt);
    const finished = all
      .filter((e) => e.finishedAt !== null)
      .sort((a, b) => (b.finishedAt as number) - (a.finishedAt as number));
    return [...running, ...finished.slice(0, MOST_KEPT)];
  }

  /** Calls back on every change (the CLI's progress bars); returns the unsubscribe. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private put(entry: ProgressEntry): void {
    this.entries.set(entry.id, entry);
    for (const l of this.listeners) l(entry);
  }
}

/** Share done, in [0,1] (null while the total is unknown). */
export function progressShare(entry: Pick<ProgressEntry, 'done' | 'total'>): number | null {
  if (entry.total === null) return null;
  if (entry.total <= 0) return 1;
  return Math.min(1, Math.max(0, entry.done / entry.total));
}
