import { describe, expect, it } from 'vitest';
import { ProgressBoard, progressShare } from '../../src/domain/index.js';

describe('progress board', () => {
  it(
    'lists running operations first, then finished ones newest first, and forgets the ' + 'finished after ten minutes',
    () => {
      let now = 1_000;
      const board = new ProgressBoard(() => now);
      const sweep = board.start('sweep', 's', 'memories');
      now += 10;
      const exp = board.start('export', null, 'nodes', 100);
      now += 10;
      sweep.update(50);
      exp.update(40);
      expect(board.list().map((e) => [e.operation, e.done, e.total])).toEqual([
        ['sweep', 50, null],
        ['export', 40, 100],
      ]);
      sweep.finish();
      expect(board.list().map((e) => e.operation)).toEqual(['export', 'sweep']);
      expect(board.list()[1]).toMatchObject({ total: 50, finishedAt: now, failed: false });
      sweep.update(99); // after finish: ignored
      expect(board.list()[1]?.done).toBe(50);
      exp.fail();
      expect(board.list().find((e) => e.operation === 'export')).toMatchObject({ failed: true });
      now += 10 * 60_000 + 1;
      expect(board.list()).toEqual([]);
    },
  );

  it('tells every change to its subscribers until they unsubscribe', () => {
    const board = new ProgressBoard(() => 0);
    const seen: number[] = [];
    const stop = board.subscribe((e) => seen.push(e.done));
    const op = board.start('import', null, 'nodes', 3);
    op.update(2);
    stop();
    op.update(3);
    expect(seen).toEqual([0, 2]);
  });

  it('gives the share done when the total is known', () => {
    expect(progressShare({ done: 5, total: 20 })).toBe(0.25);
    expect(progressShare({ done: 5, total: null })).toBeNull();
    expect(progressShare({ done: 0, total: 0 })).toBe(1);
  });
});

import { salienceBins } from '../../src/adapters/report/testing.js';

describe('report: salience bins', () => {
  it('counts memories per tier in bins of 0.05, 1.0 in the last bin', () => {
    expect(
      salienceBins([
        { tier: 'LONG_TERM', salience: 0.51 },
        { tier: 'LONG_TERM', salience: 0.54 },
        { tier: 'ARCHIVE', salience: 1 },
        { tier: 'ARCHIVE', salience: 0 },
      ]),
    ).toEqual([
      { tier: 'ARCHIVE', bin: 0, memories: 1 },
      { tier: 'ARCHIVE', bin: 0.95, memories: 1 },
      { tier: 'LONG_TERM', bin: 0.5, memories: 2 },
    ]);
  });
});
