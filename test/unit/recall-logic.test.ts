import { describe, expect, it } from 'vitest';
import {
  ALL_SIGNALS,
  DEFAULT_WEIGHTS,
  FUSED_CALIBRATION,
  LruMap,
  LEXICAL_CALIBRATION,
  StoreVectors,
  coverage,
  searchTerms,
  frameLine,
  luceneQuery,
  namesPerson,
  pack,
  queryTerms,
  rank,
  stem,
  withIrregularForms,
  estimateTokens,
  confidenceOf,
  directFeatures,
  evidenceOf,
  questionOf,
  textStems,
  type Candidate,
} from '../../src/contexts/recall/index.js';
import type { MemoryRecord, Tier } from '../../src/domain/index.js';

const memory = (id: string, extra: Partial<MemoryRecord> = {}): MemoryRecord => ({
  id,
  store: 's',
  content: `memory ${id}`,
  tier: 'LONG_TERM',
  claimed: false,
  tags: [],
  people: [],
  emotions: [],
  metadata: null,
  occurredAt: 1000,
  createdAt: 1000,
  lastAccessedAt: null,
  accessCount: 0,
  sessionId: null,
  claimedAt: null,
  tierChangedAt: null,
  salience: null,
  salienceAt: null,
  usefulness: 0,
  ...extra,
});
const candidate = (
  id: string,
  coverage: number,
  extra: Partial<Candidate> = {},
  tier: Tier = 'LONG_TERM',
): Candidate => ({
  memory: memory(id, { tier }),
  textScore: coverage,
  coverage,
  exact: 0,
  exactMiss: 0,
  personMatch: 0,
  dateMatch: 0,
  similarity: null,
  activation: 0,
  via: null,
  path: [],
  salience: 0.5,
  usefulness: 0,
  ...extra,
});

describe('query text', () => {
  it('keeps the words that carry meaning', () => {
    expect(queryTerms('When did Caroline go to the LGBTQ support group?')).toEqual([
      'caroline',
      'go',
      'lgbtq',
      'support',
      'group',
    ]);
    expect(queryTerms("What's Melanie's favourite book, and why?")).toEqual(['melanie', 'favourite', 'book']);
  });

  it('builds a Lucene query scoped to the store key without scoring it', () => {
    expect(luceneQuery(['trip', 'lisbon'], 'kabc')).toBe(
      '+storeKey:kabc^0 +(content:(trip lisbon) tags:(trip lisbon) people:(trip lisbon))',
    );
  });

  it(
    'leaves terms in more than a share of the store and the candidate limit out of the full-text search, ' +
      'unless all are that common',
    () => {
      const df: Record<string, number> = { carolin: 600, kid: 30, adopt: 260 }; // by stem
      const stats = { documents: 1000, totalLength: 10000, documentFrequency: (s: string) => df[s] ?? 0 };
      expect(searchTerms(['caroline', 'kids', 'adoption'], stats, 0.25, 60)).toEqual(['kids']);
      expect(searchTerms(['caroline', 'kids', 'adopt'], stats, 0.3, 60)).toEqual(['kids', 'adopt']);
      // fewer matches than the limit
      expect(searchTerms(['caroline', 'kids', 'adopt'], stats, 0.25, 300)).toEqual(['kids', 'adopt']);
      expect(searchTerms(['caroline'], stats, 0.25, 60)).toEqual(['caroline']);
      expect(searchTerms(['caroline', 'kids'], stats, 1, 60)).toEqual(['caroline', 'kids']);
    },
  );

  it('joins irregular forms to their base in stems, and searches them in the full-text query', () => {
    expect(stem('drew')).toBe(stem('drawing'));
    expect(stem('went')).toBe(stem('going'));
    expect(stem('children')).toBe(stem('child'));
    expect(stem('rose')).not.toBe(stem('rise')); // a flower too: left alone
    expect(withIrregularForms(['drawing', 'garden'])).toEqual(['drawing', 'garden', 'draw', 'drew', 'drawn']);
    expect(withIrregularForms(['went'])).toEqual(['went', 'go', 'gone']);
  });

  it('tells whether a memory involves a person the question names, by any word of the name', () => {
    const words = new Set(['caroline', 'research']);
    expect(namesPerson(words, ['Caroline'])).toBe(true);
    expect(namesPerson(words, ['Melanie', 'Caroline Jones'])).toBe(true);
    expect(namesPerson(words, ['Melanie'])).toBe(false);
    expect(namesPerson(words, [])).toBe(false);
    expect(namesPerson(new Set(['a']), ['A'])).toBe(false); // one-letter words never match
  });

  it('measures coverage on stems', () => {
    expect(coverage(['run', 'mountain'], 'We went running in the Mountains')).toBe(1);
    expect(coverage(['run', 'lisbon'], 'running late')).toBe(0.5);
    expect(coverage([], 'anything')).toBe(0);
  });
});

