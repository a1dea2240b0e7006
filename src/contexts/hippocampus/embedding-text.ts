/**
 * The text a memory's embedding is computed from: the end of the memory just
 * before it in its session, then its own content. A turn of a conversation
 * often means little alone ("Yes, last week!"); with the end of what it
 * answers, its vector carries the topic (LoCoMo, fused ranking: recall_any@10
 * 0.777 → 0.811; docs/recall.md). Only the end: the whole turn before pulls
 * the vector towards that turn's own topic, so the turn after an answer
 * competes with the answer, and the model reads more tokens (LoCoMo: 73 → 63).
 * The context is its last CONTEXT_MAX_CHARS characters, from a word's start.
 */
export const CONTEXT_MAX_CHARS = 120;

export function embeddingText(content: string, before: string | null): string {
  if (!before) return content;
  return `${contextTail(before)}\n${content}`;
}

/** The end of `before`, at most CONTEXT_MAX_CHARS characters, beginning at a word (marked … when cut). */
function contextTail(before: string): string {
  if (before.length <= CONTEXT_MAX_CHARS) return before;
  const start = before.length - CONTEXT_MAX_CHARS;
  const tail = before.slice(start);
  if (/\s/.test(before[start - 1] as string)) return `…${tail}`;
  // Cut inside a word: begin at the next one (one unbroken word longer than the limit keeps its end).
  const space = tail.search(/\s/);
  return `…${space >= 0 ? tail.slice(space + 1) : tail}`;
}
