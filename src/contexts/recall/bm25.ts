/**
 * BM25 over one store's own statistics. Lucene's scores use document
 * frequencies of the whole index — every store of every mind — so one
 * tenant's memories would change how another's rank. Recall takes its
 * candidates from Lucene and scores them again here, per store.
 */
import { QUERY_STOP_WORDS, stem, tokenize } from './query-text.js';

export const K1 = 1.2;
export const B = 0.75;

/** The stems a memory is indexed by: content, tags and people, stop words dropped. */
export function documentStems(content: string, tags: readonly string[], people: readonly string[]): string[] {
  return tokenize(`${content} ${tags.join(' ')} ${people.join(' ')}`)
    .filter((t) => !QUERY_STOP_WORDS.has(t))
    .map(stem);
}

export interface TermStats {
  readonly documents: number;
  readonly totalLength: number;
  documentFrequency(stem: string): number;
}

export function idf(stats: TermStats, stem: string): number {
  const df = stats.documentFrequency(stem);
  return Math.log(1 + (stats.documents - df + 0.5) / (df + 0.5));
}

export function bm25(queryStems: readonly string[], docStems: readonly string[], stats: TermStats): number {
  if (docStems.length === 0 || stats.documents === 0) return 0;
  const tf = new Map<string, number>();
  for (const s of docStems) tf.set(s, (tf.get(s) ?? 0) + 1);
  const avgdl = stats.totalLength / stats.documents || 1;
  let score = 0;
  for (const q of new Set(queryStems)) {
    const f = tf.get(q);
    if (!f) continue;
    score += (idf(stats, q) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * docStems.length) / avgdl));
  }
  return score;
}

/** Document frequencies of one store, kept up to date by the stores the process sees. */
export class StoreTermStats implements TermStats {
  documents = 0;
  totalLength = 0;
  private readonly df = new Map<string, number>();

  add(stems: readonly string[], sign: 1 | -1 = 1): void {
    this.documents += sign;
    this.totalLength += sign * stems.length;
    for (const s of new Set(stems)) {
      const next = (this.df.get(s) ?? 0) + sign;
      if (next > 0) this.df.set(s, next);
      else this.df.delete(s);
    }
  }

  documentFrequency(stem: string): number {
    return this.df.get(stem) ?? 0;
  }
}

/**
 * A store's statistics from the part of it read so far, scaled to its size: each term as frequent in the whole as
 * in the part. It reads the part as it grows, so it comes closer to the whole with every page counted.
 */
export class ScaledTermStats implements TermStats {
  constructor(
    private readonly part: StoreTermStats,
    private readonly size: number,
  ) {}

  private get scale(): number {
    return this.part.documents > 0 ? Math.max(1, this.size / this.part.documents) : 1;
  }

  get documents(): number {
    return Math.max(this.size, this.part.documents);
  }

  get totalLength(): number {
    return this.part.totalLength * this.scale;
  }

  documentFrequency(stem: string): number {
    return this.part.documentFrequency(stem) * this.scale;
  }
}

/**
 * The terms the full-text index is asked for. A term in more than `share` of
 * the store's memories and in more of them than the candidate `limit` (the
 * name of the person a mind talks with, say) has little IDF, yet its matches
 * alone would fill the candidate limit, and its posting list is the longest
 * to walk: it is left out, and still counts in the BM25 score of what the
 * other terms find. All terms stay when every one is that common.
 */
export function searchTerms(terms: readonly string[], stats: TermStats, share: number, limit: number): string[] {
  const telling = terms.filter((t) => {
    const df = stats.documentFrequency(stem(t));
    return df <= share * stats.documents || df <= limit;
  });
  return telling.length > 0 ? telling : [...terms];
}