describe('evidence that means the same in every store', () => {
  it('splits a question into plain content words and the numbers and names it spells out', () => {
    // Put to the memory itself, the verbs of remembering and telling are not content words.
    expect(questionOf('what number did I ask you to remember?')).toEqual({ plain: ['number'], specifics: [] });
    expect(questionOf('What did I tell you about Ana?')).toEqual({ plain: [], specifics: ['ana'] });
    expect(questionOf('do you know where my keys are?').plain).toEqual(['kei']);
    // Not put to the memory ("you" absent): asking is what the question is about.
    expect(questionOf('what did Ana ask for at the party?')).toEqual({ plain: ['ask', 'parti'], specifics: ['ana'] });
    expect(questionOf('When did Caroline go to the LGBTQ support group?')).toEqual({
      plain: ['go', 'support', 'group'],
      specifics: ['carolin', 'lgbtq'],
    });
    expect(questionOf('Is the code 8231 or 4417, as Maria said?').specifics).toEqual(['8231', '4417', 'maria']);
    // a capital that starts a sentence is no name
    expect(questionOf('Pottery: when did she start?').specifics).toEqual([]);
  });

  it('measures coverage, exact matches and a missed specific', () => {
    const q = questionOf('When did Caroline go to the LGBTQ support group?');
    expect(evidenceOf(q, textStems('Caroline: I went to the LGBTQ support group yesterday'))).toEqual({
      coverage: 1,
      exact: 1,
      exactMiss: 0,
    });
    expect(evidenceOf(q, textStems('Melanie: the group met on Sunday'))).toEqual({
      coverage: 1 / 3,
      exact: 0,
      exactMiss: 1,
    });
    expect(evidenceOf(questionOf('what number did I ask you to remember?'), textStems('the number 8231'))).toEqual({
      coverage: 1,
      exact: 0,
      exactMiss: 0,
    });
    expect(evidenceOf(questionOf('And what about Maria?'), textStems('Maria moved to Porto'))).toMatchObject({
      coverage: 1,
      exact: 1,
    }); // names alone: coverage is their share
  });

  it(
    'gives a memory and question the same confidence whether the store holds it alone, 30 ' + 'others or 100k others',
    () => {
      const target = candidate('target', 2 / 3, { similarity: 0.86 });
      const alone = rank([target], DEFAULT_WEIGHTS, ALL_SIGNALS, true)[0]!.confidence;
      const noise = (n: number) =>
        Array.from({ length: n }, (_, i) =>
          candidate(`o${i}`, (i % 4) / 4, { similarity: 0.7 + ((i * 7919) % 200) / 1000 }),
        );
      for (const others of [noise(30), noise(100_000)]) {
        const hits = rank([...others, target], DEFAULT_WEIGHTS, ALL_SIGNALS, true);
        expect(hits.find((h) => h.memory.id === 'target')!.confidence).toBe(alone);
      }
    },
  );
});

