/** Admission control as a plain object: slots, a bounded queue, a bounded wait, and BUSY beyond them. */
import { describe, expect, it } from 'vitest';
import { Admission, neverQueued } from '../../src/adapters/graphql/admission.js';
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

  it('holds one caller to its share of slots: another caller runs at once while it waits behind itself', async () => {
    const a = new Admission({ maxConcurrent: 4, maxQueued: 8, maxWaitMs: 10_000, maxPerCaller: 2 });
    const hog = [await a.enter('hog'), await a.enter('hog')];
    const third = a.enter('hog');
    expect(a.stats()).toEqual({ running: 2, waiting: 1, refused: 0 });
    const bystander = await a.enter('bystander'); // a free slot, and its own share is untouched
    expect(a.stats()).toEqual({ running: 3, waiting: 1, refused: 0 });
    hog[0]?.();
    const r3 = await third;
    expect(a.stats()).toEqual({ running: 3, waiting: 0, refused: 0 });
    for (const release of [hog[1], r3, bystander]) release?.();
    expect(a.stats()).toEqual({ running: 0, waiting: 0, refused: 0 });
  });

  it('gives a freed slot to the first waiter under its share, not to a caller at its share', async () => {
    const a = new Admission({ maxConcurrent: 2, maxQueued: 8, maxWaitMs: 10_000, maxPerCaller: 1 });
    const order: string[] = [];
    const hog = await a.enter('hog');
    const other = await a.enter('other');
    const [hog1, hog2, bystander] = [a.enter('hog'), a.enter('hog'), a.enter('bystander')].map((p, i) => p.then((release) => (order.push(`${i}`), release)));
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
    expect(refused).toMatchObject({ code: 'BUSY', details: { reason: 'this caller already fills its share of the queue' } });
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
