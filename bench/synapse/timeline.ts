// The synthetic timeline the bench stores: memories one a minute in sessions, with Zipf-distributed words.
import { syntheticMemories } from '../corpus.js';
import { rng, zipfPick } from '../lib.js';

/**
 * Content with a natural term distribution: bench/corpus.ts draws its sentences
 * from about a hundred words, so every keyword query would match most of the
 * store. Here words come Zipf-distributed from a 20,000-word vocabulary
 * (pseudo-words built from syllables), 8 to 20 per memory, after the person;
 * the hundred most frequent ranks are English stop words, as in real text.
 */
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'to',
  'sa',
  'vel',
  'dun',
  'pri',
  'os',
  'ta',
  'ber',
  'qui',
  'mon',
  'el',
  'zar',
  'fi',
  'gus',
  'ha',
  'nor',
];
const VOCABULARY = Array.from({ length: 20_000 }, (_, i) => {
  let word = '';
  for (let n = i + 400; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word;
});
const STOP = [
  'the',
  'and',
  'with',
  'for',
  'that',
  'this',
  'was',
  'from',
  'have',
  'but',
  'then',
  'after',
  'about',
  'into',
  'over',
];
const RANKS = VOCABULARY.map((_, i) => i);
const words = rng(5);
function sentence(person: string): string {
  const count = 8 + Math.floor(words() * 13);
  const word = () => {
    const rank = zipfPick(RANKS, words, 1.05);
    return rank < 100 ? (STOP[rank % STOP.length] as string) : (VOCABULARY[rank] as string);
  };
  return `${person} and I ${Array.from({ length: count }, word).join(' ')}.`;
}

export class Timeline {
  /** Memories made so far (set to the store's count when a kept store is reused). */
  made = 0;
  private batchSeed = 1;

  constructor(
    private readonly store: string,
    private readonly t0: number,
    private readonly sessionSize: number,
  ) {}

  /** The next memories of the store's timeline: one a minute, sessions of `sessionSize`. */
  next(count: number) {
    return syntheticMemories(count, this.batchSeed++).map((m) => {
      const i = this.made++;
      const content = sentence(m.people[0] ?? 'someone');
      return {
        ...m,
        content,
        store: this.store,
        occurredAt: this.t0 + i * 60_000,
        sessionId: `bench-session-${Math.floor(i / this.sessionSize)}`,
      };
    });
  }
}
