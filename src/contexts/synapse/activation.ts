/**
 * Spreading activation, as pure maths over the edges the database returns hop
 * by hop (after ACT-R's A_i = B_i + Σ W_j·S_ji with its fan effect). A memory
 * reached at hop k receives from each neighbour u reached at hop k−1:
 *
 *   share = received(u) × typeWeight(type) × strength × hopDecay^(k−1) / √fan(u)
 *
 * fan(u) is u's number of associations of the followed types, so a hub passes
 * on less along each link (the square root keeps a memory with a typical
 * handful of links useful; a strict 1/fan split would leave almost nothing
 * after one hop). Shares arriving at one memory add up, capped at 1, so with
 * seed weights in [0,1] every activation is in [0,1]. Activation flows outward
 * only (never back to a memory reached at an earlier hop), for at most maxHops
 * hops, to at most maxNodes memories in all (the most activated are kept) —
 * with one exception: at the first hop seeds also pass shares to each other,
 * so a seed whose neighbours are seeds too is *supported* (related memories
 * that all match reinforce each other, as in ACT-R where every source spreads).
 * A seed's support is reported as its activation; it passes nothing further on.
 */
import type { AssociationType } from '../../domain/index.js';

/** How much each kind of link carries: causes and topics most, shared moods least. */
export const TYPE_WEIGHTS: Readonly<Record<AssociationType, number>> = {
  CAUSAL: 1.0,
  THEMATIC: 0.8,
  PERSON: 0.7,
  TEMPORAL: 0.6,
  EMOTIONAL: 0.5,
};

export interface ActivationOptions {
  readonly maxHops: number;
  readonly maxNodes: number;
  /** Each hop after the first multiplies what passes on by this, in (0,1]. */
  readonly hopDecay: number;
  /** At most this many memories pass activation on at each hop (the most activated). */
  readonly maxFrontier: number;
  /** Shares below this fraction of the strongest seed are not passed on. */
  readonly minShare: number;
}

export interface Seed {
  readonly id: string;
  readonly weight: number;
}

/** One association as seen from `from`, with `from`'s fan over the followed types. */
export interface SpreadEdge {
  readonly from: string;
  readonly to: string;
  readonly type: AssociationType;
  readonly strength: number;
  readonly fan: number;
}

export interface Activated {
  readonly id: string;
  readonly activation: number;
  /** The types along the path of the largest share that reached it, seed first. */
  readonly path: readonly AssociationType[];
  /** The seed that path starts from (Recall bounds what association adds by that seed's own confidence). */
  readonly seed: string;
  readonly hop: number;
}

interface Node {
  activation: number;
  /** For a seed: what other seeds passed to it at the first hop, and by which link type. */
  support: number;
  supportPath: AssociationType[];
  supportSeed: string;
  /** What arrived at the hop this memory was reached: the amount it passes on. */
  received: number;
  path: AssociationType[];
  /** The seed the largest share came from (itself, for a seed). */
  seed: string;
  hop: number;
}

export class Spread {
  private readonly nodes = new Map<string, Node>();
  private readonly floor: number;
  private hop = 0;

  constructor(
    seeds: readonly Seed[],
    private readonly options: ActivationOptions,
  ) {
    for (const s of seeds) {
      if (!(s.weight > 0)) continue;
      const node = this.nodes.get(s.id);
      const weight = Math.min(1, s.weight);
      if (node) node.received = node.activation = Math.min(1, node.activation + weight);
      else
        this.nodes.set(s.id, {
          activation: weight,
          support: 0,
          supportPath: [],
          supportSeed: s.id,
          received: weight,
          path: [],
          seed: s.id,
          hop: 0,
        });
    }
    this.floor = Math.max(0, ...[...this.nodes.values()].map((n) => n.activation)) * options.minShare;
  }

  /** The memories to expand next: those reached at the last hop, most activated first. */
  frontier(): string[] {
    if (this.hop >= this.options.maxHops) return [];
    return [...this.nodes.entries()]
      .filter(([, n]) => n.hop === this.hop && n.received * this.decay(this.hop + 1) >= this.floor)
      .sort((a, b) => b[1].received - a[1].received || a[0].localeCompare(b[0]))
      .slice(0, this.options.maxFrontier)
      .map(([id]) => id);
  }

  /** Applies one hop: the edges of the current frontier. */
  step(edges: readonly SpreadEdge[]): void {
    const hop = this.hop + 1;
    const decay = this.decay(hop);
    const arriving = new Map<string, { sum: number; best: number; path: AssociationType[]; seed: string }>();
    for (const e of edges) {
      const source = this.nodes.get(e.from);
      if (!source || source.hop !== this.hop) continue;
      const reached = this.nodes.get(e.to);
      const share0 = (source.received * TYPE_WEIGHTS[e.type] * e.strength * decay) / Math.sqrt(Math.max(1, e.fan));
      if (reached && reached.hop === 0 && hop === 1) {
        // Seeds support each other at the first hop; the support is not passed on.
        if (e.to !== e.from && share0 > 0) {
          if (reached.supportPath.length === 0 || share0 > reached.support) {
            reached.supportPath = [e.type];
            reached.supportSeed = e.from;
          }
          reached.support = Math.min(1, reached.support + share0);
        }
        continue;
      }
      if (reached && reached.hop < hop) continue; // outward only
      const share = share0;
      if (!(share > 0)) continue;
      const into = arriving.get(e.to) ?? { sum: 0, best: 0, path: [], seed: source.seed };
      into.sum += share;
      if (share > into.best) {
        into.best = share;
        into.path = [...source.path, e.type];
        into.seed = source.seed;
      }
      arriving.set(e.to, into);
    }
    const strongest = [...arriving.entries()].sort((a, b) => b[1].sum - a[1].sum || a[0].localeCompare(b[0]));
    for (const [id, into] of strongest) {
      if (this.nodes.size >= this.options.maxNodes) break;
      const level = Math.min(1, into.sum);
      this.nodes.set(id, {
        activation: level,
        support: 0,
        supportPath: [],
        supportSeed: id,
        received: level,
        path: into.path,
        seed: into.seed,
        hop,
      });
    }
    this.hop = hop;
  }

  private decay(hop: number): number {
    return this.options.hopDecay ** (hop - 1);
  }

  /** Every memory reached, and every seed supported by other seeds (with its support), most activated first. */
  result(): Activated[] {
    return [...this.nodes.entries()]
      .filter(([, n]) => n.hop > 0 || n.support > 0)
      .map(([id, n]) =>
        n.hop > 0
          ? { id, activation: n.activation, path: n.path, seed: n.seed, hop: n.hop }
          : { id, activation: n.support, path: n.supportPath, seed: n.supportSeed, hop: 1 },
      )
      .sort((a, b) => b.activation - a.activation || a.id.localeCompare(b.id));
  }
}
