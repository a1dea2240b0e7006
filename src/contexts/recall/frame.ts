/**
 * The frame line: one honest sentence written before any recalled memory —
 * how many, and how sure. A weak recall says so; an empty one says nothing was found.
 */
export const STRONG = 0.6;
export const WEAK = 0.3;

export function frameLine(query: string, confidences: readonly number[], dropped = 0): string {
  const q = query.length > 80 ? `${query.slice(0, 77)}…` : query;
  const suffix = dropped > 0 ? ` ${dropped} more fell below the floor or budget.` : '';
  if (confidences.length === 0) return `Nothing remembered about "${q}".${suffix}`;
  const best = Math.max(...confidences);
  const strong = confidences.filter((c) => c >= STRONG).length;
  const n = confidences.length;
  const memories = n === 1 ? '1 memory' : `${n} memories`;
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  if (best < WEAK)
    return (
      `Only weak matches for "${q}": ${memories}, best confidence ${pct(best)} — treat them as guesses, not ` +
      `facts.${suffix}`
    );
  if (strong === 0) return `Recalled ${memories} about "${q}", none certain (best confidence ${pct(best)}).${suffix}`;
  return (
    `Recalled ${memories} about "${q}"; ${strong} with confidence of ${pct(STRONG)} or more (best ` +
    `${pct(best)}).${suffix}`
  );
}
