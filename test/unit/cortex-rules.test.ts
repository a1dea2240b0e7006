/** Cortex's session rules and the live feed, without a database. */
import { describe, expect, it } from 'vitest';
import {
  AsyncFeed,
  checkOwnInstance,
  initialMode,
  recallActivityEveryMs,
  optionalText,
  requireName,
  requireText,
  validateSessionId,
  validateState,
  visibleTo,
} from '../../src/contexts/cortex/testing.js';

describe('session rules', () => {
  it('starts in TASK mode with a task, else in CONVERSATION', () => {
    expect(initialMode('ship it')).toBe('TASK');
    expect(initialMode(null)).toBe('CONVERSATION');
  });

  it('keeps client session ids to a safe alphabet', () => {
    expect(validateSessionId(' ses-1.a_b ')).toBe('ses-1.a_b');
    for (const bad of ['', 'a:b', 'a b', 'x'.repeat(201)]) expect(() => validateSessionId(bad)).toThrow(/session id/);
  });

  it('refuses a lone surrogate in texts, invisible characters in names, and state deeper than 20 levels', () => {
    const lone = 'half \uDE00';
    expect(() => optionalText(lone, 'task')).toThrow(expect.objectContaining({ code: 'CORTEX.INVALID_TEXT' }));
    expect(() => requireText(lone, 'text')).toThrow(expect.objectContaining({ code: 'CORTEX.INVALID_TEXT' }));
    for (const name of [lone, 'mi\u200Bnd', 'mind\u202E1', 'mi\u2028nd'])
      expect(() => requireName(name, 'instanceId')).toThrow(
        expect.objectContaining({ code: 'CORTEX.INVALID_INSTANCE_ID' }),
      );
    expect(optionalText(' zero\u200Bwidth 🍞 ', 'task')).toBe('zero\u200Bwidth 🍞');
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(() => validateState(deep)).toThrow(expect.objectContaining({ code: 'JSON_TOO_DEEP' }));
  });

  it('lets a caller that names itself act on and see only its own sessions (invariant 8)', () => {
    expect(() => checkOwnInstance(null, 'b')).not.toThrow();
    expect(() => checkOwnInstance('a', 'a')).not.toThrow();
    expect(() => checkOwnInstance('a', 'b')).toThrow(expect.objectContaining({ code: 'CORTEX.FOREIGN_INSTANCE' }));
    expect(visibleTo(null, { instanceId: 'b' })).toBe(true);
    expect(visibleTo('a', { instanceId: 'b' })).toBe(false);
  });
});

describe('AsyncFeed', () => {
  it('hands pushed values to the reader in order, each id once, and cleans up once', async () => {
    let cleaned = 0;
    const feed = new AsyncFeed<{ id: string }>(() => cleaned++);
    feed.push({ id: 'a' });
    const waiting = feed.next();
    feed.push({ id: 'a' });
    feed.push({ id: 'b' });
    expect(await waiting).toEqual({ value: { id: 'a' }, done: false });
    expect(await feed.next()).toEqual({ value: { id: 'b' }, done: false });
    const pending = feed.next();
    await feed.return();
    await feed.return();
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(cleaned).toBe(1);
    feed.push({ id: 'c' });
    expect(await feed.next()).toEqual({ value: undefined, done: true });
  });
});

describe('activity marked by a recall', () => {
  it('is marked at most once a minute, and more often when sessions time out sooner', () => {
    expect(recallActivityEveryMs(3_600_000)).toBe(60_000);
    expect(recallActivityEveryMs(60_000)).toBe(6_000);
  });
});
