/**
 * Writes planned mechanical links, one MERGE per store at most every
 * `intervalMs`. Finding a memory's candidates cannot be shared between
 * memories, but a write can: its commit costs about as much as the links in
 * it (docs/synapse.md), so a stream of stores pays one commit per interval,
 * not one per memory. Until written, links stay `pending`, and the planner
 * counts them (caps, pairs linked already).
 */
import { linkKey, type PlannedLink } from './linking.js';
import type { CreatedLink } from './mechanical.js';

interface Entry {
  readonly links: readonly PlannedLink[];
  readonly resolve: (created: CreatedLink[]) => void;
  readonly reject: (error: unknown) => void;
}

interface Lane {
  queued: Entry[];
  writing: Entry[];
  running: Promise<void> | null;
}

export class LinkWriter {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    /** Writes links and returns those this write created. */
    private readonly write: (links: PlannedLink[]) => Promise<CreatedLink[]>,
    private readonly intervalMs: number,
    /** Resolves when a write may start (linking's pace: while requests run, in a gap between them). */
    private readonly beforeWrite: () => Promise<void> = async () => undefined,
  ) {}

  /** The store's links queued or being written. */
  pending(store: string): PlannedLink[] {
    const lane = this.lanes.get(store);
    return lane ? [...lane.writing, ...lane.queued].flatMap((e) => e.links) : [];
  }

  /** Queues links; resolves with those of them the write created. */
  add(store: string, links: readonly PlannedLink[]): Promise<CreatedLink[]> {
    if (links.length === 0) return Promise.resolve([]);
    let lane = this.lanes.get(store);
    if (!lane) {
      lane = { queued: [], writing: [], running: null };
      this.lanes.set(store, lane);
    }
    const created = new Promise<CreatedLink[]>((resolve, reject) => lane.queued.push({ links, resolve, reject }));
    if (!lane.running) lane.running = this.drain(store, lane);
    return created;
  }

  /** Resolves once nothing is queued or being written for the store. */
  async idle(store: string): Promise<void> {
    for (let lane = this.lanes.get(store); lane?.running; lane = this.lanes.get(store)) await lane.running;
  }

  private async drain(store: string, lane: Lane): Promise<void> {
    while (lane.queued.length > 0) {
      await new Promise<void>((wait) => (this.intervalMs > 0 ? setTimeout(wait, this.intervalMs) : setImmediate(wait)));
      await this.beforeWrite();
      lane.writing = lane.queued;
      lane.queued = [];
      const unique = new Map(lane.writing.flatMap((e) => e.links).map((l) => [linkKey(l.type, l.lo, l.hi), l]));
      try {
        const created = new Map((await this.write([...unique.values()])).map((c) => [linkKey(c.type, c.a, c.b), c]));
        for (const entry of lane.writing) {
          entry.resolve(
            entry.links.flatMap((l) => {
              const key = linkKey(l.type, l.lo, l.hi);
              const link = created.get(key);
              created.delete(key); // each created link is reported once
              return link ? [link] : [];
            }),
          );
        }
      } catch (error) {
        for (const entry of lane.writing) entry.reject(error);
      }
      lane.writing = [];
    }
    lane.running = null;
    this.lanes.delete(store);
  }
}
