/**
 * Groups near-duplicate pairs into consolidation clusters: strongest pairs
 * first, joined while a cluster stays within `maxSize` (so one weak bridge
 * cannot chain a whole store together). Pure and deterministic.
 */
export interface Pair {
  readonly a: string;
  readonly b: string;
  readonly strength: number;
}

export function clusters(pairs: readonly Pair[], maxSize = 8): string[][] {
  const parent = new Map<string, string>();
  const size = new Map<string, number>();
  const root = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r) as string;
    parent.set(x, r);
    return r;
  };
  const add = (x: string) => {
    if (!parent.has(x)) {
      parent.set(x, x);
      size.set(x, 1);
    }
  };
  const sorted = [...pairs].sort((p, q) => q.strength - p.strength || p.a.localeCompare(q.a) || p.b.localeCompare(q.b));
  for (const { a, b } of sorted) {
    add(a);
    add(b);
    const [ra, rb] = [root(a), root(b)];
    if (ra === rb) continue;
    const joined = (size.get(ra) as number) + (size.get(rb) as number);
    if (joined > maxSize) continue;
    const [keep, drop] = ra < rb ? [ra, rb] : [rb, ra];
    parent.set(drop, keep);
    size.set(keep, joined);
  }
  const groups = new Map<string, string[]>();
  for (const id of parent.keys()) {
    const r = root(id);
    groups.set(r, [...(groups.get(r) ?? []), id]);
  }
  return [...groups.values()]
    .filter((g) => g.length >= 2)
    .map((g) => g.sort())
    .sort((x, y) => (x[0] as string).localeCompare(y[0] as string));
}
