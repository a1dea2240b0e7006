/**
 * Mechanical linking as one pipeline: a store's stored memories coalesce into
 * batches (coalescer.ts), each batch is planned (mechanical.ts) while the one
 * before waits for its write (link-writer.ts), and each written batch is
 * reported once. The service runs it on the linking thread
 * (src/adapters/linking-thread); without a thread it runs in process.
 *
 * Linking steps aside while requests run (the domain's Pacer, pace.ts). A
 * stored memory's links are the larger part of the database's work on it:
 * their candidate reads and link writes take about 1.5 ms of Neo4j per memory,
 * storing it in a batch of 1,000 about 0.2 ms, and during a burst of stores
 * linking at full pace took most of the database from the stores themselves.
 * It keeps going under any load (with no gaps at all, at a little less than
 * its share of the time), and catches up when the burst ends (each memory's
 * linkPendingAt keeps the backlog durable).
 */
import { Pacer, sortableId, type GraphPort, type RequestLoad } from '../../domain/index.js';
import { Coalescer } from './coalescer.js';
import { Linker, type CreatedLink, type LinkSource } from './mechanical.js';
import { LinkWriter } from './link-writer.js';
import { LINK_BATCH, type SynapseSettings } from './settings.js';

/** Only what linking reads: a memory's metadata may be large, and a thread is sent a copy. */
export const linkSourceOf = ({
  id,
  store,
  content,
  tags,
  people,
  emotions,
  occurredAt,
  sessionId,
}: LinkSource): LinkSource => ({
  id,
  store,
  content,
  tags,
  people,
  emotions,
  occurredAt,
  sessionId,
});

/** Called once per written batch: the links it created, and the tags its memories were handed in with (in order). */
export type OnLinked<T> = (store: string, links: CreatedLink[], tags: T[]) => void;

/** Mechanical linking as Synapse uses it, in process or on a thread. */
export interface Linking<T> {
  /** Links a stored memory; settles when its links are written (after the batch is reported). */
  link(memory: LinkSource, now: number, tag: T): Promise<void>;
  /** Resolves once every memory of the store handed in so far is linked. */
  idle(store: string): Promise<void>;
  /** Readies what linking runs on ahead of the first memory. */
  warmUp(): void;
  close(): Promise<void>;
}

/** Starts linking off the calling thread (src/adapters/linking-thread), reporting each written batch to `onLinked`. */
export type StartLinking = <T>(onLinked: OnLinked<T>) => Linking<T>;

interface Waiting<T> {
  readonly memory: LinkSource;
  readonly tag: T;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export class LinkPipeline<T> implements Linking<T> {
  private readonly linker: Linker;
  private readonly batches: Coalescer<Waiting<T>>;
  private readonly writer: LinkWriter;
  /** The latest clock reading handed in: plans and new links are stamped with it. */
  private now = 0;

  /** `load`: the requests the process serves (linking then paces itself); without it, it never waits. */
  constructor(
    graph: GraphPort,
    settings: SynapseSettings,
    private readonly onLinked: OnLinked<T>,
    load: RequestLoad | null = null,
  ) {
    this.linker = new Linker(graph, settings);
    const pace = load && settings.busyShare < 1 ? new Pacer({ load, share: settings.busyShare }) : null;
    this.batches = new Coalescer((_store, batch) => this.plan(batch), LINK_BATCH, pace);
    this.writer = new LinkWriter(
      (links) => this.linker.write(links, this.now, sortableId('lnk', this.now)),
      settings.linkWriteMs,
      async () => pace?.gap(),
    );
  }

  link(memory: LinkSource, now: number, tag: T): Promise<void> {
    this.now = Math.max(this.now, now);
    return new Promise<void>((resolve, reject) => {
      this.batches.push(memory.store, { memory, tag, resolve, reject }).catch(reject);
    });
  }

  async idle(store: string): Promise<void> {
    await this.batches.idle(store);
    await this.writer.idle(store);
  }

  warmUp(): void {}

  async close(): Promise<void> {}

  /**
   * Plans a batch now; its links are written with the store's next write while the next batch is planned (counting them
   * as pending).
   */
  private async plan(batch: readonly Waiting<T>[]): Promise<void> {
    const store = (batch[0] as Waiting<T>).memory.store;
    const planned = await this.linker.plan(
      batch.map((w) => w.memory),
      this.now,
      () => this.writer.pending(store),
    );
    this.writer.add(store, planned).then(
      (links) => {
        this.onLinked(
          store,
          links,
          batch.map((w) => w.tag),
        );
        for (const w of batch) w.resolve();
      },
      (error: unknown) => {
        for (const w of batch) w.reject(error);
      },
    );
  }
}
