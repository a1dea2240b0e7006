/**
 * The evidence a memory holds for a question, measured so that it means the
 * same in every store: nothing here depends on how many memories a store
 * holds (no IDF, no score relative to the query's best candidate).
 *
 * - content words: the question's words but question words, auxiliaries and
 *   pronouns (QUERY_STOP_WORDS), by stem;
 * - specifics: the numbers and names the question spells out — a word with a
 *   digit, or a capitalised word that does not start a sentence ("8231",
 *   "Caroline", "LGBTQ"). An exact match of one is strong evidence, and a
 *   memory that has none of them is most likely about something else;
 * - coverage: the share of the question's other content words the memory
 *   holds (with no such word, the share of its specifics);
 * - what kind of answer: a question that asks when wants a time, and one that
 *   asks how many, how much, how long or how often wants a number; a memory
 *   that holds neither a digit nor a word of time (or of number) is less
 *   likely to be the answer, however close its topic (kindMiss);
 * - breadth: how much else the memory holds. A long memory (a whole answer
 *   of an assistant, a pasted document) covers many topics: its vector stands
 *   farther from any one question, so its cosine above its own baseline
 *   flatters it, and at equal evidence it is less often the one thing a
 *   question asks for. 0 up to BREADTH_WORDS content words, 1 from twice
 *   that on, log-scaled between: bounded, so a long memory that matches well
 *   can still be recalled with confidence;
 * - memory talk: in a question put to the memory itself ("what number did I
 *   ask you to remember?", "what did I tell you about Ana?", "do you know
 *   …", "what do I remember about Ana?", "tell me about Ana", "recall
 *   Ana"), the verbs of remembering and telling are about the conversation
 *   with the memory, not about what it holds, so they are not content words.
 */
import { withoutContraction } from '../../domain/index.js';
import { QUERY_STOP_WORDS, stem, tokenize, tooShort, withoutGrouping, WORD_PATTERN } from './query-text.js';
import { MONTHS } from './query-dates.js';

export interface Question {
  /** Stems of the content words that are not specifics. */
  readonly plain: readonly string[];
  /** Stems of the specifics (numbers and names). */
  readonly specifics: readonly string[];
  /** The kind of answer the question asks for, when its first words say so. */
  readonly wants: 'time' | 'number' | null;
}

/** Words that say when (with any digit): a memory holding one of them can answer "when …?". */
// ("may" and "fall" are left out: far more often a verb than a month or a season.)
const TIME_WORDS: ReadonlySet<string> = new Set(
  (
    `${MONTHS.filter((m) => m !== 'may').join(' ')} ` +
    'monday tuesday wednesday thursday friday saturday sunday weekend today tomorrow yesterday tonight ' +
    'morning evening night afternoon noon midnight week month year day daily weekly monthly yearly annually ' +
    'hour minute ago last next spring summer autumn winter christmas easter birthday anniversary ' +
    // Meals and the ends of the day answer "when" as plainly as a clock does.
    'breakfast brunch lunch dinner supper bedtime dawn dusk sunrise sunset holiday weekday season'
  )
    .split(' ')
    .map((w) => stem(w)),
);
/** Number words: a memory holding one of them (or a digit) can answer "how many …?". */
const NUMBER_WORDS: ReadonlySet<string> = new Set(
  (
    'one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty ' +
    'hundred thousand million billion dozen half once twice few several percent'
  )
    .split(' ')
    .map((w) => stem(w)),
);

/** Fillers a question may start with before its question word ("and when …", "so how many …"). */
const LEAD_FILLERS = /^(?:(?:and|so|but|then|ok|okay|also|remind me|tell me)[\s,]+)*/;

export function answerWanted(text: string): Question['wants'] {
  const q = text.normalize('NFKC').toLowerCase().trim().replace(LEAD_FILLERS, '');
  if (/^(?:when|what time|what day|what date|which day|which date|since when|until when)\b/.test(q)) return 'time';
  if (/^how (?:many|much|long|often|old|far)\b/.test(q)) return 'number';
  return null;
}

const WRITTEN = new RegExp(`${WORD_PATTERN}|[.!?]+`, 'gu');

/** Words as written, with whether each starts a sentence. */
function writtenWords(text: string): { word: string; first: boolean }[] {
  const out: { word: string; first: boolean }[] = [];
  let first = true;
  for (const m of text.normalize('NFKC').matchAll(WRITTEN)) {
    const w = withoutGrouping(withoutContraction(m[0]));
    if (/^[.!?]+$/.test(w)) {
      first = true;
      continue;
    }
    out.push({ word: w, first });
    first = false;
  }
  return out;
}

/** Verbs a question uses to address the memory ("did I tell you", "do you remember", "recall Ana"). */
const MEMORY_TALK: ReadonlySet<string> = new Set(
  (
    'remember remembered recall recalled remind reminded forget forgot forgotten ask asked tell told ' +
    'mention mentioned say said know knew'
  ).split(' '),
);
/**
 * Verbs of the asker's own knowing, talk right after "I" or "we" too ("what do I know about …", "did I mention
 * Bob?"). Verbs of acts stay the topic there ("did I ask Bob?", "did I forget my keys?").
 */
