/**
 * Words with an apostrophe, as the full-text index's English analyzer reads them: "O'Brien" is one word (Lucene's
 * tokenizer keeps letters joined by an apostrophe together), a possessive or a contraction is dropped ("Caroline's" →
 * "Caroline", "don't" → "don"). Recall and Synapse both send words to that index.
 */

/** Letters joined by a straight or a typographic apostrophe, inside a word (a regular expression's source). */
export const APOSTROPHE_JOINER = String.raw`(?<=\p{L})['’](?=\p{L})`;

/** What follows the apostrophe of a possessive or a contraction ("Caroline's", "don't", "we'll"). */
const CONTRACTION_TAIL = /['’](?:s|t|d|ll|m|re|ve)$/iu;

/**
 * A word without its possessive or contraction ("Caroline's" → "Caroline", "don't" → "don", "o'brien's" →
 * "o'brien"), and with a straight apostrophe: the index drops a possessive, and a contraction's head is what the
 * word says ("don" is a stop word as "don't" is). An apostrophe inside a name stays ("O'Brien", "D'Angelo").
 */
export function withoutContraction(word: string): string {
  let out = word;
  while (CONTRACTION_TAIL.test(out)) out = out.replace(CONTRACTION_TAIL, '');
  return out.replaceAll('’', "'");
}
