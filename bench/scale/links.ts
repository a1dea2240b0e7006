/**
 * Associations for a store seeded in bulk. Synapse's own linking of every stored memory runs at a few hundred
 * memories a second here, so a million would take an hour or more before a single measurement; the seed plans
 * the links that linking would make for such memories instead, and writes them with Synapse's own statement
 * (cypher/synapse/merge-mechanical-links.cypher):
 * - TEMPORAL: the memory before it in its session;
 * - THEMATIC: the last memory made of the same turn (a near-copy: linking's meaning match);
 * - PERSON: the last memory of the batch that names one of its people;
 * - EMOTIONAL: the last memory of the batch with one of its emotions.
 */
import { readFileSync } from 'node:fs';

export interface Seeded {
  readonly id: string;
  readonly turn: string;
  readonly sessionId: string;
  readonly people: readonly string[];
  readonly emotions: readonly string[];
}

export interface PlannedLink {
  readonly lo: string;
  readonly hi: string;
  readonly type: 'TEMPORAL' | 'THEMATIC' | 'PERSON' | 'EMOTIONAL';
  readonly strength: number;
}

export const MERGE_LINKS = readFileSync(
  new URL('../../cypher/synapse/merge-mechanical-links.cypher', import.meta.url),
  'utf8',
);

export class LinkPlanner {
  /** The last memory of each turn, across batches. */
  private readonly lastOfTurn = new Map<string, string>();
  private lastInSession: { sessionId: string; id: string } | null = null;

  plan(batch: readonly Seeded[]): PlannedLink[] {
    const links: PlannedLink[] = [];
    const lastOfPerson = new Map<string, string>();
    const lastOfEmotion = new Map<string, string>();
    const link = (a: string | undefined, b: string, type: PlannedLink['type'], strength: number) => {
      if (a && a !== b) links.push(a < b ? { lo: a, hi: b, type, strength } : { lo: b, hi: a, type, strength });
    };
    for (const m of batch) {
      if (this.lastInSession?.sessionId === m.sessionId) link(this.lastInSession.id, m.id, 'TEMPORAL', 0.6);
      link(this.lastOfTurn.get(m.turn), m.id, 'THEMATIC', 0.85);
      const person = m.people.find((p) => lastOfPerson.has(p));
      if (person) link(lastOfPerson.get(person), m.id, 'PERSON', 0.4);
      const emotion = m.emotions.find((e) => lastOfEmotion.has(e));
      if (emotion) link(lastOfEmotion.get(emotion), m.id, 'EMOTIONAL', 0.3);
      this.lastInSession = { sessionId: m.sessionId, id: m.id };
      this.lastOfTurn.set(m.turn, m.id);
      for (const p of m.people) lastOfPerson.set(p, m.id);
      for (const e of m.emotions) lastOfEmotion.set(e, m.id);
    }
    return links;
  }
}