describe('ranking', () => {
  it('orders by confidence, never by input order, with deterministic ties', () => {
    const hits = rank([candidate('b', 0.5), candidate('a', 0.5), candidate('c', 1), candidate('d', 0.75)]);
    expect(hits.map((h) => h.memory.id)).toEqual(['c', 'd', 'a', 'b']);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.confidence).toBeGreaterThanOrEqual(hits[i]!.confidence);
  });

  it('lets salience, usefulness and tier order only hits of equal confidence', () => {
    expect(rank([candidate('lt', 0.5), candidate('core', 0.5, {}, 'IDENTITY_CORE')])[0]?.memory.id).toBe('core');
    expect(rank([candidate('x', 0.5, { usefulness: -1 }), candidate('y', 0.5, { usefulness: 1 })])[0]?.memory.id).toBe(
      'y',
    );
    // a much more useful, salient, core memory never passes a more likely one
    const hits = rank([
      candidate('useful', 0.5, { usefulness: 1, salience: 1 }, 'IDENTITY_CORE'),
      candidate('likely', 0.75, { usefulness: -1, salience: 0 }),
    ]);
    expect(hits.map((h) => h.memory.id)).toEqual(['likely', 'useful']);
    expect(hits[0]!.confidence).toBeGreaterThan(hits[1]!.confidence);
  });

  it(
    'counts association no more than its seed: a memory reached by a strong CAUSAL link ranks below the ' +
      'match that led to it',
    () => {
      // The example: the direct match and the memory its CAUSAL link (strength 0.9) reaches.
      const direct = candidate('deploy-failed', 1, { similarity: 0.9, exact: 0 });
      const linked = candidate('log-rotation', 0, {
        similarity: 0.79,
        activation: 0.9,
        via: 'deploy-failed',
        path: ['CAUSAL'],
      });
      const hits = rank([linked, direct], DEFAULT_WEIGHTS, ALL_SIGNALS, true);
      expect(hits.map((h) => h.memory.id)).toEqual(['deploy-failed', 'log-rotation']);
      expect(hits[1]!.path).toEqual(['CAUSAL']);
      expect(hits[1]!.association).toBeCloseTo(0.9 * hits[0]!.relevance, 6);
      expect(hits[1]!.confidence).toBeLessThanOrEqual(hits[0]!.confidence);
      expect(hits[0]!.path).toEqual([]);
    },
  );

  it('bounds what association adds by the seed confidence however strong the model weighs it', () => {
    const f = directFeatures({ similarity: null, coverage: 0, exact: 0, exactMiss: 0, personMatch: 0, dateMatch: 0 });
    const c = { ...LEXICAL_CALIBRATION, association: 50 };
    expect(confidenceOf(f, 0.4, 0.4, c)).toBeCloseTo(0.4, 6);
    // Nothing reached the memory: a confident seed elsewhere changes nothing.
    expect(confidenceOf(f, 0, 0.9, c)).toBe(confidenceOf(f, 0, 0, c));
  });

  it(
    'raises confidence for a person or a date the question names as the calibration weighs them, ' +
      'unless the signal is off',
    () => {
      const weighed = { lexical: { ...LEXICAL_CALIBRATION, person: 0.5, date: 0.5 }, fused: FUSED_CALIBRATION };
      for (const [extra, off] of [
        [{ personMatch: 1 }, { people: false }],
        [{ dateMatch: 1 }, { dates: false }],
      ] as const) {
        const hits = rank(
          [candidate('other', 0.5), candidate('named', 0.5, extra)],
          undefined,
          ALL_SIGNALS,
          false,
          weighed,
        );
        expect(hits[0]?.memory.id).toBe('named');
        expect(hits[0]!.confidence).toBeGreaterThan(hits[1]!.confidence);
        const without = rank(
          [candidate('other', 0.5), candidate('named', 0.5, extra)],
          undefined,
          { ...ALL_SIGNALS, ...off },
          false,
          weighed,
        );
        expect(without[0]!.confidence).toBe(without[1]!.confidence);
      }
    },
  );

  it('never counts an exact name, a person, a date or an association against a memory in the committed models', () => {
    for (const c of [LEXICAL_CALIBRATION, FUSED_CALIBRATION])
      for (const w of [c.exact, c.person, c.date, c.association]) expect(w).toBeGreaterThanOrEqual(0);
  });

  it('admits a memory from a named date without any word or meaning in common, and drops one with no evidence', () => {
    expect(rank([candidate('dated', 0, { dateMatch: 1 })]).map((h) => h.memory.id)).toEqual(['dated']);
    expect(rank([candidate('dated', 0, { dateMatch: 1 })], undefined, { ...ALL_SIGNALS, dates: false })).toEqual([]);
    expect(rank([candidate('undated', 0)])).toEqual([]);
    expect(rank([candidate('unrelated', 0, { similarity: 0.7 })], DEFAULT_WEIGHTS, ALL_SIGNALS, true)).toEqual([]);
  });

  it('admits ARCHIVE only with enough confidence', () => {
    const hits = rank([
      candidate('best', 1),
      candidate('old-weak', 0.1, {}, 'ARCHIVE'),
      candidate('old-strong', 1, { exact: 1 }, 'ARCHIVE'),
    ]);
    expect(hits.map((h) => h.memory.id).sort()).toEqual(['best', 'old-strong']);
  });

  it('gives every hit a confidence in [0,1], to the hundredth, that grows with the match', () => {
    const hits = rank([candidate('strong', 1, { exact: 1 }), candidate('weak', 0.1)]);
    for (const h of hits) {
      expect(h.confidence).toBeGreaterThanOrEqual(0);
      expect(h.confidence).toBeLessThanOrEqual(1);
      expect(Math.round(h.confidence * 100)).toBeCloseTo(h.confidence * 100, 9);
    }
    expect(hits[0]!.confidence).toBeGreaterThan(hits[1]!.confidence);
  });
});

