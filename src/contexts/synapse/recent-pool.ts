/**
 * A store's newest memories, kept in process for the linker: of them, the ones
 * sharing a person or an emotion with a new memory are its pool candidates
 * (docs/synapse.md). It starts from the `recent-labels` sample and takes each
 * batch this process links, so finding the pool costs no database scan; a
 * memory another process stored joins when the sample is taken again.
 */
import { foldLabels } from './linking.js';

export interface PoolMember {
  readonly id: string;
  readonly people: readonly string[];
  readonly emotions: readonly string[];
}

export class RecentPool {
  /** Newest first; labels case-folded. */
  private members: PoolMember[] = [];

  constructor(private readonly capacity: number) {}

  /** Adds memories, given newest first, in front of the ones known. */
  add(newestFirst: readonly PoolMember[]): void {
    const fresh = newestFirst.map((m) => ({
      id: m.id,
      people: foldLabels(m.people),
      emotions: foldLabels(m.emotions),
    }));
    const ids = new Set(fresh.map((m) => m.id));
    this.members = [...fresh, ...this.members.filter((m) => !ids.has(m.id))].slice(0, this.capacity);
  }

  /** The ids of the newest `limit` members (not `id` itself) sharing a person or an emotion with it. */
  sharing(id: string, people: readonly string[], emotions: readonly string[], limit: number): string[] {
    const p = new Set(foldLabels(people));
    const e = new Set(foldLabels(emotions));
    const found: string[] = [];
    for (const m of this.members) {
      if (found.length >= limit) break;
      if (m.id !== id && (m.people.some((x) => p.has(x)) || m.emotions.some((x) => e.has(x)))) found.push(m.id);
    }
    return found;
  }
}
