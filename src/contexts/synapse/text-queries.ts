/**
 * Lucene queries for the `memory_text` full-text index (english analyzer,
 * BM25). Every query is scoped to one store by its `storeKey` token (boost 0,
 * so it never adds to the score); terms are reduced to letters and digits (a
 * name may keep an apostrophe, which Lucene's syntax does not read), and
 * labels are quoted phrases, so no caller text can change the query's shape.
 */
import { APOSTROPHE_JOINER, withoutContraction } from '../../domain/index.js';

const STOP_WORDS = new Set(
  (
    'the and for are but not you all any can had her was one our out has him his how its may new now old ' +
    'see two way who did get let put say she too use with that this from they will would there their what ' +
    'about which when make like time just know take into year your some could them than then look only ' +
    'come over think also back after work first well even want because these give most were been have ' +
    'more very'
  ).split(' '),
);

/**
 * At most this many content words go into a thematic query: each term costs a
 * posting-list walk, and the words beyond the first sixteen add little.
 */
export const MAX_KEYWORDS = 16;

/** The content's distinct words as keywords see them: lower-cased, 3+ letters or digits, no stop words. */
export function contentWords(content: string): string[] {
  return [...new Set(wordsOf(content))];
}

/** Letters and digits, and letters joined by an apostrophe ("o'brien"), as the index's tokenizer keeps them. */
const WORD = new RegExp(String.raw`[\p{L}\p{N}]+(?:${APOSTROPHE_JOINER}[\p{L}\p{N}]+)*`, 'gu');

function wordsOf(content: string): string[] {
  return (content.toLowerCase().match(WORD) ?? [])
    .map(withoutContraction)
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w));
}

/**
 * The content's most frequent words (3+ letters, no stop words, none of
 * `skip`); among equals the longer first (longer words tend to be rarer, so
 * more telling), then in order of first use.
 */
export function keywords(content: string, max = MAX_KEYWORDS, skip: ReadonlySet<string> = new Set()): string[] {
  const counts = new Map<string, number>();
  for (const word of wordsOf(content)) if (!skip.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
  // Map keeps first-use order; the sort is stable.
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || b[0].length - a[0].length)
    .slice(0, max)
    .map(([word]) => word);
}

/** A Lucene phrase: only `"` and `\` are special inside quotes. */
export function phrase(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

const scoped = (storeKey: string, body: string) => `+storeKey:${storeKey}^0 +(${body})`;

/** Tags count double: they are the topics the mind chose itself. */
export const TAG_BOOST = 2;

/**
 * Content words and tags of a memory, or null when nothing is left to search
 * for. `commonWords` (lower-cased) are left out: see commonLabels.
 */
export function thematicQuery(
  storeKey: string,
  content: string,
  tags: readonly string[],
  commonWords: ReadonlySet<string> = new Set(),
): string | null {
  // A name goes with a straight and a typographic apostrophe: the index keeps the one written.
  const words = keywords(content, MAX_KEYWORDS, commonWords).flatMap((w) =>
    w.includes("'") ? [w, w.replaceAll("'", '’')] : [w],
  );
  const labels = tags.filter((t) => /[\p{L}\p{N}]/u.test(t));
  const parts = [];
  if (words.length > 0) parts.push(`content:(${words.join(' ')})`);
  if (labels.length > 0) parts.push(`tags:(${labels.map(phrase).join(' ')})^${TAG_BOOST}`);
  return parts.length > 0 ? scoped(storeKey, parts.join(' ')) : null;
}

/** Memories naming any of these people (rare names score higher), or null. */
export function peopleQuery(storeKey: string, people: readonly string[]): string | null {
  const names = people.filter((p) => /[\p{L}\p{N}]/u.test(p));
  return names.length > 0 ? scoped(storeKey, `people:(${names.map(phrase).join(' ')})`) : null;
}

/** A label in at least this share of the store's newest memories is common. */
export const COMMON_SHARE = 0.05;
/** Below this many sampled memories nothing counts as common (a small store is cheap to search). */
export const MIN_SAMPLE = 50;

/**
 * Labels (case-folded) carried by at least COMMON_SHARE of a sample of the
 * store's newest memories — tags, people, or content words. Their IDF is low
 * (at most ln 20) — they would not make a link on their own — while their
 * posting lists are long, so the full-text queries leave them out; common
 * people still link through the newest-memories pool.
 */
export function commonLabels(
  sample: readonly (readonly string[])[],
  share = COMMON_SHARE,
  minSample = MIN_SAMPLE,
): Set<string> {
  if (sample.length < minSample) return new Set();
  const counts = new Map<string, number>();
  for (const labels of sample)
    for (const label of new Set(labels.map((l) => l.trim().toLowerCase())))
      counts.set(label, (counts.get(label) ?? 0) + 1);
  return new Set([...counts].filter(([, n]) => n >= share * sample.length).map(([label]) => label));
}

/** The labels that are not common. */
export function rareOnly(labels: readonly string[], common: ReadonlySet<string>): string[] {
  return labels.filter((l) => !common.has(l.trim().toLowerCase()));
}