describe('meaning in confidence', () => {
  it('finds a paraphrase by meaning that shares no word with the query, and ranks it by its similarity', () => {
    const hits = rank(
      [
        candidate('weak-words', 0.25, { similarity: 0.75 }),
        candidate('paraphrase', 0, { similarity: 0.9 }),
        candidate('both', 1, { similarity: 0.88 }),
      ],
      DEFAULT_WEIGHTS,
      ALL_SIGNALS,
      true,
    );
    expect(hits.map((h) => h.memory.id)).toEqual(['both', 'paraphrase', 'weak-words']);
  });

  it('ignores similarity without a query vector and with the semantic signal off', () => {
    const lexical = rank(
      [candidate('words', 1, { similarity: 0.7 }), candidate('paraphrase', 0, { similarity: 0.9 })],
      DEFAULT_WEIGHTS,
      ALL_SIGNALS,
      false,
    );
    expect(lexical.map((h) => h.memory.id)).toEqual(['words']);
    expect(lexical[0]).toMatchObject({ similarity: null });
    const off = rank(
      [candidate('words', 1, { similarity: 0.7 }), candidate('paraphrase', 0, { similarity: 0.9 })],
      DEFAULT_WEIGHTS,
      { ...ALL_SIGNALS, semantic: false },
      true,
    );
    expect(off.map((h) => h.memory.id)).toEqual(['words']);
  });

  it('takes confidence from the fused model when the query has a vector, else from the lexical one', () => {
    const c = candidate('x', 1, { similarity: 0.95 });
    const fusedModel = { ...FUSED_CALIBRATION, similarity: 4 };
    const models = { lexical: LEXICAL_CALIBRATION, fused: fusedModel };
    const withVector = rank([c], DEFAULT_WEIGHTS, ALL_SIGNALS, true, models)[0]!;
    const without = rank([c], DEFAULT_WEIGHTS, ALL_SIGNALS, false, models)[0]!;
    expect(withVector.confidence).not.toBe(without.confidence);
    expect(
      rank([c], DEFAULT_WEIGHTS, ALL_SIGNALS, false, {
        lexical: LEXICAL_CALIBRATION,
        fused: { ...fusedModel, bias: 100 },
      })[0]!.confidence,
    ).toBe(without.confidence);
  });
});

