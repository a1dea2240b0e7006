import { createHash } from 'node:crypto';

/**
 * One full-text token that names a store exactly. Store names are free text
 * ("alice" and "alice-work" would share tokens); this key lets Recall scope a
 * full-text query to one store inside Lucene, before any limit applies.
 */
export function storeKeyOf(store: string): string {
  return `k${createHash('sha256').update(store).digest('hex').slice(0, 20)}`;
}
