import { describe, expect, it } from 'vitest';
import {
  checkTierChange,
  consolidate,
  validateBatch,
  validateNewMemory,
  validateReason,
  normaliseLabels,
} from '../../src/contexts/hippocampus/testing.js';
import { InvalidInputError, TIERS, type MemoryRecord } from '../../src/domain/index.js';

const limits = { defaultStore: 'default', maxContentBytes: 100, maxBatch: 3, embeddingDimensions: 4 };

const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidInputError) return error.code;
    throw error;
  }
  throw new Error('expected an InvalidInputError');
};

describe('tier rules (invariant 2)', () => {
  it('lets the mind move a memory anywhere, into and out of IDENTITY_CORE', () => {
    for (const from of TIERS) for (const to of TIERS) expect(checkTierChange(from, to, 'MIND').ok).toBe(true);
  });

  it('never lets salience promote into or demote out of IDENTITY_CORE', () => {
    for (const tier of TIERS) {
      expect(checkTierChange(tier, 'IDENTITY_CORE', 'SALIENCE').ok).toBe(false);
      expect(checkTierChange('IDENTITY_CORE', tier, 'SALIENCE').ok).toBe(false);
    }
  });

  it('lets salience move one step between the other tiers', () => {
    expect(checkTierChange('ACTIVE_CONTEXT', 'LONG_TERM', 'SALIENCE').ok).toBe(true);
    expect(checkTierChange('LONG_TERM', 'ARCHIVE', 'SALIENCE').ok).toBe(true);
    expect(checkTierChange('ARCHIVE', 'LONG_TERM', 'SALIENCE').ok).toBe(true);
    expect(checkTierChange('ACTIVE_CONTEXT', 'ARCHIVE', 'SALIENCE').ok).toBe(false);
    expect(checkTierChange('LONG_TERM', 'LONG_TERM', 'SALIENCE').ok).toBe(false);
  });
});

