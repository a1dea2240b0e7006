import { describe, expect, it } from 'vitest';
import type { AssociationRecord } from '../../src/contexts/synapse/index.js';
import {
  Levels,
  Spread,
  TYPE_WEIGHTS,
  type ActivationOptions,
  type SpreadEdge,
} from '../../src/contexts/synapse/testing.js';
import type { AssociationType } from '../../src/domain/index.js';

const options: ActivationOptions = { maxHops: 2, maxNodes: 100, hopDecay: 0.5, maxFrontier: 64, minShare: 0 };

/** An undirected hand-built graph: every edge seen from both ends, with each end's fan. */
function graph(links: [string, string, AssociationType, number][]) {
  const fan = new Map<string, number>();
  for (const [a, b] of links) for (const id of [a, b]) fan.set(id, (fan.get(id) ?? 0) + 1);
  return (ids: readonly string[]): SpreadEdge[] =>
    links.flatMap(([a, b, type, strength]) => [
      ...(ids.includes(a) ? [{ from: a, to: b, type, strength, fan: fan.get(a) as number }] : []),
      ...(ids.includes(b) ? [{ from: b, to: a, type, strength, fan: fan.get(b) as number }] : []),
    ]);
}

function run(edgesOf: (ids: readonly string[]) => SpreadEdge[], seeds = [{ id: 'S', weight: 1 }], opts = options) {
  const spread = new Spread(seeds, opts);
  for (let f = spread.frontier(); f.length > 0; f = spread.frontier()) spread.step(edgesOf(f));
  return spread.result();
}

describe('spreading activation', () => {
  it('share = weight × typeWeight × strength / √fan at hop 1', () => {
    const result = run(
      graph([
        ['S', 'A', 'CAUSAL', 0.8],
        ['S', 'B', 'EMOTIONAL', 0.8],
      ]),
    );
    expect(result.find((r) => r.id === 'A')?.activation).toBeCloseTo((TYPE_WEIGHTS.CAUSAL * 0.8) / Math.sqrt(2));
    expect(result.map((r) => r.id)).toEqual(['A', 'B']); // a cause carries more than a shared mood
  });

  it('decays per hop and follows the strongest path', () => {
    const result = run(
      graph([
        ['S', 'A', 'CAUSAL', 0.9],
        ['A', 'C', 'THEMATIC', 0.9],
      ]),
    );
    const a = result.find((r) => r.id === 'A');
    const c = result.find((r) => r.id === 'C');
    expect(c?.activation).toBeCloseTo((a!.activation * TYPE_WEIGHTS.THEMATIC * 0.9 * options.hopDecay) / Math.sqrt(2));
    expect(c?.path).toEqual(['CAUSAL', 'THEMATIC']);
    expect(c?.hop).toBe(2);
  });

  it('lets a hub pass on less along each link (fan effect)', () => {
    const links: [string, string, AssociationType, number][] = [
      ['S', 'H', 'THEMATIC', 0.9],
      ['S', 'Q', 'THEMATIC', 0.9],
      ['H', 'X', 'THEMATIC', 0.9],
      ['Q', 'Y', 'THEMATIC', 0.9],
    ];
    for (let i = 0; i < 30; i++) links.push(['H', `h${i}`, 'THEMATIC', 0.9]);
    const result = run(graph(links));
    const at = (id: string) => result.find((r) => r.id === id)?.activation ?? 0;
    expect(at('H')).toBeCloseTo(at('Q'));
    expect(at('Y') / at('X')).toBeCloseTo(4); // fan 32 against fan 2: √16
  });

  it('adds shares that meet, caps activation at 1 and never flows back', () => {
    const result = run(
      graph([
        ['S', 'A', 'CAUSAL', 0.9],
        ['S', 'B', 'CAUSAL', 0.9],
        ['A', 'C', 'CAUSAL', 0.9],
        ['B', 'C', 'CAUSAL', 0.9],
      ]),
    );
    const a = result.find((r) => r.id === 'A')!.activation;
    expect(result.find((r) => r.id === 'C')!.activation).toBeCloseTo((2 * a * 0.9 * 0.5) / Math.sqrt(2));
    expect(result.some((r) => r.id === 'S')).toBe(false); // seeds are not results
    const many = run(
      graph(
        Array.from(
          { length: 10 },
          (_, i) => [`S${i}`, 'T', 'CAUSAL', 0.99] as [string, string, AssociationType, number],
        ),
      ),
      Array.from({ length: 10 }, (_, i) => ({ id: `S${i}`, weight: 1 })),
    );
    expect(many[0]).toMatchObject({ id: 'T', activation: 1 });
  });

  it('stops at maxHops and at maxNodes (keeping the most activated)', () => {
    const chain = graph([
      ['S', 'A', 'CAUSAL', 0.9],
      ['A', 'B', 'CAUSAL', 0.9],
      ['B', 'C', 'CAUSAL', 0.9],
    ]);
    expect(run(chain).map((r) => r.id)).toEqual(['A', 'B']);
    expect(run(chain, undefined, { ...options, maxHops: 3 }).map((r) => r.id)).toEqual(['A', 'B', 'C']);
    const star = graph([
      ['S', 'A', 'CAUSAL', 0.9],
      ['S', 'B', 'EMOTIONAL', 0.2],
      ['S', 'C', 'THEMATIC', 0.5],
    ]);
    // S counts as visited
    expect(run(star, undefined, { ...options, maxNodes: 3 }).map((r) => r.id)).toEqual(['A', 'C']);
  });

  it('ignores seeds without weight', () => {
    expect(run(graph([['S', 'A', 'CAUSAL', 0.9]]), [{ id: 'S', weight: 0 }])).toEqual([]);
  });
});

describe('neighbourhood levels', () => {
  const edge = (from: string, to: string, strength = 0.5, type = 'THEMATIC') => ({ from, to, type, strength });

  it('returns each association once, seen from the end nearer the start', () => {
    const levels = new Levels('A');
    expect(levels.frontier()).toEqual(['A']);
    const first = levels.take([edge('A', 'B', 0.9), edge('A', 'C', 0.4)], 100);
    expect(first.map((e) => [e.from, e.to, e.hop])).toEqual([
      ['A', 'B', 1],
      ['A', 'C', 1],
    ]);
    expect(levels.frontier().sort()).toEqual(['B', 'C']);
    // B–A goes back (returned already); B–C joins two level-1 memories (once); C–D is new.
    const second = levels.take(
      [edge('B', 'A', 0.9), edge('B', 'C', 0.3), edge('C', 'B', 0.3), edge('C', 'D', 0.6)],
      100,
    );
    expect(second.map((e) => [e.from, e.to, e.hop])).toEqual([
      ['C', 'D', 2],
      ['B', 'C', 2],
    ]);
  });

  it('keeps types apart and respects the budget', () => {
    const levels = new Levels('A');
    expect(
      levels.take([edge('A', 'B', 0.9, 'THEMATIC'), edge('A', 'B', 0.8, 'PERSON'), edge('A', 'C', 0.1)], 2),
    ).toHaveLength(2);
  });

  it('has the shape of an AssociationRecord hop', () => {
    const hop: AssociationRecord['hop'] = new Levels('x').take([edge('x', 'y')], 1)[0]!.hop;
    expect(hop).toBe(1);
  });
});
