import { describe, expect, it } from 'vitest';
import { coverage, frameLine, luceneQuery, pack, queryTerms, rank, estimateTokens, type Candidate } from '../../src/contexts/recall/index.js';
import type { MemoryRecord, Tier } from '../../src/domain/index.js';

const memory = (id: string, extra: Partial<MemoryRecord> = {}): MemoryRecord => ({
  id, store: 's', content: `memory ${id}`, tier: 'LONG_TERM', claimed: false, tags: [], people: [], emotions: [], metadata: null,
  occurredAt: 1000, createdAt: 1000, lastAccessedAt: null, accessCount: 0, sessionId: null, claimedAt: null, tierChangedAt: null,
  salience: null, salienceAt: null, usefulness: 0, ...extra,
});
const candidate = (id: string, textScore: number, extra: Partial<Candidate> = {}, tier: Tier = 'LONG_TERM'): Candidate => ({
  memory: memory(id, { tier }), textScore, coverage: 0.5, activation: 0, path: [], salience: 0.5, usefulness: 0, ...extra,
});

describe('query text', () => {
  it('keeps the words that carry meaning', () => {
    expect(queryTerms('When did Caroline go to the LGBTQ support group?')).toEqual(['caroline', 'go', 'lgbtq', 'support', 'group']);
    expect(queryTerms("What's Melanie's favourite book, and why?")).toEqual(['melanie', 'favourite', 'book']);
  });

  it('builds a Lucene query scoped to the store key without scoring it', () => {
    expect(luceneQuery(['trip', 'lisbon'], 'kabc')).toBe('+storeKey:kabc^0 +(content:(trip lisbon) tags:(trip lisbon) people:(trip lisbon))');
  });

  it('measures coverage on stems', () => {
    expect(coverage(['run', 'mountain'], 'We went running in the Mountains')).toBe(1);
    expect(coverage(['run', 'lisbon'], 'running late')).toBe(0.5);
    expect(coverage([], 'anything')).toBe(0);
  });
});

describe('ranking', () => {
  it('orders by combined score, never by input order, with deterministic ties', () => {
    const hits = rank([candidate('b', 1), candidate('a', 1), candidate('c', 3), candidate('d', 2)]);
    expect(hits.map((h) => h.memory.id)).toEqual(['c', 'd', 'a', 'b']);
    expect(hits[0]?.relevance).toBe(1);
  });

  it('lets association signal lift a weaker text match', () => {
    const hits = rank([candidate('text', 2), candidate('linked', 1.5, { activation: 1 })]);
    expect(hits[0]?.memory.id).toBe('linked');
    const noActivation = rank([candidate('text', 2), candidate('linked', 1.5, { activation: 1 })], undefined, { activation: false, salience: true, usefulness: true });
    expect(noActivation[0]?.memory.id).toBe('text');
  });

  it('admits ARCHIVE only with enough relevance or association signal', () => {
    const hits = rank([candidate('best', 10), candidate('old-weak', 1, {}, 'ARCHIVE'), candidate('old-strong', 9, {}, 'ARCHIVE'), candidate('old-linked', 0, { activation: 0.8 }, 'ARCHIVE')]);
    expect(hits.map((h) => h.memory.id).sort()).toEqual(['best', 'old-linked', 'old-strong']);
  });

  it('puts identity core before long term at equal relevance and uses usefulness', () => {
    expect(rank([candidate('lt', 1), candidate('core', 1, {}, 'IDENTITY_CORE')])[0]?.memory.id).toBe('core');
    expect(rank([candidate('x', 1, { usefulness: -1 }), candidate('y', 1, { usefulness: 1 })])[0]?.memory.id).toBe('y');
  });

  it('gives every hit a confidence in [0,1] that grows with the match', () => {
    const hits = rank([candidate('strong', 10, { coverage: 1 }), candidate('weak', 1, { coverage: 0.1 })]);
    for (const h of hits) expect(h.confidence).toBeGreaterThanOrEqual(0), expect(h.confidence).toBeLessThanOrEqual(1);
    expect(hits[0]!.confidence).toBeGreaterThan(hits[1]!.confidence);
  });
});

describe('frame line', () => {
  it('says nothing plainly, weak plainly, and counts the sure ones', () => {
    expect(frameLine('lisbon', [])).toBe('Nothing remembered about "lisbon".');
    expect(frameLine('lisbon', [0.1, 0.2])).toMatch(/^Only weak matches for "lisbon": 2 memories, best confidence 20%/);
    expect(frameLine('lisbon', [0.4])).toMatch(/none certain/);
    expect(frameLine('lisbon', [0.9, 0.7, 0.2])).toMatch(/Recalled 3 memories .*; 2 with confidence of 60% or more \(best 90%\)/);
  });
});

describe('context packing', () => {
  const hits = rank([
    candidate('a', 10, { coverage: 1 }),
    candidate('b', 9, { coverage: 1 }),
    candidate('c', 1, { coverage: 0 }),
  ]).map((h) => ({ ...h, memory: { ...h.memory, content: 'x'.repeat(200), sessionId: h.memory.id === 'c' ? 'now' : null } }));

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
    const byFloor = pack(hits, { query: 'q', sessionId: null, maxTokens: 1000, maxItems: 8, injectFloor: floor, liveFloor: floor });
    expect(byFloor.hits.map((h) => h.memory.id)).toEqual(['a', 'b']);
    expect(byFloor.dropped).toBe(1);
    const live = pack(hits, { query: 'q', sessionId: 'now', maxTokens: 1000, maxItems: 8, injectFloor: floor, liveFloor: 0 });
    expect(live.hits.map((h) => h.memory.id)).toEqual(['a', 'b', 'c']);
    const byCount = pack(hits, { query: 'q', sessionId: null, maxTokens: 1000, maxItems: 1, injectFloor: 0, liveFloor: 0 });
    expect(byCount.hits).toHaveLength(1);
    expect(byCount.text).toMatch(/2 more fell below the floor or budget/);
    const byBudget = pack(hits, { query: 'q', sessionId: null, maxTokens: 120, maxItems: 8, injectFloor: 0, liveFloor: 0 });
    expect(byBudget.hits).toHaveLength(1);
    expect(byBudget.estimatedTokens).toBeLessThanOrEqual(120);
  });
});
