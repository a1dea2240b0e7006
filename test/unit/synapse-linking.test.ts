import { describe, expect, it } from 'vitest';
import { mechanicalStrength } from '../../src/contexts/synapse/index.js';
import {
  jaccard,
  planLinks,
  ruleScores,
  temporalScore,
  thematicScore,
  type Candidate,
  type Degrees,
  type LinkRules,
  type LinkSubject,
} from '../../src/contexts/synapse/testing.js';

const MIN = 60_000;
const rules: LinkRules = { temporalWindowMs: 30 * MIN, linksPerType: 3, maxDegree: 5, thematicThreshold: 0.2 };
const none: Degrees = { TEMPORAL: 0, THEMATIC: 0, PERSON: 0, EMOTIONAL: 0 };

const subject = (id: string, extra: Partial<LinkSubject> = {}): LinkSubject => ({
  id,
  sessionId: null,
  occurredAt: 0,
  people: [],
  emotions: [],
  degree: none,
  ...extra,
});
const candidate = (id: string, extra: Partial<Candidate> = {}): Candidate => ({
  id,
  sessionId: null,
  occurredAt: 0,
  createdAt: 0,
  people: [],
  emotions: [],
  textScore: null,
  degree: none,
  ...extra,
});

describe('rule scores', () => {
  it('jaccard over case-folded labels', () => {
    expect(jaccard(['Ana', 'Ben'], ['ana'])).toBeCloseTo(0.5);
    expect(jaccard(['Ana'], ['Ben'])).toBe(0);
    expect(jaccard([], [])).toBe(0);
  });

  it('thematic: the share of the memory’s own BM25 score, at most 1', () => {
    expect(thematicScore(2, 8)).toBeCloseTo(0.25);
    expect(thematicScore(9, 8)).toBe(1);
    expect(thematicScore(1, 0)).toBe(0);
  });

  it('temporal: 1 at the same moment, 0 at the window edge, either side', () => {
    expect(temporalScore(0, 30 * MIN)).toBe(1);
    expect(temporalScore(-15 * MIN, 30 * MIN)).toBeCloseTo(0.5);
    expect(temporalScore(45 * MIN, 30 * MIN)).toBe(0);
  });

  it('TEMPORAL only within one session and the window', () => {
    const s = subject('m', { sessionId: 's1' });
    expect(ruleScores(s, candidate('c', { sessionId: 's1', occurredAt: 10 * MIN }), null, rules).TEMPORAL).toBeCloseTo(
      2 / 3,
    );
    expect(ruleScores(s, candidate('c', { sessionId: 's2', occurredAt: 0 }), null, rules).TEMPORAL).toBeUndefined();
    expect(
      ruleScores(s, candidate('c', { sessionId: 's1', occurredAt: 31 * MIN }), null, rules).TEMPORAL,
    ).toBeUndefined();
    expect(ruleScores(subject('m'), candidate('c'), null, rules).TEMPORAL).toBeUndefined(); // no session: no TEMPORAL
  });

  it('THEMATIC only at or above the threshold', () => {
    expect(ruleScores(subject('m'), candidate('c', { textScore: 3 }), 10, rules).THEMATIC).toBeCloseTo(0.3);
    expect(ruleScores(subject('m'), candidate('c', { textScore: 1 }), 10, rules).THEMATIC).toBeUndefined();
  });

  it('PERSON and EMOTIONAL through shared labels', () => {
    const scores = ruleScores(
      subject('m', { people: ['Ana'], emotions: ['joy', 'calm'] }),
      candidate('c', { people: ['ANA'], emotions: ['joy'] }),
      null,
      rules,
    );
    expect(scores.PERSON).toBe(1);
    expect(scores.EMOTIONAL).toBeCloseTo(0.5);
  });
});

