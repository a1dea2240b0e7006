/**
 * A push-to-pull queue: values pushed in come out of an async iterator, each
 * id once. Ending it (or the consumer's `return`) runs the cleanup once.
 */
export class AsyncFeed<T extends { readonly id: string }> implements AsyncIterableIterator<T> {
  private readonly buffer: T[] = [];
  private readonly waiting: ((result: IteratorResult<T>) => void)[] = [];
  private readonly seen = new Set<string>();
  private done = false;

  constructor(private readonly cleanup: () => void = () => undefined) {}

  push(value: T): void {
    if (this.done || this.seen.has(value.id)) return;
    this.seen.add(value.id);
    const wake = this.waiting.shift();
    if (wake) wake({ value, done: false });
    else this.buffer.push(value);
  }

  end(): void {
    if (this.done) return;
    this.done = true;
    this.cleanup();
    for (const wake of this.waiting.splice(0)) wake({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T>> {
    const value = this.buffer.shift();
    if (value !== undefined) return Promise.resolve({ value, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  return(): Promise<IteratorResult<T>> {
    this.end();
    this.buffer.length = 0;
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
