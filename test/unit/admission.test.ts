/** Admission control as a plain object: slots, a bounded queue, a bounded wait, and BUSY beyond them. */
import { describe, expect, it } from 'vitest';
import { Admission, neverQueued } from '../../src/adapters/graphql/testing.js';
import { BusyError } from '../../src/domain/index.js';
import { parse, type OperationDefinitionNode } from 'graphql';

const op = (text: string) => parse(text).definitions[0] as OperationDefinitionNode;

describe('Admission', () => {
  it('admits up to maxConcurrent at once, queues up to maxQueued, refuses the rest with BUSY', async () => {
    const a = new Admission({ maxConcurrent: 2, maxQueued: 1, maxWaitMs: 10_000 });
    const r1 = await a.enter();
    const r2 = await a.enter();
    const third = a.enter();
    expect(a.stats()).toEqual({ running: 2, waiting: 1, refused: 0 });
    const fourth = await a.enter().catch((e: unknown) => e);
    expect(fourth).toBeInstanceOf(BusyError);
    expect(fourth).toMatchObject({ code: 'BUSY', details: { reason: 'queue full' } });
    expect((fourth as BusyError).retryAfterMs).toBeGreaterThanOrEqual(100);
    r1();
    const r3 = await third; // the waiter takes the freed slot
    expect(a.stats()).toEqual({ running: 2, waiting: 0, refused: 1 });
    r2();
    r2(); // a second release of the same slot changes nothing
    r3();
    expect(a.stats()).toEqual({ running: 0, waiting: 0, refused: 1 });
  });

  it('refuses a waiter that waited longer than maxWaitMs', async () => {
    const a = new Admission({ maxConcurrent: 1, maxQueued: 5, maxWaitMs: 50 });
    const held = await a.enter();
    const late = await a.enter().catch((e: unknown) => e);
    expect(late).toMatchObject({ code: 'BUSY', details: { reason: 'waited too long' } });
    expect(a.stats().waiting).toBe(0);
    held();
    expect(a.stats().running).toBe(0);
  });

  it('serves the queue in order', async () => {
    const a = new Admission({ maxConcurrent: 1, maxQueued: 5, maxWaitMs: 10_000 });
    const order: number[] = [];
    const first = await a.enter();
    const waits = [1, 2, 3].map((n) => a.enter().then((release) => (order.push(n), release())));
    first();
    await Promise.all(waits);
    expect(order).toEqual([1, 2, 3]);
  });

  it(
    'holds one caller to its share of slots while alone, and to one while another caller has been active ' +
      'within the last second',
    async () => {
      let now = 0;
      const a = new Admission(
        { maxConcurrent: 4, maxQueued: 8, maxWaitMs: 10_000, maxPerCaller: 2 },
        { clock: () => now },
      );
      const hog = [await a.enter('hog'), await a.enter('hog')]; // alone: its whole share
      const third = a.enter('hog');
      expect(a.stats()).toEqual({ running: 2, waiting: 1, refused: 0 });
      const bystander = await a.enter('bystander'); // a free slot, and its own share is untouched
      expect(a.stats()).toEqual({ running: 3, waiting: 1, refused: 0 });
      hog[0]!();
      // The bystander is here: the hog holds one slot at most, so its third still waits.
      expect(a.stats()).toEqual({ running: 2, waiting: 1, refused: 0 });
      bystander();
      now = 500;
      hog[1]!(); // the bystander was active half a second ago: one slot, now free
      const r3 = await third;
      const fourth = a.enter('hog');
      expect(a.stats()).toEqual({ running: 1, waiting: 1, refused: 0 });
      now = 1_600; // a second after the bystander's last request: the whole share again
      const r5 = await a.enter('hog');
      expect(a.stats()).toEqual({ running: 2, waiting: 1, refused: 0 });
      r3();
      const r4 = await fourth;
      for (const release of [r4, r5]) release();
      expect(a.stats()).toEqual({ running: 0, waiting: 0, refused: 0 });
    },
  );

  it('starts nothing new for a heavier caller while a lighter caller has a request running', async () => {
    let now = 0;
    const a = new Admission(
      { maxConcurrent: 8, maxQueued: 8, maxWaitMs: 10_000, maxPerCaller: 2 },
      { clock: () => now },
    );
    const light = await a.enter('light');
    // The heavy caller's first request asks for no more than the light one: it runs; its next two wait (one slot each).
    const heavy1 = await a.enter('heavy');
    const [heavy2, heavy3] = [a.enter('heavy'), a.enter('heavy')];
    expect(a.stats()).toEqual({ running: 2, waiting: 2, refused: 0 });
    // A caller asking for as little as the light one is not held back.
    const equal = await a.enter('equal');
    heavy1();
    // Its slot is free, but heavy asks for two against the one of 'light' and 'equal', which run: it waits.
    expect(a.stats()).toEqual({ running: 2, waiting: 2, refused: 0 });
    light();
    expect(a.stats()).toEqual({ running: 1, waiting: 2, refused: 0 });
    equal();
    // Just answered, 'equal' may be sending its next request: heavy waits that moment out (3 ms).
    expect(a.stats()).toEqual({ running: 0, waiting: 2, refused: 0 });
    now = 3;
    // No lighter caller runs or was just answered: heavy takes its one slot (the others were here within the second).
    const second = await heavy2;
    expect(a.stats()).toEqual({ running: 1, waiting: 1, refused: 0 });
    second();
    (await heavy3)();
    expect(a.stats()).toEqual({ running: 0, waiting: 0, refused: 0 });
  });

  it('lets a held-back caller go ahead at a release once it waited a quarter of maxWaitMs', async () => {
    let now = 0;
    const a = new Admission(
      { maxConcurrent: 8, maxQueued: 8, maxWaitMs: 1_000, maxPerCaller: 2 },
      { clock: () => now },
    );
    const light = await a.enter('light');
    const heavy1 = await a.enter('heavy');
    const [heavy2, heavy3] = [a.enter('heavy'), a.enter('heavy')];
    now = 200;
    heavy1(); // heavy asks for two, light (one) runs, and heavy2 has waited 200 ms: held back
    expect(a.stats()).toEqual({ running: 1, waiting: 2, refused: 0 });
    const other = await a.enter('other');
    now = 300;
    other(); // a release after 250 ms: heavy2 goes ahead though light still runs; heavy3 waits for the one slot
    const second = await heavy2;
    expect(a.stats()).toEqual({ running: 2, waiting: 1, refused: 0 });
    for (const release of [second, light]) release();
    (await heavy3)();
    expect(a.stats()).toEqual({ running: 0, waiting: 0, refused: 0 });
  });

  it(
    "behind an entry, gives slots by the entry's counts, and looks again when a light " + "caller's entry closes",
    async () => {
      let now = 0;
      const entry = new Admission(
        { maxConcurrent: Number.MAX_SAFE_INTEGER, maxQueued: 8, maxWaitMs: 10_000, maxPerCaller: 2 },
        { clock: () => now },
      );
      const slots = new Admission(
        { maxConcurrent: 8, maxQueued: 8, maxWaitMs: 10_000, maxPerCaller: 2 },
        { load: entry, clock: () => now },
      );
      const lightIn = await entry.enter('light');
      const heavyIn = await entry.enter('heavy'); // asks for no more than light: in
      const heavyMore = [entry.enter('heavy'), entry.enter('heavy')]; // wait at the entry: heavy now asks for three
      let heavySlot: (() => void) | null = null;
      const asked = slots.enter('heavy').then((release) => (heavySlot = release));
      const lightSlot = await slots.enter('light');
      // Heavy's parsed request waits for its slot: light, lighter by the entry's counts, is in the process.
      expect(slots.stats()).toEqual({ running: 1, waiting: 1, refused: 0 });
      lightSlot();
      await Promise.resolve();
      expect(heavySlot).toBeNull(); // light's answer is still being sent: its entry is open
      lightIn();
      now = 10; // light's next request does not come: once the moment after its answer is over, heavy gets its slot
      await asked;
      expect(slots.stats()).toEqual({ running: 1, waiting: 0, refused: 0 });
      heavySlot!();
      heavyIn();
      for (const p of heavyMore) (await p)();
      expect(entry.stats()).toEqual({ running: 0, waiting: 0, refused: 0 });
    },
  );

  it('holds no caller back without a share (anonymous callers, or no maxPerCaller)', async () => {
    const a = new Admission({ maxConcurrent: 4, maxQueued: 4, maxWaitMs: 10_000 });
    const releases = [await a.enter('light'), await a.enter('heavy'), await a.enter('heavy'), await a.enter(null)];
    expect(a.stats()).toEqual({ running: 4, waiting: 0, refused: 0 });
    for (const release of releases) release();
  });

  it('gives a freed slot to the first waiter under its share, not to a caller at its share', async () => {
    const a = new Admission({ maxConcurrent: 2, maxQueued: 8, maxWaitMs: 10_000, maxPerCaller: 1 });
    const order: string[] = [];
    const hog = await a.enter('hog');
    const other = await a.enter('other');
    const [hog1, hog2, bystander] = [a.enter('hog'), a.enter('hog'), a.enter('bystander')].map((p, i) =>
      p.then((release) => (order.push(`${i}`), release)),
    );
    other(); // hog is at its share: the bystander (third in line) runs first
    const releaseBystander = await bystander!;
    expect(order).toEqual(['2']);
    releaseBystander();
    hog();
    (await hog1!)();
    (await hog2!)();
    expect(order).toEqual(['2', '0', '1']);
    expect(a.stats()).toEqual({ running: 0, waiting: 0, refused: 0 });
  });

  it('lets one caller fill at most half the queue', async () => {
    const a = new Admission({ maxConcurrent: 1, maxQueued: 4, maxWaitMs: 10_000, maxPerCaller: 1 });
    const held = await a.enter('hog');
    const queued = [a.enter('hog'), a.enter('hog')];
    const refused = await a.enter('hog').catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: 'BUSY',
      details: { reason: 'this caller already fills its share of the queue' },
    });
    const bystander = a.enter('bystander'); // still has room in the queue
    expect(a.stats()).toEqual({ running: 1, waiting: 3, refused: 1 });
    held();
    for (const p of [...queued, bystander]) (await p)();
    expect(a.stats()).toEqual({ running: 0, waiting: 0, refused: 1 });
  });

  it('never queues health, introspection or shutdown, and queues anything else', () => {
    expect(neverQueued(op('{ health { neo4j } }'))).toBe(true);
    expect(neverQueued(op('{ __schema { types { name } } }'))).toBe(true);
    expect(neverQueued(op('mutation { shutdown { ready } }'))).toBe(true);
    expect(neverQueued(op('{ health { neo4j } memory(id: "x") { id } }'))).toBe(false);
    expect(neverQueued(op('mutation { store(input: {content: "x"}) { id } }'))).toBe(false);
    expect(neverQueued(null)).toBe(false);
  });
});
