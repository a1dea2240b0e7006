import { describe, expect, it } from 'vitest';
import { CONTEXT_MAX_CHARS, embeddingText } from '../../src/contexts/hippocampus/testing.js';

describe('embeddingText', () => {
  it('is the content alone without a memory before it', () => {
    expect(embeddingText('Yes, last week!', null)).toBe('Yes, last week!');
    expect(embeddingText('Yes, last week!', '')).toBe('Yes, last week!');
  });

  it('puts the memory before it first, cut to its last CONTEXT_MAX_CHARS characters', () => {
    expect(embeddingText('Yes, last week!', 'Did you go to Lisbon?')).toBe('Did you go to Lisbon?\nYes, last week!');
    const long = `${'a'.repeat(CONTEXT_MAX_CHARS)}Did you go to Lisbon?`;
    const text = embeddingText('Yes!', long);
    expect(text).toBe(`…${long.slice(-CONTEXT_MAX_CHARS)}\nYes!`);
    expect(text.endsWith('Did you go to Lisbon?\nYes!')).toBe(true);
  });
});
