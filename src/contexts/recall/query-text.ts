/**
 * From a question to a full-text query: words that carry meaning only.
 * Lucene's English analyzer drops a few dozen stop words; questions also
 * carry question words, auxiliaries and pronouns that match half of any
 * conversation ("what", "did", "you"), so Recall drops those too.
 */
import { stemmer } from 'stemmer';
import { APOSTROPHE_JOINER, withoutContraction } from '../../domain/index.js';
import { IRREGULAR_BASE, IRREGULAR_FORMS } from './irregular.js';

export const QUERY_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between ' +
    'both but by ' +
    'can could did do does doing done down during each else ever few for from further get gets got had has have ' +
    'having he her here hers ' +
    'herself him himself his how however i if in into is it its itself just kind like made make many may me might ' +
    'more most much must my ' +
    'myself no nor not now of off on once one only or other ought our ours ourselves out over own per quite rather ' +
    'really said same say ' +
    'says shall she should since so some such than that the their theirs them themselves then there these they thing ' +
    'things this those ' +
    'through thus to too under until up upon us use used very was we were what whatever when whenever where whereas ' +
    'wherever whether which ' +
    'while who whoever whom whose why will with within without would yes yet you your yours yourself yourselves ' +
    "let lets likely might'nt s t d ll m re ve isn aren wasn weren don doesn didn won wouldn couldn shouldn"
  ).split(/\s+/),
);

export const MAX_QUERY_TERMS = 32;

/** Ideographs and kana: Chinese and Japanese write no spaces, so each is a word (as Lucene's tokenizer has it). */
const CHARACTER_WORD = String.raw`[\p{Script=Han}\p{Script=Hiragana}]`;
const WORD_RUN = String.raw`(?:(?!${CHARACTER_WORD})[\p{L}\p{N}\p{M}])+`;
/**
 * A word as the full-text index cuts it (Lucene's standard tokenizer) where
 * that matters for recall: letters and digits of any script, digits joined
 * by a point or a comma stay one number ("3.5", "10.0.3.7", "8,231"), and
 * letters joined by an apostrophe one word ("O'Brien", "don't").
 */
const JOINER = String.raw`(?:(?<=\p{N})[.,](?=\p{N})|${APOSTROPHE_JOINER})`;
export const WORD_PATTERN = `${CHARACTER_WORD}|${WORD_RUN}(?:${JOINER}${WORD_RUN})*`;
const WORD = new RegExp(WORD_PATTERN, 'gu');
const ONE_CHARACTER_WORD = new RegExp(`^${CHARACTER_WORD}$`, 'u');
const THOUSANDS = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const UNGROUPED = /^(\d{4,})(\.\d+)?$/;

/** A number written with thousands separators is the same number without them ("8,231" is "8231"). */
export function withoutGrouping(word: string): string {
  return THOUSANDS.test(word) ? word.replaceAll(',', '') : word;
}

/** The same number with thousands separators, or null when the word is no such number. */
export function withGrouping(word: string): string | null {
  const m = UNGROUPED.exec(word);
  if (!m) return null;
  return `${(m[1] as string).replace(/\B(?=(\d{3})+$)/g, ',')}${m[2] ?? ''}`;
}

/** Lower-case words (WORD_PATTERN): numbers without their thousands separators, words without a contraction. */
export function tokenize(text: string): string[] {
  return (text.toLowerCase().normalize('NFKC').match(WORD) ?? []).map((w) => withoutGrouping(withoutContraction(w)));
}

/** Words too short to search by: one letter or digit, though one ideograph is a word. */
export function tooShort(token: string): boolean {
  return token.length < 2 && !ONE_CHARACTER_WORD.test(token);
}

/** The meaningful words of a query, first occurrence first. */
export function queryTerms(text: string): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    if (tooShort(token) || QUERY_STOP_WORDS.has(token) || out.includes(token)) continue;
    out.push(token);
    if (out.length === MAX_QUERY_TERMS) break;
  }
  return out;
}

/** Words stemmed lately: a store's vocabulary repeats, and the Porter stemmer's regular expressions cost. */
const STEMS = new Map<string, string>();
const STEMS_KEPT = 50_000;

/** The word's stem, irregular forms first taken back to their base ("drew" → "draw"). */
export function stem(word: string): string {
  let stemmed = STEMS.get(word);
  if (stemmed === undefined) {
    stemmed = stemmer(IRREGULAR_BASE.get(word) ?? word);
    if (STEMS.size >= STEMS_KEPT) STEMS.clear(); // simpler than LRU order, and a vocabulary refills it quickly
    STEMS.set(word, stemmed);
  }
  return stemmed;
}

/** Base forms with irregular forms, by their stem ("drawing" and "draws" stem to "draw"). */
const BASE_BY_STEM: ReadonlyMap<string, string> = new Map(
  [...IRREGULAR_FORMS.keys()].map((base) => [stemmer(base), base]),
);

/**
 * The terms plus the irregular forms of each (for the full-text search, whose
 * analyzer stems suffixes only): "drawing" also searches "drew" and "drawn",
 * "went" also "go" and "gone".
 */
export function withIrregularForms(terms: readonly string[]): string[] {
  const out = [...terms];
  for (const term of terms) {
    const base = IRREGULAR_BASE.get(term) ?? BASE_BY_STEM.get(stemmer(term));
    if (base === undefined) continue;
    for (const form of [base, ...(IRREGULAR_FORMS.get(base) ?? [])]) if (!out.includes(form)) out.push(form);
  }
  return out;
}

/** Share of the query's stems found in a text: an absolute match measure in [0,1]. */
export function coverage(queryStems: readonly string[], text: string): number {
  if (queryStems.length === 0) return 0;
  const present = new Set(tokenize(text).map(stem));
  return queryStems.filter((s) => present.has(s)).length / queryStems.length;
}

/**
 * The Lucene query: any of the terms in content, tags or people, scoped to one
 * store by its key (boost 0, so it does not score) unless the key is null.
 * Terms are letters and digits (a number may hold a point or a comma, a name
 * an apostrophe, none special to Lucene), so nothing needs escaping. A number
 * goes with and without thousands separators, a name with a straight and a
 * typographic apostrophe: the index keeps "8,231" and "O’Brien" as written.
 */
export function luceneQuery(terms: readonly string[], storeKey: string | null): string {
  const forms = terms.flatMap((term) => {
    const grouped = withGrouping(term);
    if (grouped !== null) return [term, grouped];
    return term.includes("'") ? [term, term.replaceAll("'", '’')] : [term];
  });
  const any = forms.join(' ');
  const fields = `content:(${any}) tags:(${any}) people:(${any})`;
  return storeKey === null ? fields : `+storeKey:${storeKey}^0 +(${fields})`;
}

/**
 * Whether a memory's people include one the query names: a person counts when
 * any word of their name (two letters or more) is a word of the query.
 */
export function namesPerson(queryWords: ReadonlySet<string>, people: readonly string[]): boolean {
  return people.some((person) => tokenize(person).some((word) => word.length >= 2 && queryWords.has(word)));
}
