/** Group commit as a plain object: who goes at once, who gathers, and whose outcome each write gets. */
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/contexts/hippocampus/testing.js';

/** A commit function whose commits the test finishes by hand. */
function manualCommits() {
  const calls: {
    items: readonly number[];
    finish: (outcomes: readonly (string | Error)[]) => void;
    fail: (error: Error) => void;
  }[] = [];
  const commit = (items: readonly number[]) =>
    new Promise<readonly (string | Error)[]>((finish, fail) => {
      calls.push({ items, finish, fail });
    });
  return { calls, commit };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('GroupCommit', () => {
  it('starts a write at once while fewer than maxInFlight commits run', async () => {
    const { calls, commit } = manualCommits();
    const group = new GroupCommit(commit, { maxBatch: 10, maxInFlight: 2 });
    const a = group.submit(1);
    const b = group.submit(2);
    expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
    calls[0]!.finish(['one']);
    calls[1]!.finish(['two']);
    expect([await a, await b]).toEqual(['one', 'two']);
    expect(group.stats()).toEqual({ running: 0, gathered: 0 });
  });

  it(
    'gathers writes while every commit runs, and commits them together when one ' + 'finishes, maxBatch at a time',
    async () => {
      const { calls, commit } = manualCommits();
      const group = new GroupCommit(commit, { maxBatch: 3, maxInFlight: 1 });
      const first = group.submit(0);
      const later = [1, 2, 3, 4, 5].map((n) => group.submit(n));
      expect(calls).toHaveLength(1);
      expect(group.stats()).toEqual({ running: 1, gathered: 5 });
      calls[0]!.finish(['r0']);
      expect(await first).toBe('r0');
      await tick();
      expect(calls.map((c) => c.items)).toEqual([[0], [1, 2, 3]]);
      calls[1]!.finish(['r1', 'r2', 'r3']);
      await tick();
      expect(calls.map((c) => c.items)).toEqual([[0], [1, 2, 3], [4, 5]]);
      calls[2]!.finish(['r4', 'r5']);
      expect(await Promise.all(later)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    },
  );

  it('fails only the write whose outcome is an error', async () => {
    const { calls, commit } = manualCommits();
    const group = new GroupCommit(commit, { maxBatch: 10, maxInFlight: 1 });
    const first = group.submit(0);
    const [ok, conflict] = [group.submit(1), group.submit(2)];
    calls[0]!.finish(['r0']);
    await first;
    await tick();
    calls[1]!.finish(['r1', new Error('id taken')]);
    expect(await ok).toBe('r1');
    await expect(conflict).rejects.toThrow('id taken');
  });

  it('fails every write of a commit that throws, and goes on with the next', async () => {
    const { calls, commit } = manualCommits();
    const group = new GroupCommit(commit, { maxBatch: 10, maxInFlight: 1 });
    const first = group.submit(0);
    const next = group.submit(1);
    calls[0]!.fail(new Error('database gone'));
    await expect(first).rejects.toThrow('database gone');
    await tick();
    calls[1]!.finish(['r1']);
    expect(await next).toBe('r1');
  });

  it('fails a commit that gives a different number of outcomes than writes', async () => {
    const { calls, commit } = manualCommits();
    const group = new GroupCommit(commit, { maxBatch: 10, maxInFlight: 1 });
    const write = group.submit(0);
    calls[0]!.finish([]);
    await expect(write).rejects.toThrow('0 outcomes for 1 writes');
  });
});
