/**
 * Memories for benchmarks at scale. Two corpora:
 * - synthetic: template sentences over about a hundred content words, Zipf-distributed tags and
 *   people. Every query word is in a large share of the store: a worst case for full-text search.
 * - conversational: sentences of real conversations (LoCoMo, read at run time), recombined into
 *   as many memories as asked: natural vocabulary, lengths and word frequencies.
 */
import { rng, zipfPick } from './lib.js';
import type { Conversation } from './locomo-data.js';

const PEOPLE = [
  'Ana',
  'Ben',
  'Caro',
  'Dev',
  'Eli',
  'Farah',
  'Gus',
  'Hana',
  'Ivo',
  'Jun',
  'Kai',
  'Lena',
  'Mo',
  'Nia',
  'Omar',
  'Pia',
  'Quinn',
  'Rui',
  'Sana',
  'Tom',
  'Uma',
  'Vik',
  'Wen',
  'Xia',
  'Yara',
  'Zed',
];
const TAGS = [
  'work',
  'family',
  'travel',
  'health',
  'music',
  'cooking',
  'reading',
  'project',
  'meeting',
  'friends',
  'garden',
  'money',
  'school',
  'sport',
  'art',
  'weather',
  'home',
  'car',
  'pets',
  'film',
  'code',
  'design',
  'review',
  'release',
  'bug',
  'idea',
  'plan',
  'trip',
  'birthday',
  'doctor',
];
const EMOTIONS = ['joy', 'calm', 'worry', 'pride', 'anger', 'sadness', 'surprise', 'gratitude'];
const VERBS = [
  'talked about',
  'planned',
  'finished',
  'argued over',
  'laughed at',
  'remembered',
  'cooked',
  'fixed',
  'visited',
  'wrote about',
  'read',
  'practised',
];
const OBJECTS = [
  'the garden',
  'a new recipe',
  'the release notes',
  'the trip to Lisbon',
  'the budget',
  'a painting',
  'the broken bike',
  'the concert',
  'the school project',
  'the doctor visit',
  'an old photo',
  'the move',
  'the marathon',
  'a novel',
  'the roof',
  'the database migration',
];
const WHEN = [
  'this morning',
  'yesterday',
  'last week',
  'at dinner',
  'after work',
  'on the train',
  'over coffee',
  'late at night',
];

export interface SyntheticMemory {
  content: string;
  tags: string[];
  people: string[];
  emotions: string[];
  occurredAt: string;
}

export function syntheticMemories(
  count: number,
  seed = 7,
  start = Date.parse('2025-01-01T00:00:00Z'),
): SyntheticMemory[] {
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
  return Array.from({ length: count }, (_, i) => {
    const person = zipfPick(PEOPLE, random);
    const tags = [...new Set([zipfPick(TAGS, random), zipfPick(TAGS, random)])];
    return {
      content:
        `${person} and I ${pick(VERBS)} ${pick(OBJECTS)} ${pick(WHEN)}; ${pick(VERBS)} ` +
        `${pick(OBJECTS)} too (#${i}).`,
      tags,
      people: random() < 0.3 ? [person, zipfPick(PEOPLE, random)] : [person],
      emotions: random() < 0.5 ? [pick(EMOTIONS)] : [],
      occurredAt: new Date(start + i * 60_000).toISOString(),
    };
  });
}

/** A conversational memory before it is written out: its turn and, for four in ten, a sentence of another. */
export interface ConversationalParts extends Omit<SyntheticMemory, 'content'> {
  readonly turn: string;
  readonly extra: string | null;
}

/** The content a memory of these parts has: "speaker: text", then "(speaker: sentence)" when there is one. */
export const contentOf = (parts: ConversationalParts) => (parts.extra ? `${parts.turn} (${parts.extra})` : parts.turn);

/**
 * Memories made of real conversation turns: each is one turn ("speaker: text") and, for four in
 * ten, one sentence of another turn of the same conversation, so no two memories are copies.
 * Tags and emotions as in the synthetic corpus; one session per 50 memories.
 */
export function conversationalMemories(
  conversations: readonly Conversation[],
  count: number,
  seed = 7,
  start = Date.parse('2025-01-01T00:00:00Z'),
): SyntheticMemory[] {
  return conversationalParts(conversations, count, seed, start).map((parts) => {
    const { turn, extra, ...memory } = parts;
    return { ...memory, content: contentOf(parts) };
  });
}

/** The parts of conversationalMemories' memories (the same ones for the same arguments). */
export function conversationalParts(
  conversations: readonly Conversation[],
  count: number,
  seed = 7,
  start = Date.parse('2025-01-01T00:00:00Z'),
): ConversationalParts[] {
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
  const talks = conversations.filter((c) => c.turns.length > 0);
  if (talks.length === 0) throw new Error('no conversation turns to build memories from');
  return Array.from({ length: count }, (_, i) => {
    const { turns } = pick(talks);
    const { turn } = pick(turns);
    const people = new Set([turn.speaker]);
    let extra: string | null = null;
    if (random() < 0.4) {
      const other = pick(turns).turn;
      const sentences = sentencesOf(other.text);
      if (sentences.length > 0) {
        extra = `${other.speaker}: ${pick(sentences)}`;
        people.add(other.speaker);
      }
    }
    return {
      turn: `${turn.speaker}: ${turn.text}`,
      extra,
      tags: [...new Set([zipfPick(TAGS, random), zipfPick(TAGS, random)])],
      people: [...people],
      emotions: random() < 0.5 ? [pick(EMOTIONS)] : [],
      occurredAt: new Date(start + i * 60_000).toISOString(),
    };
  });
}

/** Every turn and every sentence conversationalParts can put in a memory, in the form it puts them. */
export function conversationalTexts(conversations: readonly Conversation[]): string[] {
  return conversations.flatMap((c) =>
    c.turns.flatMap(({ turn }) => [
      `${turn.speaker}: ${turn.text}`,
      ...sentencesOf(turn.text).map((s) => `${turn.speaker}: ${s}`),
    ]),
  );
}

const sentencesOf = (text: string) => text.split(/(?<=[.!?])\s+/).filter((x) => x.length > 0);

/** The conversations' own questions (adversarial ones left out): what a mind would ask of such a store. */
export function conversationalQuestions(conversations: readonly Conversation[]): string[] {
  return conversations.flatMap((c) =>
    c.questions.filter((q) => q.category !== 5 && typeof q.question === 'string').map((q) => q.question),
  );
}
