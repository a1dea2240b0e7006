/**
 * Query vectors for recall: computed by the embedding model ahead of bulk
 * embedding work, and remembered for the most recent distinct queries (an
 * agent often asks the same thing again). A model that is missing or fails
 * gives null, never an error: recall then runs on text alone.
 */
import { LruMap } from './lru.js';

export type EmbedQuery = (text: string) => Promise<Float32Array | null>;

const REMEMBERED = 512;

export class QueryVectors {
  private readonly recent: LruMap<string, Float32Array>;

  constructor(
    private readonly embed: EmbedQuery,
    size = REMEMBERED,
  ) {
    this.recent = new LruMap(size);
  }

  async of(query: string): Promise<Float32Array | null> {
    const key = query.trim();
    const known = this.recent.get(key);
    if (known) return known;
    let vector: Float32Array | null;
    try {
      vector = await this.embed(key);
    } catch {
      return null;
    }
    if (vector) this.recent.set(key, vector);
    return vector;
  }
}
