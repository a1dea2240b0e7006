/**
 * An actor's mailbox: messages that share an ordering key run one at a time,
 * in arrival order; messages with different keys may run side by side.
 * (A memory's commands keep their order without serialising the whole store.)
 */
export class Mailbox {
  private readonly tails = new Map<string, Promise<unknown>>();
  private pending = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(readonly name: string) {}

  post<R>(key: string, work: () => Promise<R>): Promise<R> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    this.pending++;
    const run = previous.then(work, work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
      this.pending--;
      if (this.pending === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    });
    return run;
  }

  get size(): number {
    return this.pending;
  }

  /** Resolves once every posted message has been handled. */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
