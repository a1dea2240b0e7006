/** Synthetic but realistic memories: everyday sentences, Zipf-distributed tags and people. */
import { rng, zipfPick } from './lib.js';

const PEOPLE = ['Ana', 'Ben', 'Caro', 'Dev', 'Eli', 'Farah', 'Gus', 'Hana', 'Ivo', 'Jun', 'Kai', 'Lena', 'Mo', 'Nia', 'Omar', 'Pia', 'Quinn', 'Rui', 'Sana', 'Tom', 'Uma', 'Vik', 'Wen', 'Xia', 'Yara', 'Zed'];
const TAGS = ['work', 'family', 'travel', 'health', 'music', 'cooking', 'reading', 'project', 'meeting', 'friends', 'garden', 'money', 'school', 'sport', 'art', 'weather', 'home', 'car', 'pets', 'film', 'code', 'design', 'review', 'release', 'bug', 'idea', 'plan', 'trip', 'birthday', 'doctor'];
const EMOTIONS = ['joy', 'calm', 'worry', 'pride', 'anger', 'sadness', 'surprise', 'gratitude'];
const VERBS = ['talked about', 'planned', 'finished', 'argued over', 'laughed at', 'remembered', 'cooked', 'fixed', 'visited', 'wrote about', 'read', 'practised'];
const OBJECTS = ['the garden', 'a new recipe', 'the release notes', 'the trip to Lisbon', 'the budget', 'a painting', 'the broken bike', 'the concert', 'the school project', 'the doctor visit', 'an old photo', 'the move', 'the marathon', 'a novel', 'the roof', 'the database migration'];
const WHEN = ['this morning', 'yesterday', 'last week', 'at dinner', 'after work', 'on the train', 'over coffee', 'late at night'];

export interface SyntheticMemory {
  content: string;
  tags: string[];
  people: string[];
  emotions: string[];
  occurredAt: string;
}

export function syntheticMemories(count: number, seed = 7, start = Date.parse('2025-01-01T00:00:00Z')): SyntheticMemory[] {
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
  return Array.from({ length: count }, (_, i) => {
    const person = zipfPick(PEOPLE, random);
    const tags = [...new Set([zipfPick(TAGS, random), zipfPick(TAGS, random)])];
    return {
      content: `${person} and I ${pick(VERBS)} ${pick(OBJECTS)} ${pick(WHEN)}; ${pick(VERBS)} ${pick(OBJECTS)} too (#${i}).`,
      tags,
      people: random() < 0.3 ? [person, zipfPick(PEOPLE, random)] : [person],
      emotions: random() < 0.5 ? [pick(EMOTIONS)] : [],
      occurredAt: new Date(start + i * 60_000).toISOString(),
    };
  });
}