describe('store validation', () => {
  it('fills defaults and normalises labels', () => {
    const m = validateNewMemory({ content: 'hello', tags: [' a ', 'a', '', 'b'] }, limits, 1000);
    expect(m).toMatchObject({
      store: 'default',
      tier: 'LONG_TERM',
      tags: ['a', 'b'],
      occurredAt: 1000,
      metadata: null,
    });
    expect(m.id).toMatch(/^mem_/);
  });

  it('rejects empty, blank and oversized content', () => {
    expect(code(() => validateNewMemory({ content: '' }, limits, 0))).toBe('HIPPOCAMPUS.CONTENT_EMPTY');
    expect(code(() => validateNewMemory({ content: '   \n' }, limits, 0))).toBe('HIPPOCAMPUS.CONTENT_EMPTY');
    expect(code(() => validateNewMemory({ content: 'é'.repeat(51) }, limits, 0))).toBe('HIPPOCAMPUS.CONTENT_TOO_LARGE');
    expect(validateNewMemory({ content: 'é'.repeat(50) }, limits, 0).content).toHaveLength(50);
  });

  it('rejects an unknown tier and a wrong embedding size', () => {
    expect(code(() => validateNewMemory({ content: 'x', tier: 'FOREVER' }, limits, 0))).toBe(
      'HIPPOCAMPUS.UNKNOWN_TIER',
    );
    expect(code(() => validateNewMemory({ content: 'x', embedding: [1, 2] }, limits, 0))).toBe(
      'HIPPOCAMPUS.EMBEDDING_DIMENSION',
    );
    expect(code(() => validateNewMemory({ content: 'x', embedding: [1, 2, 3, NaN] }, limits, 0))).toBe(
      'HIPPOCAMPUS.EMBEDDING_NOT_FINITE',
    );
  });

  it('bounds a batch and refuses one id for two different memories', () => {
    expect(code(() => validateBatch([], limits, 0))).toBe('HIPPOCAMPUS.EMPTY_BATCH');
    expect(code(() => validateBatch(Array(4).fill({ content: 'x' }), limits, 0))).toBe('HIPPOCAMPUS.BATCH_TOO_LARGE');
    expect(
      code(() =>
        validateBatch(
          [
            { id: 'a', content: 'x' },
            { id: 'a', content: 'y' },
          ],
          limits,
          0,
        ),
      ),
    ).toBe('HIPPOCAMPUS.ID_CONFLICT');
    expect(
      validateBatch(
        [
          { id: 'a', content: 'x' },
          { id: 'a', content: 'x' },
        ],
        limits,
        0,
      ),
    ).toHaveLength(1);
  });

  it('names the failing index of a batch', () => {
    expect(() => validateBatch([{ content: 'ok' }, { content: '' }], limits, 0)).toThrow(/memory 1/);
  });

  it('refuses control characters in names, ids, labels and session ids', () => {
    expect(code(() => validateNewMemory({ content: 'x', store: 'a\nb' }, limits, 0))).toBe('HIPPOCAMPUS.INVALID_STORE');
    expect(code(() => validateNewMemory({ content: 'x', id: 'm\u0000' }, limits, 0))).toBe('HIPPOCAMPUS.INVALID_ID');
    expect(code(() => validateNewMemory({ content: 'x', tags: ['a\tb'] }, limits, 0))).toBe(
      'HIPPOCAMPUS.INVALID_LABEL',
    );
    expect(code(() => validateNewMemory({ content: 'x', people: ['Ana\u0007'] }, limits, 0))).toBe(
      'HIPPOCAMPUS.INVALID_LABEL',
    );
    expect(code(() => validateNewMemory({ content: 'x', sessionId: 's\r1' }, limits, 0))).toBe(
      'HIPPOCAMPUS.INVALID_SESSION_ID',
    );
    expect(code(() => validateNewMemory({ content: 'x', sessionId: 's'.repeat(201) }, limits, 0))).toBe(
      'HIPPOCAMPUS.INVALID_SESSION_ID',
    );
    // Around a name, whitespace is trimmed; inside one, other characters (even emoji or a slash) are names people
    // choose.
    expect(
      validateNewMemory(
        { content: 'line one\nline two', store: ' a/b 🍞 ', tags: [' x y '], sessionId: ' ses 1\n' },
        limits,
        0,
      ),
    ).toMatchObject({
      content: 'line one\nline two',
      store: 'a/b 🍞',
      tags: ['x y'],
      sessionId: 'ses 1',
    });
    expect(validateNewMemory({ content: 'x', sessionId: '  ' }, limits, 0).sessionId).toBeNull();
  });

  it('requires a reason and caps labels', () => {
    expect(code(() => validateReason('  '))).toBe('HIPPOCAMPUS.REASON_REQUIRED');
    expect(
      code(() =>
        normaliseLabels(
          Array.from({ length: 65 }, (_, i) => `t${i}`),
          'tags',
        ),
      ),
    ).toBe('HIPPOCAMPUS.TOO_MANY_LABELS');
  });
});

describe('consolidation', () => {
  const memory = (
    id: string,
    content: string,
    occurredAt: number,
    extra: Partial<MemoryRecord> = {},
  ): MemoryRecord => ({
    id,
    store: 's',
    content,
    tier: 'LONG_TERM',
    claimed: false,
    tags: [],
    people: [],
    emotions: [],
    metadata: null,
    occurredAt,
    createdAt: occurredAt,
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
  const a = memory('a', 'first', 1, { tags: ['x'], tier: 'ARCHIVE' });
  const b = memory('b', 'second', 2, { tags: ['y', 'x'], claimed: true, tier: 'ACTIVE_CONTEXT' });

  it('COMBINE joins in time order and unions labels', () => {
    const c = consolidate([b, a], 'COMBINE', null);
    expect(c.content).toBe('first\n\nsecond');
    expect(c.tags).toEqual(['x', 'y']);
    expect(c).toMatchObject({ tier: 'ACTIVE_CONTEXT', claimed: true, occurredAt: 1 });
  });

  it('KEEP_NEWEST keeps the newest content and time', () => {
    expect(consolidate([a, b], 'KEEP_NEWEST', null)).toMatchObject({ content: 'second', occurredAt: 2 });
  });

  it('SUMMARIZE takes the caller text and requires it', () => {
    expect(consolidate([a, b], 'SUMMARIZE', 'both').content).toBe('both');
    expect(code(() => consolidate([a, b], 'SUMMARIZE', ' '))).toBe('HIPPOCAMPUS.SUMMARY_REQUIRED');
  });
});