describe('planLinks', () => {
  it('links canonically (lo < hi) with the mechanical strength of the score', () => {
    const links = planLinks(
      [
        {
          subject: subject('b', { people: ['Ana'] }),
          candidates: [candidate('a', { people: ['Ana'] })],
          selfScore: null,
        },
      ],
      rules,
    );
    expect(links).toEqual([{ lo: 'a', hi: 'b', type: 'PERSON', strength: mechanicalStrength(1) }]);
  });

  it('makes at most linksPerType links per memory and type, strongest first, then newest', () => {
    const candidates = ['c1', 'c2', 'c3', 'c4', 'c5'].map((id, i) =>
      candidate(id, { people: i === 4 ? ['Ana'] : ['Ana', 'Ben'], createdAt: i }),
    );
    const links = planLinks([{ subject: subject('m', { people: ['Ana'] }), candidates, selfScore: null }], rules);
    // c5 shares all (score 1); among the rest (score 0.5) the newest win.
    expect(links.map((l) => l.lo)).toEqual(['c5', 'c4', 'c3']);
  });

  it('skips candidates at the degree cap, so a common label does not fan out', () => {
    const full: Degrees = { ...none, PERSON: rules.maxDegree };
    const candidates = [
      candidate('hub', { people: ['Ana'], degree: full, createdAt: 9 }),
      candidate('quiet', { people: ['Ana'] }),
    ];
    const links = planLinks([{ subject: subject('m', { people: ['Ana'] }), candidates, selfScore: null }], rules);
    expect(links.map((l) => l.lo)).toEqual(['m']);
    expect(links[0]?.hi).toBe('quiet');
  });

  it('counts links planned earlier in the batch toward the cap', () => {
    // Twenty memories share a person with one old memory: it takes maxDegree of them, no more.
    const batch = Array.from({ length: 20 }, (_, i) => ({
      subject: subject(`m${String(i).padStart(2, '0')}`, { people: ['Ana'] }),
      candidates: [candidate('old', { people: ['Ana'] })],
      selfScore: null,
    }));
    const links = planLinks(batch, rules);
    expect(links.filter((l) => l.lo === 'old' || l.hi === 'old')).toHaveLength(rules.maxDegree);
  });

  it('makes one link of a pair that each side of the batch found', () => {
    const a = subject('a', { emotions: ['joy'] });
    const b = subject('b', { emotions: ['joy'] });
    const links = planLinks(
      [
        { subject: a, candidates: [candidate('b', { emotions: ['joy'] })], selfScore: null },
        { subject: b, candidates: [candidate('a', { emotions: ['joy'] })], selfScore: null },
      ],
      rules,
    );
    expect(links).toEqual([{ lo: 'a', hi: 'b', type: 'EMOTIONAL', strength: mechanicalStrength(1) }]);
  });

  it('counts pending links (planned earlier, not yet written): no second copy, and toward the cap', () => {
    const pending = [
      { lo: 'a', hi: 'new', type: 'PERSON' as const, strength: 0.5 },
      ...Array.from({ length: rules.maxDegree - 1 }, (_, i) => ({
        lo: 'full',
        hi: `x${i}`,
        type: 'PERSON' as const,
        strength: 0.5,
      })),
    ];
    const links = planLinks(
      [
        {
          subject: subject('new', { people: ['Ana'] }),
          candidates: [
            candidate('a', { people: ['Ana'] }),
            candidate('full', { people: ['Ana'], degree: { ...none, PERSON: 1 } }),
          ],
          selfScore: null,
        },
      ],
      rules,
      pending,
    );
    // new–a is pending already; 'full' has 1 link in the database and 4 pending: at the cap of 5.
    expect(links).toEqual([]);
    expect(
      planLinks(
        [
          {
            subject: subject('new', { people: ['Ana'] }),
            candidates: [candidate('full', { people: ['Ana'] })],
            selfScore: null,
          },
        ],
        rules,
        pending,
      ),
    ).toHaveLength(1);
  });

  it('never links a memory to itself', () => {
    expect(
      planLinks(
        [
          {
            subject: subject('m', { people: ['Ana'] }),
            candidates: [candidate('m', { people: ['Ana'] })],
            selfScore: 1,
          },
        ],
        rules,
      ),
    ).toEqual([]);
  });
});
