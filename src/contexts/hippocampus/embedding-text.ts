/**
 * The text a memory's embedding is computed from: the memory just before it
 * in its session, then its own content. A turn of a conversation often means
 * little alone ("Yes, last week!"); with what it answers, its vector carries
 * the topic (LoCoMo, fused ranking: recall_any@10 0.777 → 0.811; docs/recall.md).
 * The model reads at most 512 tokens, so the context is cut to its last
 * CONTEXT_MAX_CHARS characters (the part nearest the memory) and can never
 * crowd out the memory's own words.
 */
export const CONTEXT_MAX_CHARS = 600;

export function embeddingText(content: string, before: string | null): string {
  if (!before) return content;
  const context = before.length > CONTEXT_MAX_CHARS ? `…${before.slice(-CONTEXT_MAX_CHARS)}` : before;
  return `${context}\n${content}`;
}