describe('LruMap', () => {
  it('drops the least recently used past its limit; a read counts as a use, a peek does not', () => {
    const m = new LruMap<string, number>(2);
    m.set('a', 1).set('b', 2);
    expect(m.get('a')).toBe(1); // a is now the most recent
    m.set('c', 3); // drops b
    expect([m.peek('a'), m.peek('b'), m.peek('c')]).toEqual([1, undefined, 3]);
    m.peek('a'); // not a use: a stays the oldest
    m.set('d', 4);
    expect([m.peek('a'), m.peek('c'), m.peek('d'), m.size]).toEqual([undefined, 3, 4, 2]);
  });
});

describe('in-process vectors', () => {
  const unit = (...xs: number[]) => Float32Array.from(xs.map((x) => x / Math.hypot(...xs)));

  it('returns the k most similar by cosine, most similar first, ties by id', () => {
    const v = new StoreVectors(3, 1); // capacity 1: grows as rows come
    v.upsert('east', [1, 0, 0]);
    v.upsert('north', [0, 2, 0]); // normalised on the way in
    v.upsert('north-east', [1, 1, 0]);
    v.upsert('twin', [0, 1, 0]);
    const top = v.top(unit(0, 1, 0), 3);
    expect(top.map((t) => t.id)).toEqual(['north', 'twin', 'north-east']);
    expect(top[0]!.similarity).toBeCloseTo(1);
    expect(top[2]!.similarity).toBeCloseTo(Math.SQRT1_2);
    expect(v.similarity('east', unit(0, 1, 0))).toBeCloseTo(0);
    expect(v.similarity('absent', unit(0, 1, 0))).toBeNull();
  });

  it('replaces and removes rows, keeping the others intact', () => {
    const v = new StoreVectors(2);
    v.upsert('a', [1, 0]);
    v.upsert('b', [0, 1]);
    v.upsert('c', [-1, 0]);
    v.upsert('a', [0, -1]);
    v.remove('a');
    v.remove('missing');
    expect(v.size).toBe(2);
    expect(v.top(unit(-1, 0), 5).map((t) => t.id)).toEqual(['c', 'b']);
    expect(v.similarity('c', unit(-1, 0))).toBeCloseTo(1);
    v.upsert('wrong', [1, 2, 3]); // wrong dimension: ignored
    expect(v.has('wrong')).toBe(false);
  });

  it('agrees with a full sort on random data', () => {
    const v = new StoreVectors(8);
    const rows: [string, number[]][] = [];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5;
    for (let i = 0; i < 300; i++) rows.push([`m${String(i).padStart(3, '0')}`, Array.from({ length: 8 }, rnd)]);
    rows.forEach(([id, x]) => v.upsert(id, x));
    const q = unit(...Array.from({ length: 8 }, rnd));
    const cos = (x: number[]) => x.reduce((s, xi, i) => s + xi * q[i]!, 0) / Math.hypot(...x);
    const expected = rows
      .map(([id, x]) => ({ id, s: cos(x) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 10)
      .map((r) => r.id);
    expect(v.top(q, 10).map((t) => t.id)).toEqual(expected);
  });
});

describe('frame line', () => {
  it('says nothing plainly, weak plainly, and counts the sure ones', () => {
    expect(frameLine('lisbon', [])).toBe('Nothing remembered about "lisbon".');
    expect(frameLine('lisbon', [0.1, 0.2])).toMatch(/^Only weak matches for "lisbon": 2 memories, best confidence 20%/);
    expect(frameLine('lisbon', [0.4])).toMatch(/none certain/);
    expect(frameLine('lisbon', [0.9, 0.7, 0.2])).toMatch(
      /Recalled 3 memories .*; 2 with confidence of 60% or more \(best 90%\)/,
    );
  });
});

describe('context packing', () => {
  const hits = rank([candidate('a', 1, { exact: 1 }), candidate('b', 1), candidate('c', 0.2)]).map((h) => ({
    ...h,
    memory: { ...h.memory, content: 'x'.repeat(200), sessionId: h.memory.id === 'c' ? 'now' : null },
  }));

  it('writes the frame first and labels each memory as recalled, with its date', () => {
    const p = pack(hits, { query: 'q', sessionId: null, maxTokens: 1000, maxItems: 8, injectFloor: 0, liveFloor: 0 });
    const lines = p.text.split('\n');
    expect(lines[0]).toMatch(/^Recalled|^Only weak/);
    expect(lines.slice(1).every((l) => l.startsWith('[Recalled memory, 1970-01-01, confidence '))).toBe(true);
    expect(p.estimatedTokens).toBe(estimateTokens(p.text));
    expect(p.dropped).toBe(0);
  });

  it('drops what is below the floor, over the budget or over the count, and says how many', () => {
    const floor = hits[2]!.confidence + 0.001;
    const byFloor = pack(hits, {
      query: 'q',
      sessionId: null,
      maxTokens: 1000,
      maxItems: 8,
      injectFloor: floor,
      liveFloor: floor,
    });
    expect(byFloor.hits.map((h) => h.memory.id)).toEqual(['a', 'b']);
    expect(byFloor.dropped).toBe(1);
    const live = pack(hits, {
      query: 'q',
      sessionId: 'now',
      maxTokens: 1000,
      maxItems: 8,
      injectFloor: floor,
      liveFloor: 0,
    });
    expect(live.hits.map((h) => h.memory.id)).toEqual(['a', 'b', 'c']);
    const byCount = pack(hits, {
      query: 'q',
      sessionId: null,
      maxTokens: 1000,
      maxItems: 1,
      injectFloor: 0,
      liveFloor: 0,
    });
    expect(byCount.hits).toHaveLength(1);
    expect(byCount.text).toMatch(/2 more fell below the floor or budget/);
    const byBudget = pack(hits, {
      query: 'q',
      sessionId: null,
      maxTokens: 120,
      maxItems: 8,
      injectFloor: 0,
      liveFloor: 0,
    });
    expect(byBudget.hits).toHaveLength(1);
    expect(byBudget.estimatedTokens).toBeLessThanOrEqual(120);
  });
});

describe('consolidation does not crowd recall', () => {
  it(
    'shows one of a consolidated memory and its originals, the likelier, and lists the ' + 'others in represents',
    async () => {
      const { collapseConsolidated } = await import('../../src/contexts/recall/index.js');
      const merged = candidate('merged', 0.75, {});
      const withMeta = {
        ...merged,
        memory: { ...merged.memory, metadata: { consolidatedFrom: ['o1', 'o2'], strategy: 'COMBINE' } },
      };
      const hits = rank([candidate('o1', 1, { exact: 1 }), withMeta, candidate('o2', 0.5), candidate('other', 0.6)]);
      expect(hits.map((h) => h.memory.id)).toEqual(['o1', 'merged', 'other', 'o2']);
      const shown = collapseConsolidated(hits);
      expect(shown.map((h) => [h.memory.id, h.represents])).toEqual([
        ['o1', ['merged', 'o2']],
        ['other', []],
      ]);
      // The consolidated memory is kept when it is the likelier one.
      const flipped = collapseConsolidated(rank([candidate('o1', 0.25), { ...withMeta, coverage: 1, exact: 1 }]));
      expect(flipped.map((h) => [h.memory.id, h.represents])).toEqual([['merged', ['o1']]]);
    },
  );

  it("keeps each original's session, time and metadata on the consolidated memory", async () => {
    const { consolidatedMetadata } = await import('../../src/contexts/hippocampus/index.js');
    const a = memory('a', { sessionId: 's1', occurredAt: Date.UTC(2026, 0, 2), metadata: { dia_id: 'D1:2' } });
    const b = memory('b', { sessionId: 's2', occurredAt: Date.UTC(2026, 0, 1), metadata: null });
    expect(consolidatedMetadata([a, b], 'COMBINE')).toEqual({
      consolidatedFrom: ['a', 'b'],
      strategy: 'COMBINE',
      originals: [
        { id: 'b', sessionId: 's2', occurredAt: '2026-01-01T00:00:00.000Z', metadata: null },
        { id: 'a', sessionId: 's1', occurredAt: '2026-01-02T00:00:00.000Z', metadata: { dia_id: 'D1:2' } },
      ],
    });
  });
});
