import { describe, expect, it } from 'vitest';
import { CONTEXT_MAX_CHARS, embeddingText } from '../../src/contexts/hippocampus/testing.js';

describe('embeddingText', () => {
  it('is the content alone without a memory before it', () => {
    expect(embeddingText('Yes, last week!', null)).toBe('Yes, last week!');
    expect(embeddingText('Yes, last week!', '')).toBe('Yes, last week!');
  });

  it('puts a short memory before it first, whole', () => {
    expect(embeddingText('Yes, last week!', 'Did you go to Lisbon?')).toBe('Did you go to Lisbon?\nYes, last week!');
    const exact = 'b'.repeat(CONTEXT_MAX_CHARS);
    expect(embeddingText('Yes!', exact)).toBe(`${exact}\nYes!`);
  });

  it('keeps only the end of a long memory before it, from the start of a word', () => {
    const long = `${'We talked about pottery and glazes for a long time. '.repeat(10)}Did you go to Lisbon?`;
    const text = embeddingText('Yes!', long);
    const context = text.slice(0, text.indexOf('\n'));
    expect(context.startsWith('…')).toBe(true);
    expect(context.length - 1).toBeLessThanOrEqual(CONTEXT_MAX_CHARS);
    expect(context.length - 1).toBeGreaterThan(CONTEXT_MAX_CHARS - 20);
    // The kept part begins a word of the original: the character before it there is a space.
    const kept = context.slice(1);
    expect(long.endsWith(kept)).toBe(true);
    expect(long[long.length - kept.length - 1]).toBe(' ');
    expect(text.endsWith('Did you go to Lisbon?\nYes!')).toBe(true);
  });

  it('keeps the end of one unbroken word longer than the limit', () => {
    const word = 'x'.repeat(CONTEXT_MAX_CHARS * 2);
    expect(embeddingText('Yes!', word)).toBe(`…${'x'.repeat(CONTEXT_MAX_CHARS)}\nYes!`);
  });
});