const KNOWING: ReadonlySet<string> = new Set(
  'remember remembered recall recalled know knew mention mentioned'.split(' '),
);
/** Verbs that ask the memory for what it holds when "me" or "us" follows ("tell me about", "show us"). */
const ASKING_FOR: ReadonlySet<string> = new Set('tell remind show give list'.split(' '));
const ASKER: ReadonlySet<string> = new Set(['i', 'we']);
const ASKED: ReadonlySet<string> = new Set(['me', 'us']);
/** Words that may stand between the asker and the verb ("did I ever mention"). */
const BETWEEN: ReadonlySet<string> = new Set('ever already still just once actually really'.split(' '));
/** Words a question may open with before its verb ("please recall …", "so, remember …"). */
const OPENERS: ReadonlySet<string> = new Set('please and so ok okay hey now'.split(' '));
/**
 * Pronouns that stand for whatever answers ("anything about Ana?", "is there anyone who …") and "please": no topic
 * of a question, unless written as a name or quoted ("Nothing Phone", "the 'nothing' bug").
 */
const STAND_INS: ReadonlySet<string> = new Set(
  'anything something everything nothing anyone someone everyone anybody somebody everybody nobody please'.split(' '),
);

/**
 * Which words talk to the memory rather than about what it holds: any verb of
 * remembering or telling in a question that says "you"; a verb of knowing
 * opening the question ("recall Ana", "remember anything about Leah?") or right
 * after "I" or "we"; "tell me", "show us" opening the question or put to "you".
 * A verb of an act opening a note-like question is its topic ("Forgot password
 * flow broken?", "asked Bob about the lease?").
 */
function memoryTalk(lower: readonly string[]): boolean[] {
  const toTheMemory = lower.includes('you');
  const opening = lower.findIndex((word) => !OPENERS.has(word));
  return lower.map((word, i) => {
    if (ASKING_FOR.has(word) && ASKED.has(lower[i + 1] ?? '')) return toTheMemory || i === opening;
    if (!MEMORY_TALK.has(word)) return false;
    if (toTheMemory) return true;
    const asker = BETWEEN.has(lower[i - 1] ?? '') ? i - 2 : i - 1;
    return KNOWING.has(word) && (i === opening || ASKER.has(lower[asker] ?? ''));
  });
}

/** A word the question quotes ("the 'nothing' bug"). */
const quoted = (text: string, word: string) => new RegExp(`['"‘“]${word}['"’”]`, 'iu').test(text);

export function questionOf(text: string): Question {
  const specifics: string[] = [];
  const plain: string[] = [];
  const words = writtenWords(text);
  const talk = memoryTalk(words.map(({ word }) => word.toLowerCase()));
  words.forEach(({ word, first }, i) => {
    const lower = word.toLowerCase();
    if (QUERY_STOP_WORDS.has(lower) || talk[i]) return;
    if (STAND_INS.has(lower) && (first || word === lower) && !quoted(text, word)) return;
    const specific = /\p{N}/u.test(word) || (!first && /^\p{Lu}/u.test(word));
    if (!specific && tooShort(lower)) return;
    const s = stem(lower);
    const list = specific ? specifics : plain;
    if (!specifics.includes(s) && !plain.includes(s)) list.push(s);
  });
  return { plain, specifics, wants: answerWanted(text) };
}

export interface Evidence {
  /** Share of the question's content words the memory holds, in [0,1]. */
  readonly coverage: number;
  /** Share of the question's specifics the memory holds (0 when it names none). */
  readonly exact: number;
  /** 1 when the question names specifics and the memory holds none of them. */
  readonly exactMiss: number;
  /** 1 when the question wants a time or a number and the memory holds no digit and no such word. */
  readonly kindMiss: number;
  /** 0 up to BREADTH_WORDS content words, 1 from twice that on (log-scaled between). */
  readonly breadth: number;
}

/** Content words (stop words out) of about a long paragraph: a memory up to this long is about one thing. */
export const BREADTH_WORDS = 64;

/** The breadth of a memory of `words` content words (Evidence.breadth), in [0, 1]. */
export const breadthOf = (words: number) => Math.min(1, Math.log2(Math.max(1, words / BREADTH_WORDS)));

/** A text longer than a long paragraph (its breadth above 0), by its own words (no tags or people). */
export const longerThanAParagraph = (text: string) => breadthOf(textStems(text).length) > 0;

function holdsKind(wants: Question['wants'], docStems: readonly string[]): boolean {
  if (wants === null) return true;
  const words = wants === 'time' ? TIME_WORDS : NUMBER_WORDS;
  return docStems.some((s) => /\p{N}/u.test(s) || words.has(s));
}

/** `docStems`: the memory's content, tags and people, by stem (documentStems in bm25.ts). */
export function evidenceOf(q: Question, docStems: readonly string[]): Evidence {
  const present = new Set(docStems);
  const share = (xs: readonly string[]) => (xs.length === 0 ? 0 : xs.filter((s) => present.has(s)).length / xs.length);
  const exact = share(q.specifics);
  return {
    coverage: q.plain.length > 0 ? share(q.plain) : exact,
    exact,
    exactMiss: q.specifics.length > 0 && exact === 0 ? 1 : 0,
    kindMiss: holdsKind(q.wants, docStems) ? 0 : 1,
    breadth: breadthOf(docStems.length),
  };
}

/** The stems of a text's words, stop words kept out (for tests and callers without a memory record). */
export function textStems(text: string): string[] {
  return tokenize(text)
    .filter((t) => !QUERY_STOP_WORDS.has(t))
    .map(stem);
}
