/**
 * The frame line: one honest sentence written before any recalled memory —
 * how many, and how sure. A weak recall says so; an empty one says nothing was found.
 */
export const STRONG = 0.6;
export const WEAK = 0.3;
/** How much of the question the frame quotes, in characters. */
export const FRAME_QUERY_CHARS = 80;

/** What a pack left out: hits below its floor, and confidences of hits above it that did not fit. */
export interface LeftOut {
  readonly belowFloor: number;
  readonly overBudget: readonly number[];
}

const NOTHING_LEFT: LeftOut = { belowFloor: 0, overBudget: [] };
const pct = (x: number) => `${Math.round(x * 100)}%`;
const memoriesOf = (n: number) => (n === 1 ? '1 memory' : `${n} memories`);

/**
 * The question as the frame quotes it: on one line (a newline in it would end the
 * frame line early, and could pass a line of the question off as a recalled memory),
 * at most FRAME_QUERY_CHARS characters, cut between characters, not inside one.
 */
export function quotedQuery(query: string): string {
  const flat = query.replace(/[\s\p{C}]+/gu, ' ').trim();
  const chars = Array.from(flat);
  return chars.length > FRAME_QUERY_CHARS ? `${chars.slice(0, FRAME_QUERY_CHARS - 3).join('')}…` : flat;
}

function leftOutSuffix(left: LeftOut, nothingChosen: boolean): string {
  const parts: string[] = [];
  if (left.belowFloor > 0) parts.push(`${left.belowFloor} more fell below the floor`);
  // With nothing chosen, the sentence before already says what did not fit.
  if (left.overBudget.length > 0 && !nothingChosen) parts.push(`${left.overBudget.length} more did not fit the budget`);
  return parts.length > 0 ? ` ${parts.join('; ')}.` : '';
}

/**
 * `storeEmpty`: the store searched holds no memory at all, which an empty answer says (a misspelt store name, or a
 * mind's first question, reads differently from a question its memories do not answer).
 */
export function frameLine(
  query: string,
  confidences: readonly number[],
  left: LeftOut = NOTHING_LEFT,
  storeEmpty = false,
): string {
  const q = quotedQuery(query);
  const suffix = leftOutSuffix(left, confidences.length === 0);
  if (confidences.length === 0) {
    if (storeEmpty) return `Nothing remembered about "${q}": this store holds no memories yet.`;
    if (left.overBudget.length === 0) return `Nothing remembered about "${q}".${suffix}`;
    return (
      `Nothing about "${q}" fits the budget: ${memoriesOf(left.overBudget.length)} left out (best confidence ` +
      `${pct(Math.max(...left.overBudget))}).${suffix}`
    );
  }
  const best = Math.max(...confidences);
  const strong = confidences.filter((c) => c >= STRONG).length;
  const memories = memoriesOf(confidences.length);
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
