import { describe, expect, it } from 'vitest';
import {
  checkTierChange,
  consolidate,
  consolidatedMetadata,
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

  it('takes a time up to a day past its clock (clocks drift), not one further in the future', () => {
    const now = Date.UTC(2026, 11, 6);
    const day = 24 * 3600 * 1000;
    expect(validateNewMemory({ content: 'x', occurredAt: now + day }, limits, now).occurredAt).toBe(now + day);
    expect(validateNewMemory({ content: 'x', occurredAt: Date.UTC(1952, 0, 1) }, limits, now).occurredAt).toBe(
      Date.UTC(1952, 0, 1),
    );
    expect(code(() => validateNewMemory({ content: 'x', occurredAt: now + day + 1 }, limits, now))).toBe(
      'HIPPOCAMPUS.INVALID_TIME',
    );
    expect(code(() => validateNewMemory({ content: 'x', occurredAt: Date.UTC(9999, 0, 1) }, limits, now))).toBe(
      'HIPPOCAMPUS.INVALID_TIME',
    );
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
    ).toHaveLength(2);
  });

  it('refuses one id for two inputs that differ in anything, naming both indexes', () => {
    const error = (() => {
      try {
        validateBatch(
          [
            { id: 'b', content: 'other' },
            { id: 'a', content: 'x', tags: ['one'] },
            { id: 'a', content: 'x', tags: ['two'] },
          ],
          limits,
          0,
        );
      } catch (e) {
        return e as InvalidInputError;
      }
      throw new Error('expected an ID_CONFLICT');
    })();
    expect(error.code).toBe('HIPPOCAMPUS.ID_CONFLICT');
    expect(error.details).toMatchObject({ id: 'a', index: 2, firstIndex: 1 });
    expect(error.message).toMatch(/memories 1 and 2/);
    for (const change of [{ tier: 'ARCHIVE' }, { metadata: { k: 1 } }, { people: ['Ana'] }, { occurredAt: 5 }])
      expect(
        code(() =>
          validateBatch(
            [
              { id: 'a', content: 'x' },
              { id: 'a', content: 'x', ...change },
            ],
            limits,
            0,
          ),
        ),
      ).toBe('HIPPOCAMPUS.ID_CONFLICT');
  });

  it('keeps an exact repeat in a batch, so the memories line up with the inputs', () => {
    const memories = validateBatch(
      [{ id: 'a', content: 'x', tags: ['t'] }, { content: 'y' }, { id: 'a', content: 'x', tags: ['t'] }],
      limits,
      0,
    );
    expect(memories.map((m) => m.id)).toEqual(['a', expect.stringMatching(/^mem_/), 'a']);
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

  it('refuses a lone surrogate in any text (Neo4j would store U+FFFD) and invisible characters in names', () => {
    const lone = 'half \uD83D';
    const refused = (request: Parameters<typeof validateNewMemory>[0]) =>
      code(() => validateNewMemory(request, limits, 0));
    expect(refused({ content: lone })).toBe('HIPPOCAMPUS.INVALID_CONTENT');
    expect(refused({ content: 'x', store: lone })).toBe('HIPPOCAMPUS.INVALID_STORE');
    expect(refused({ content: 'x', id: 'm\uDC00' })).toBe('HIPPOCAMPUS.INVALID_ID');
    expect(refused({ content: 'x', emotions: [lone] })).toBe('HIPPOCAMPUS.INVALID_LABEL');
    expect(refused({ content: 'x', sessionId: lone })).toBe('HIPPOCAMPUS.INVALID_SESSION_ID');
    expect(code(() => validateReason(lone))).toBe('HIPPOCAMPUS.INVALID_REASON');
    for (const unseen of ['\u200B', '\u202E', '\uFEFF', '\u2028', '\u2029']) {
      expect(refused({ content: 'x', store: `a${unseen}b` })).toBe('HIPPOCAMPUS.INVALID_STORE');
      expect(refused({ content: 'x', id: `m${unseen}1` })).toBe('HIPPOCAMPUS.INVALID_ID');
      expect(refused({ content: 'x', sessionId: `s${unseen}1` })).toBe('HIPPOCAMPUS.INVALID_SESSION_ID');
    }
    // In content they are text someone wrote; a whole pair (an emoji) is well-formed anywhere.
    expect(validateNewMemory({ content: 'a\u200Bb\u2028c 🍞', id: 'id-🍞' }, limits, 0)).toMatchObject({
      content: 'a\u200Bb\u2028c 🍞',
      id: 'id-🍞',
    });
  });

  it('caps metadata as any JSON argument (depth first: thousands of levels must not overflow the stack)', () => {
    const nested = (levels: number) => {
      let value: unknown = 1;
      for (let i = 0; i < levels; i++) value = { d: value };
      return value;
    };
    const metadata = (value: unknown) => validateNewMemory({ content: 'x', metadata: value }, limits, 0).metadata;
    expect(code(() => metadata(nested(21)))).toBe('JSON_TOO_DEEP');
    expect(code(() => metadata(nested(100_000)))).toBe('JSON_TOO_DEEP');
    expect(code(() => metadata({ blob: 'x'.repeat(17 * 1024) }))).toBe('HIPPOCAMPUS.METADATA_TOO_LARGE');
    expect(metadata(nested(20))).toMatch(/^\{"d":/);
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

  it('keeps at most 64 of each label, those most originals share, in first-seen order', () => {
    const own = (prefix: string) => Array.from({ length: 40 }, (_, i) => `${prefix}${i}`);
    const first = memory('p', 'one', 1, { tags: [...own('p'), 'shared'], people: ['Ana'] });
    const second = memory('q', 'two', 2, { tags: ['shared', ...own('q')], people: ['Ana', 'Ben'] });
    const c = consolidate([second, first], 'COMBINE', null);
    expect(c.tags).toHaveLength(64);
    expect(c.tags.slice(0, 41)).toEqual([...own('p'), 'shared']);
    expect(c.tags.slice(41)).toEqual(own('q').slice(0, 23));
    expect(c.people).toEqual(['Ana', 'Ben']);
  });

  it("keeps the originals' own metadata on the consolidated memory only while it fits the metadata limit", () => {
    const big = (n: number) => ({ note: 'z'.repeat(n) });
    const older = memory('o', 'one', 1, { metadata: big(10_000) });
    const newer = memory('n', 'two', 2, { metadata: big(10_000) });
    const small = memory('s', 'three', 3, { metadata: { dia: 'D1:3' } });
    const bare = memory('b', 'four', 4);
    const kept = consolidatedMetadata([newer, older, small, bare], 'COMBINE');
    expect(Buffer.byteLength(JSON.stringify(kept))).toBeLessThanOrEqual(16 * 1024);
    expect(kept.consolidatedFrom).toEqual(['n', 'o', 's', 'b']);
    expect(kept.originals).toEqual([
      { id: 'o', sessionId: null, occurredAt: '1970-01-01T00:00:00.001Z', metadata: big(10_000) },
      // Too large to keep here as well: it stays on the original, which the consolidated memory links to.
      { id: 'n', sessionId: null, occurredAt: '1970-01-01T00:00:00.002Z', metadata: null, metadataOmitted: true },
      { id: 's', sessionId: null, occurredAt: '1970-01-01T00:00:00.003Z', metadata: { dia: 'D1:3' } },
      { id: 'b', sessionId: null, occurredAt: '1970-01-01T00:00:00.004Z', metadata: null },
    ]);
  });

  it('SUMMARIZE takes the caller text and requires it', () => {
    expect(consolidate([a, b], 'SUMMARIZE', 'both').content).toBe('both');
    expect(code(() => consolidate([a, b], 'SUMMARIZE', ' '))).toBe('HIPPOCAMPUS.SUMMARY_REQUIRED');
  });
});
