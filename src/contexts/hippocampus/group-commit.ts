/**
 * Group commit: single writes that arrive while earlier ones are still being
 * committed go to the database together, in one statement, instead of each
 * in its own transaction. Neo4j pays the full-text index update once per
 * commit, so many small concurrent commits collapse where one larger commit
 * does not.
 *
 * Nothing waits on a timer: with fewer than `maxInFlight` commits running, a
 * write starts at once (one client alone sees no added latency). Only while
 * they all run do new writes gather, up to `maxBatch` per commit, and they
 * wait no longer than the commit ahead of them takes. Each write still
 * settles only after its own commit, with its own outcome: the commit
 * function returns one result or error per item, in order.
 */
export interface GroupCommitSettings {
  /** Writes in one commit at most. */
  readonly maxBatch: number;
  /** Commits running at once; further writes gather for the next. */
  readonly maxInFlight: number;
}

/**
 * Stores: one commit at a time, the next group gathering meanwhile. Two at
 * once contend for the full-text index's refresh, and each carries half the
 * group: on 2 cores, 32 clients stored 1,530–1,590/s (p95 33–34 ms) with one
 * and 1,330–1,340/s (p95 38–40) with two; only 2 clients did better with two
 * (docs/write-path.md). 64 single stores are still a small transaction.
 */
export const STORE_GROUP: GroupCommitSettings = { maxBatch: 64, maxInFlight: 1 };

/** The grouping for TOTAL_RECALL_STORE_GROUP_MAX: up to `maxBatch` per commit; 1, every store commits alone at once. */
export function storeGroupSettings(maxBatch: number): GroupCommitSettings {
  return maxBatch <= 1 ? { maxBatch: 1, maxInFlight: Number.POSITIVE_INFINITY } : { ...STORE_GROUP, maxBatch };
}

/** Commits the items together: one outcome per item, in their order (an Error fails only its item). */
export type CommitGroup<I, O> = (items: readonly I[]) => Promise<readonly (O | Error)[]>;

interface Pending<I, O> {
  readonly item: I;
  readonly resolve: (value: O) => void;
  readonly reject: (error: unknown) => void;
}

export class GroupCommit<I, O> {
  private readonly pending: Pending<I, O>[] = [];
  private running = 0;

  constructor(
    private readonly commit: CommitGroup<I, O>,
    private readonly settings: GroupCommitSettings,
  ) {}

  /** Settles once the commit holding `item` has finished, with that item's own outcome. */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.startCommits();
    });
  }

  /** Commits running, and writes gathered for the next ones. */
  stats(): { running: number; gathered: number } {
    return { running: this.running, gathered: this.pending.length };
  }

  private startCommits(): void {
    while (this.pending.length > 0 && this.running < this.settings.maxInFlight) {
      const group = this.pending.splice(0, this.settings.maxBatch);
      this.running++;
      void this.run(group).finally(() => {
        this.running--;
        this.startCommits();
      });
    }
  }

  private async run(group: readonly Pending<I, O>[]): Promise<void> {
    try {
      const outcomes = await this.commit(group.map((p) => p.item));
      if (outcomes.length !== group.length)
        throw new Error(`a group commit gave ${outcomes.length} outcomes for ${group.length} writes`);
      group.forEach((p, i) => {
        const outcome = outcomes[i] as O | Error;
        if (outcome instanceof Error) p.reject(outcome);
        else p.resolve(outcome);
      });
    } catch (error) {
      for (const p of group) p.reject(error);
    }
  }
}
