/**
 * The Pacer as plain objects (linking's batches, a checkpoint's reads): a piece waits after another only while
 * requests run, at most for its share.
 */
import { describe, expect, it } from 'vitest';
import { Pacer, pauseAfter } from '../../src/domain/index.js';
import { RequestActivity } from '../../src/adapters/request-activity.js';

/**
 * A pacer on a clock the test moves: sleeping advances it, and `slept` says by how much in all. A gap between requests
 * is there at once unless the test gives `untilGap`.
 */
function pacedBy(busy: () => boolean, share: number, untilGap: () => Promise<void> = async () => undefined) {
  const time = { now: 0, slept: 0 };
  const pacer = new Pacer({
    load: { busy, untilGap },
    share,
    clock: () => time.now,
    sleep: async (ms) => {
      time.now += ms;
      time.slept += ms;
    },
  });
  return { pacer, time };
}

describe('pauseAfter', () => {
  it('is four times the batch at a share of 0.2, nothing at a share of 1, and never negative', () => {
    expect(pauseAfter(100, 0.2)).toBeCloseTo(400);
    expect(pauseAfter(100, 0.5)).toBeCloseTo(100);
    expect(pauseAfter(100, 1)).toBe(0);
    expect(pauseAfter(-5, 0.2)).toBe(0);
  });
});

describe('Pacer', () => {
  it('starts the first batch at once, and the next after the pause while requests run', async () => {
    const { pacer, time } = pacedBy(() => true, 0.2);
    await pacer.before();
    expect(time.slept).toBe(0);
    time.now += 50; // the batch took 50 ms
    pacer.after(50);
    await pacer.before();
    expect(time.slept).toBeCloseTo(200);
  });

  it('does not wait when no request runs', async () => {
    const { pacer, time } = pacedBy(() => false, 0.2);
    pacer.after(1_000);
    await pacer.before();
    expect(time.slept).toBe(0);
  });

  it('stops waiting as soon as requests stop', async () => {
    let busy = true;
    const { pacer, time } = pacedBy(() => busy, 0.2);
    pacer.after(1_000); // a pause of 4 s
    const waiting = pacer.before();
    busy = false;
    await waiting;
    expect(time.slept).toBeLessThanOrEqual(25);
  });

  it('waits for a gap between requests once the pause is over', async () => {
    let asked = 0;
    let openGap = () => {};
    const { pacer, time } = pacedBy(
      () => true,
      0.2,
      () => (asked++, new Promise<void>((resolve) => (openGap = resolve))),
    );
    pacer.after(10);
    let started = false;
    const next = pacer.before().then(() => (started = true));
    await new Promise((r) => setTimeout(r, 0));
    expect(time.slept).toBeCloseTo(40);
    expect(asked).toBe(1);
    expect(started).toBe(false);
    openGap();
    await next;
  });

  it('does not wait for a gap when no request runs', async () => {
    const { pacer } = pacedBy(
      () => false,
      0.2,
      () => new Promise<void>(() => {}),
    );
    pacer.after(10);
    await pacer.before();
  });

  it('counts time already passed since the batch against the pause', async () => {
    const { pacer, time } = pacedBy(() => true, 0.5);
    pacer.after(100);
    time.now += 80;
    await pacer.before();
    expect(time.slept).toBeCloseTo(20);
  });
});

describe('RequestActivity seen from another thread', () => {
  it('sees the requests the owner records in the shared cells', () => {
    const owner = new RequestActivity(60_000);
    const seen = RequestActivity.seenFrom(owner.shared, 60_000);
    expect(seen.busy()).toBe(false);
    const end = owner.begin();
    expect(seen.busy()).toBe(true);
    end();
    // Still within the quiet time after the last request.
    expect(seen.busy()).toBe(true);
    expect(RequestActivity.seenFrom(owner.shared, 0).busy()).toBe(false);
  });
});
