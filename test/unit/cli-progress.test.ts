/** Progress bars appear on a terminal only; piped output stays clean. */
import { describe, expect, it } from 'vitest';
import { progress } from '../../src/cli/progress.js';

function fakeStream(isTTY: boolean) {
  const written: string[] = [];
  const stream = {
    isTTY,
    columns: 100,
    write: (chunk: string) => (written.push(String(chunk)), true),
    cursorTo: () => true,
    clearLine: () => true,
    moveCursor: () => true,
    clearScreenDown: () => true,
    on: () => stream,
    removeListener: () => stream,
  };
  return { stream: stream as unknown as NodeJS.WriteStream, written };
}

describe('progress', () => {
  it('draws nothing when stdout is not a terminal', () => {
    const { stream, written } = fakeStream(false);
    const bar = progress('importing', 10, stream);
    bar.update(5);
    bar.stop();
    expect(written).toEqual([]);
  });

  it('draws a bar with the count on a terminal', () => {
    const { stream, written } = fakeStream(true);
    const bar = progress('importing', 10, stream);
    bar.update(10);
    bar.stop();
    expect(written.join('')).toMatch(/importing \[.*\] 100% 10\/10 records/);
  });
});
