import { stemmer } from 'stemmer';
import { describe, expect, it } from 'vitest';
import {
  ALL_SIGNALS,
  DEFAULT_WEIGHTS,
  FUSED_CALIBRATION,
  LEXICAL_CALIBRATION,
  coverage,
  searchTerms,
  luceneQuery,
  tokenize,
  namesPerson,
  queryTerms,
  rank,
  stem,
  withIrregularForms,
  confidenceOf,
  directFeatures,
  answerWanted,
  breadthOf,
  BREADTH_WORDS,
  longerThanAParagraph,
  evidenceOf,
  questionOf,
  textStems,
  ScaledTermStats,
  StoreTermStats,
} from '../../src/contexts/recall/testing.js';
import { candidate } from './recall-fixtures.js';

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
    expect(luceneQuery(['trip', 'lisbon'], null)).toBe('content:(trip lisbon) tags:(trip lisbon) people:(trip lisbon)');
  });

  it('keeps a number, a version or an address one word, as the full-text index does', () => {
    expect(tokenize('Version 3.5, v2.1.0 and ip 10.0.3.7.')).toEqual([
      'version',
      '3.5',
      'v2.1.0',
      'and',
      'ip',
      '10.0.3.7',
    ]);
    // Thousands separators do not make another number; a comma that is not one stays.
    expect(tokenize('It cost $1,200; remember 8,231 and 8231. Then 3,5')).toEqual([
      'it',
      'cost',
      '1200',
      'remember',
      '8231',
      'and',
      '8231',
      'then',
      '3,5',
    ]);
    expect(queryTerms('what number did I ask you to remember, 8,231?')).toEqual(['number', 'ask', 'remember', '8231']);
    expect(questionOf('Is it 8,231 or 8231?').specifics).toEqual(['8231']);
  });

  it('asks the index for a number with and without thousands separators, which it keeps as written', () => {
    expect(luceneQuery(['code', '8231', '1234567.5', '3.5'], null)).toBe(
      'content:(code 8231 8,231 1234567.5 1,234,567.5 3.5) tags:(code 8231 8,231 1234567.5 1,234,567.5 3.5) ' +
        'people:(code 8231 8,231 1234567.5 1,234,567.5 3.5)',
    );
  });

  it('keeps a name with an apostrophe one word and drops possessives and contractions, as the index does', () => {
    expect(tokenize("O'Brien's van isn't D’Angelo's; we'll see 'quoted' rock'n'roll")).toEqual([
      "o'brien",
      'van',
      'isn',
      "d'angelo",
      'we',
      'see',
      'quoted',
      "rock'n'roll",
    ]);
    expect(queryTerms("What's O'Brien's number? Don't you know?")).toEqual(["o'brien", 'number', 'know']);
    expect(questionOf("Is O'Brien's lease with Melanie's firm?").specifics).toEqual(["o'brien", 'melani']);
    expect(luceneQuery(["o'brien", 'lease'], null)).toBe(
      "content:(o'brien o’brien lease) tags:(o'brien o’brien lease) people:(o'brien o’brien lease)",
    );
    expect(coverage(["o'brien"], 'Call Mr. O’Brien on Friday.')).toBe(1);
  });

  it('reads Chinese and Japanese without spaces one character a word, as the index does', () => {
    expect(tokenize('我喜欢吃苹果')).toEqual(['我', '喜', '欢', '吃', '苹', '果']);
    expect(queryTerms('苹果')).toEqual(['苹', '果']);
    expect(questionOf('苹果').plain).toEqual(['苹', '果']);
    expect(coverage(['苹', '果'].map(stem), '我喜欢吃苹果')).toBe(1);
    expect(tokenize('カタカナ 한국어 ok')).toEqual(['カタカナ', '한국어', 'ok']);
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

  it('scales the statistics of a store read in part to its size, and comes closer to the whole as it grows', () => {
    const part = new StoreTermStats();
    part.add(['fern', 'shade']);
    part.add(['soup']);
    const scaled = new ScaledTermStats(part, 10);
    expect(scaled.documents).toBe(10);
    expect(scaled.documentFrequency('fern')).toBe(5);
    expect(scaled.documentFrequency('kale')).toBe(0);
    expect(scaled.totalLength).toBe(15);
    part.add(['fern', 'soup']);
    part.add(['kale']);
    expect(scaled.documentFrequency('fern')).toBe(5); // 2 of 4, as 1 of 2 was
    expect(scaled.documentFrequency('kale')).toBe(2.5);
    // Read past the size it was given (memories stored meanwhile): the part as it is.
    for (let i = 0; i < 8; i++) part.add(['soup']);
    expect(scaled.documents).toBe(12);
    expect(scaled.documentFrequency('soup')).toBe(10);
  });

  it('stems a word the same way however often it is asked, past the number of stems it keeps', () => {
    const words = ['running', 'ponies', 'relational', 'drew', 'caresses', 'hopefulness'];
    const first = words.map(stem);
    expect(first).toEqual(['run', 'poni', 'relat', 'draw', 'caress', 'hope']);
    // More distinct words than are kept (50,000): the kept ones are dropped and stemmed again, the same.
    for (let i = 0; i < 60_000; i++) stem(`word${i}ing`);
    expect(stem('word59999ing')).toBe(stemmer('word59999ing'));
    expect(words.map(stem)).toEqual(first);
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
    expect(questionOf('what number did I ask you to remember?')).toEqual({
      plain: ['number'],
      specifics: [],
      wants: null,
    });
    expect(questionOf('What did I tell you about Ana?')).toEqual({ plain: [], specifics: ['ana'], wants: null });
    expect(questionOf('do you know where my keys are?').plain).toEqual(['kei']);
    // Asked by "I" or "we" of what they remember or know, or "tell me …": the same.
    expect(questionOf('what do I remember about Ana?')).toEqual({ plain: [], specifics: ['ana'], wants: null });
    expect(questionOf("what do I know about O'Brien?")).toEqual({ plain: [], specifics: ["o'brien"], wants: null });
    expect(questionOf('what should I know about the deploy?').plain).toEqual(['deploi']);
    expect(questionOf('did I mention Bob?')).toEqual({ plain: [], specifics: ['bob'], wants: null });
    expect(questionOf('what do we know about the deploy?').plain).toEqual(['deploi']);
    expect(questionOf('did I ever mention the museum?').plain).toEqual(['museum']);
    expect(questionOf('tell me about Ana').plain).toEqual([]);
    expect(questionOf('Remind me what Ana likes').plain).toEqual(['like']);
    expect(questionOf('recall Ana')).toEqual({ plain: [], specifics: ['ana'], wants: null });
    expect(questionOf('please, remember anything about the deploy?').plain).toEqual(['deploi']);
    expect(questionOf('can you tell me about Ana?').plain).toEqual([]);
    // An act of the asker's ("did I ask Bob?"), or "tell me" inside a question to someone else, is its topic.
    expect(questionOf('who should I ask about the export code?').plain).toEqual(['ask', 'export', 'code']);
    expect(questionOf('did I ask Bob?')).toEqual({ plain: ['ask'], specifics: ['bob'], wants: null });
    expect(questionOf('did I forget my keys?').plain).toEqual(['forget', 'kei']);
    expect(questionOf('what did we tell the investors?').plain).toEqual(['tell', 'investor']);
    expect(questionOf('what did Ana tell me?').plain).toEqual(['tell']);
    // Opening a note-like question, a verb of an act is its topic too ("Forgot password flow broken?").
    expect(questionOf('Forgot password flow broken again?').plain).toEqual(['forget', 'password', 'flow', 'break']);
    expect(questionOf('asked Bob about the lease?')).toEqual({
      plain: ['ask', 'leas'],
      specifics: ['bob'],
      wants: null,
    });
    expect(questionOf('told the landlord about the leak?').plain).toEqual(['tell', 'landlord', 'leak']);
    // Pronouns that stand for whatever answers are no topic, unless written as a name or quoted.
    expect(questionOf('anything about Ana?')).toEqual({ plain: [], specifics: ['ana'], wants: null });
    expect(questionOf('is there anyone at work with a food allergy?').plain).toEqual(['work', 'food', 'allergi']);
    expect(questionOf("what is the 'nothing' bug?").plain).toEqual(['noth', 'bug']);
    expect(questionOf('did anybody mention Nothing Phone?').specifics).toEqual(['noth', 'phone']);
    expect(questionOf('what did I give Ana for her birthday?').plain).toEqual(['give', 'birthdai']);
    expect(questionOf('what did Ana tell the landlord?').plain).toEqual(['tell', 'landlord']);
    // Not put to the memory ("you" absent): asking is what the question is about.
    expect(questionOf('what did Ana ask for at the party?')).toEqual({
      plain: ['ask', 'parti'],
      specifics: ['ana'],
      wants: null,
    });
    expect(questionOf('When did Caroline go to the LGBTQ support group?')).toEqual({
      plain: ['go', 'support', 'group'],
      specifics: ['carolin', 'lgbtq'],
      wants: 'time',
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
      kindMiss: 0,
      breadth: 0,
    });
    expect(evidenceOf(q, textStems('Melanie: the group met on Sunday'))).toEqual({
      coverage: 1 / 3,
      exact: 0,
      exactMiss: 1,
      kindMiss: 0,
      breadth: 0,
    });
    expect(evidenceOf(questionOf('what number did I ask you to remember?'), textStems('the number 8231'))).toEqual({
      coverage: 1,
      exact: 0,
      exactMiss: 0,
      kindMiss: 0,
      breadth: 0,
    });
    expect(evidenceOf(questionOf('And what about Maria?'), textStems('Maria moved to Porto'))).toMatchObject({
      coverage: 1,
      exact: 1,
    }); // names alone: coverage is their share
  });

  it('counts how much else a memory holds: nothing up to a long paragraph, all of it from twice that on', () => {
    expect(breadthOf(0)).toBe(0);
    expect(breadthOf(BREADTH_WORDS)).toBe(0);
    expect(breadthOf(BREADTH_WORDS * 1.5)).toBeCloseTo(Math.log2(1.5), 9);
    expect(breadthOf(BREADTH_WORDS * 2)).toBeCloseTo(1, 9);
    expect(breadthOf(BREADTH_WORDS * 100)).toBe(1);
    const q = questionOf('how many videos of the Python series have I finished?');
    const short = 'user: I have finished 12 videos of the Python series so far.';
    const plan = 'Here is a plan for learning Python, with a video series and exercises for each week. ';
    const long = `assistant: ${plan.repeat(20)}`;
    expect(evidenceOf(q, textStems(short)).breadth).toBe(0);
    expect(evidenceOf(q, textStems(long)).breadth).toBeCloseTo(breadthOf(textStems(long).length), 9);
    expect(evidenceOf(q, textStems(long)).breadth).toBe(1);
    expect(longerThanAParagraph(long)).toBe(true);
    expect(longerThanAParagraph(short)).toBe(false);
  });

  it('knows when a question wants a time or a number, and which memories hold none', () => {
    expect(answerWanted('When is the review with the vice president?')).toBe('time');
    expect(answerWanted('and what time is standup?')).toBe('time');
    expect(answerWanted('So how many engineers are on the infra team?')).toBe('number');
    expect(answerWanted('how often are backups made?')).toBe('number');
    expect(answerWanted('what did we change about the logs?')).toBeNull();
    expect(answerWanted('how should commit subjects be phrased?')).toBeNull();
    const when = questionOf('when is Tom’s birthday party?');
    expect(evidenceOf(when, textStems('Tom loves parties')).kindMiss).toBe(1);
    expect(evidenceOf(when, textStems('Tom’s party is next Saturday')).kindMiss).toBe(0);
    expect(evidenceOf(when, textStems('the party is on the 14th')).kindMiss).toBe(0);
    const supplement = questionOf('when should I take my supplement?');
    expect(evidenceOf(supplement, textStems('I take my supplement with breakfast')).kindMiss).toBe(0);
    expect(evidenceOf(supplement, textStems('my supplement is in the yellow bottle')).kindMiss).toBe(1);
    const howMany = questionOf('how many engineers are on the infra team?');
    expect(evidenceOf(howMany, textStems('the infra team hires engineers')).kindMiss).toBe(1);
    expect(evidenceOf(howMany, textStems('the infra team has twelve engineers')).kindMiss).toBe(0);
    expect(evidenceOf(questionOf('who fixed it?'), textStems('nobody fixed it')).kindMiss).toBe(0);
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
    const f = directFeatures({
      similarity: null,
      coverage: 0,
      exact: 0,
      exactMiss: 0,
      kindMiss: 0,
      breadth: 0,
      personMatch: 0,
      dateMatch: 0,
    });
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

  it('reads a memory with no vector yet by its words alone, as a search without the model would', () => {
    const words = { exact: 1, similarity: null };
    const lexical = rank([candidate('waiting', 0.5, words)])[0]!.confidence;
    const waiting = rank(
      [candidate('waiting', 0.5, { ...words, unembedded: true })],
      DEFAULT_WEIGHTS,
      ALL_SIGNALS,
      true,
    );
    expect(waiting[0]!.confidence).toBe(lexical);
    // Read by the fused model, its missing similarity would count as no closer than any memory to any question.
    const asIfFar = rank([candidate('waiting', 0.5, words)], DEFAULT_WEIGHTS, ALL_SIGNALS, true)[0]!.confidence;
    expect(asIfFar).toBeLessThan(lexical);
    // Memories that have their vector keep the fused model beside it.
    const near = candidate('embedded', 0.5, { exact: 1, similarity: 0.9 });
    const both = rank(
      [near, candidate('waiting', 0.5, { ...words, unembedded: true })],
      DEFAULT_WEIGHTS,
      ALL_SIGNALS,
      true,
    );
    const fused = rank([near], DEFAULT_WEIGHTS, ALL_SIGNALS, true)[0]!.confidence;
    expect(both.find((h) => h.memory.id === 'embedded')!.confidence).toBe(fused);
    expect(both.find((h) => h.memory.id === 'waiting')!.confidence).toBe(lexical);
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
