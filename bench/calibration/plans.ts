// The stores to build and the questions to ask of each: LoCoMo sub-stores, tiny stores, whole
// conversations, all of them in one, every everyday scenario, and the LongMemEval histories that
// bench:longmemeval does not ask about (long user and assistant turns, which LoCoMo and everyday lack).
import { randomUUID } from 'node:crypto';
import { loadScenarios } from '../everyday-data.js';
import type { Conversation } from '../locomo-data.js';
import { loadLongMemEval, neverFitted, sessionDate, turnContent } from '../longmemeval-data.js';

export interface Input {
  key: string;
  content: string;
  people: string[];
  tags: string[];
  occurredAt: string;
  sessionId: string | null;
}
export interface Asked {
  q: string;
  answers: string[];
  group?: string;
}
export interface Plan {
  store: string;
  source: 'locomo' | 'everyday' | 'longmemeval';
  group: string;
  split: 'dev' | 'heldout';
  kind: string;
  inputs: Input[];
  questions: Asked[];
}

export function planStores(conversations: readonly Conversation[], quick: boolean, random: () => number): Plan[] {
  const plans: Plan[] = [];
  const turnInput = (conv: Conversation, store: string, i: number): Input => {
    const { turn, at, session } = conv.turns[i]!;
    return {
      key: `${conv.name}/${turn.dia_id}`,
      content: `${turn.speaker}: ${turn.text}${turn.blip_caption ? ` [shares a photo: ${turn.blip_caption}]` : ''}`,
      people: [turn.speaker],
      tags: [],
      occurredAt: new Date(at).toISOString(),
      sessionId: `${store}:session-${session}`,
    };
  };
  const newStore = (label: string) => `calib-${label}-${randomUUID().slice(0, 8)}`;
  const shuffle = <T>(xs: readonly T[]) => {
    const a = [...xs];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [a[i], a[j]] = [a[j]!, a[i]!];
    }
    return a;
  };
  const OTHERS = quick ? [0, 30, 150, 600] : [0, 10, 30, 80, 150, 300, 600];
  const GROUP = quick ? 40 : 20;
  const TINY = quick ? 10 : 30;
  for (const conv of conversations) {
    const index = new Map(conv.turns.map((t, i) => [t.turn.dia_id, i]));
    const questions = conv.questions
      .filter((q) => q.category !== 5 && Array.isArray(q.evidence) && q.evidence.some((e) => index.has(e)))
      .map((q) => ({
        q: q.question,
        answers: q.evidence!.filter((e) => index.has(e)).map((e) => `${conv.name}/${e}`),
      }));
    const evidenceOf = (qs: Asked[]) => new Set(qs.flatMap((q) => q.answers.map((a) => index.get(a.split('/')[1]!)!)));
    // `unasked`: questions whose evidence the store was not built from, asked as well. Their answers are the
    // evidence turns that happen to be in the store (usually none): a mind's memory is often asked what it
    // does not hold, and a confidence fitted only on questions that always have an answer would not know it.
    const subStore = (qs: Asked[], others: number, kind: string, unasked: Asked[] = []) => {
      const store = newStore(conv.name);
      const evidence = evidenceOf(qs);
      const rest = shuffle(conv.turns.map((_, i) => i).filter((i) => !evidence.has(i))).slice(0, others);
      const turns = [...evidence, ...rest].sort((a, b) => a - b);
      const held = new Set(turns.map((i) => `${conv.name}/${conv.turns[i]!.turn.dia_id}`));
      plans.push({
        store,
        source: 'locomo',
        group: conv.name,
        split: 'dev',
        kind,
        inputs: turns.map((i) => turnInput(conv, store, i)),
        questions: [...qs, ...unasked.map((q) => ({ ...q, answers: q.answers.filter((a) => held.has(a)) }))],
      });
    };
    // About one question in four that the store was not built to answer, as in the everyday scenarios.
    const notFrom = (qs: Asked[], n: number) => shuffle(questions.filter((q) => !qs.includes(q))).slice(0, n);
    const order = shuffle(questions);
    for (let g = 0, n = 0; g < order.length; g += GROUP, n++) {
      const group = order.slice(g, g + GROUP);
      subStore(group, OTHERS[n % OTHERS.length]!, 'sub-store', notFrom(group, Math.round(group.length / 3)));
    }
    for (const [t, q] of shuffle(questions).slice(0, TINY).entries())
      subStore([q], Math.floor(random() * 9), 'tiny', t % 3 === 0 ? notFrom([q], 1) : []);
    const whole = newStore(conv.name);
    plans.push({
      store: whole,
      source: 'locomo',
      group: conv.name,
      split: 'dev',
      kind: 'conversation',
      inputs: conv.turns.map((_, i) => turnInput(conv, whole, i)),
      questions,
    });
  }
  if (!quick) {
    const all = newStore('all');
    plans.push({
      store: all,
      source: 'locomo',
      group: 'all',
      split: 'dev',
      kind: 'all conversations',
      inputs: conversations.flatMap((c) => c.turns.map((_, i) => turnInput(c, all, i))),
      questions: plans
        .filter((p) => p.kind === 'conversation')
        .flatMap((p) => p.questions.map((q) => ({ ...q, group: p.group }))),
    });
  }
  const scenarios = loadScenarios();
  const now = Date.now();
  for (const s of scenarios) {
    const store = newStore('everyday');
    plans.push({
      store,
      source: 'everyday',
      group: s.name,
      split: s.split,
      kind: 'everyday',
      inputs: s.memories.map((m) => ({
        key: `${s.name}/${m.key}`,
        content: m.content,
        people: m.people ?? [],
        tags: m.tags ?? [],
        occurredAt: new Date(now - (m.minutesAgo ?? 0) * 60_000).toISOString(),
        sessionId: null,
      })),
      questions: s.questions.map((q) => ({ q: q.q, answers: q.answer === null ? [] : [`${s.name}/${q.answer}`] })),
    });
  }
  if (!quick) plans.push(...longMemEvalPlans(newStore));
  return plans;
}

/** One store per LongMemEval history that bench:longmemeval does not ask about; its evidence turns answer. */
function longMemEvalPlans(newStore: (label: string) => string): Plan[] {
  const all = loadLongMemEval();
  const asked = neverFitted(all);
  return all
    .filter((item) => !asked.has(item))
    .map((item) => {
      const store = newStore('lme');
      const inputs: Input[] = [];
      const answers: string[] = [];
      item.haystack_sessions.forEach((session, s) =>
        session.forEach((turn, t) => {
          const key = `${item.question_id}/${s}/${t}`;
          if (turn.has_answer === true) answers.push(key);
          inputs.push({
            key,
            content: turnContent(turn),
            people: [],
            tags: [],
            occurredAt: sessionDate(item.haystack_dates[s]!),
            sessionId: `${store}:${item.haystack_session_ids[s]}`,
          });
        }),
      );
      return {
        store,
        source: 'longmemeval' as const,
        group: item.question_id,
        split: 'dev' as const,
        kind: 'history',
        inputs,
        questions: [{ q: item.question, answers }],
      };
    });
}
