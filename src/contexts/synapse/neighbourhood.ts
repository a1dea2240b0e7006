/**
 * The neighbourhood of a memory, breadth first: every association on a path
 * of at most `depth` links from the start, each returned once and seen from
 * its end nearer to the start (`hop` is that end's distance + 1).
 */
export interface LevelEdge {
  readonly from: string;
  readonly to: string;
  readonly type: string;
  readonly strength: number;
}

export class Levels {
  private readonly level = new Map<string, number>();
  private readonly seen = new Set<string>();
  private current = 0;

  constructor(start: string) {
    this.level.set(start, 0);
  }

  /** The memories to expand next (those reached at the last level). */
  frontier(): string[] {
    return [...this.level.entries()].filter(([, l]) => l === this.current).map(([id]) => id);
  }

  /**
   * Takes the edges of the frontier (strongest first per memory) and returns
   * the ones that belong to this level, at most `budget` of them.
   */
  take<E extends LevelEdge>(edges: readonly E[], budget: number): (E & { hop: number })[] {
    const hop = this.current + 1;
    const out: (E & { hop: number })[] = [];
    const ordered = [...edges].sort(
      (a, b) => b.strength - a.strength || a.from.localeCompare(b.from) || a.to.localeCompare(b.to),
    );
    for (const e of ordered) {
      if (out.length >= budget) break;
      const [lo, hi] = e.from < e.to ? [e.from, e.to] : [e.to, e.from];
      const key = `${e.type}:${lo}:${hi}`;
      if (this.seen.has(key)) continue;
      const there = this.level.get(e.to);
      if (there !== undefined && there < this.current) continue; // returned from the other end already
      this.seen.add(key);
      if (there === undefined) this.level.set(e.to, hop);
      out.push({ ...e, hop });
    }
    this.current = hop;
    return out;
  }
}
