import { describe, expect, it } from 'vitest';
import { signalReader } from '../../src/signals.js';

describe('signalReader', () => {
  it('reads the first signal as a request to shut down and the copies of one Ctrl-C as nothing more', () => {
    let now = 1_000;
    const read = signalReader(1000, () => now);
    expect(read()).toBe('shut down');
    now += 5;
    expect(read()).toBe('ignore');
    now += 900;
    expect(read()).toBe('ignore');
  });

  it('reads a signal sent after the burst as "exit now"', () => {
    let now = 0;
    const read = signalReader(1000, () => now);
    read();
    now = 1000;
    expect(read()).toBe('exit now');
    expect(read()).toBe('exit now');
  });
});
