/**
 * The model threads' scheduler as a plain object: questions first, passages spread, one thread (and a share of the
 * time) while requests run.
 */
import { describe, expect, it } from 'vitest';
import { EmbedScheduler, splitTask, type ModelRunner, type Task } from '../../src/adapters/embeddings/testing.js';
import { NO_REQUESTS, pauseAfter, type RequestLoad } from '../../src/domain/index.js';
import { FRESH_GAP_MS, QUIET_MS, RequestActivity } from '../../src/adapters/request-activity.js';
import type { Role } from '../../src/adapters/embeddings/testing.js';

/**
 * A model thread whose runs finish when the test says: each run's texts are recorded, each vector is [length of its
 * text].
 */
class ManualRunner implements ModelRunner {
  readonly runs: { texts: readonly string[]; role: Role; finish: () => void; fail: (e: Error) => void }[] = [];
  running = 0;
  run(texts: readonly string[], role: Role): Promise<Float32Array[]> {
    this.running++;
    return new Promise((resolve, reject) => {
      const end = () => this.running--;
      this.runs.push({
        texts,
        role,
        finish: () => (end(), resolve(texts.map((t) => Float32Array.of(t.length)))),
        fail: (e) => (end(), reject(e)),
      });
    });
  }
  /** Finishes every run started so far. */
  finishAll(): void {
    for (const r of this.runs.splice(0)) r.finish();
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));
/** The activity's requests, with a gap between them always at hand (the tests of the gap wait are apart). */
const gapAlways = (activity: RequestActivity): RequestLoad => ({
  busy: () => activity.busy(),
  untilGap: async () => undefined,
});
const texts = (n: number, prefix = 'p') => Array.from({ length: n }, (_, i) => `${prefix}${'x'.repeat(i)}`);

describe('EmbedScheduler', () => {
  it('spreads one job of passages over every free thread and gives each text its own vector, in order', async () => {
    const threads = [new ManualRunner(), new ManualRunner()];
    const s = new EmbedScheduler(threads, { subBatch: 2, load: NO_REQUESTS });
    const job = s.embed(texts(5), 'passage');
    expect(threads.map((t) => t.running)).toEqual([1, 1]);
    while (threads.some((t) => t.runs.length > 0)) {
      threads.forEach((t) => t.finishAll());
      await tick();
    }
    const vectors = await job;
    expect(vectors.map((v) => v[0])).toEqual(texts(5).map((t) => t.length));
  });

  it('runs a question on the first free thread, ahead of every passage waiting', async () => {
    const thread = new ManualRunner();
    const s = new EmbedScheduler([thread], { subBatch: 1, load: NO_REQUESTS });
    const passages = s.embed(texts(3), 'passage');
    const question = s.embed(['where did she go?'], 'query');
    expect(thread.runs.map((r) => r.role)).toEqual(['passage']);
    thread.finishAll();
    await tick();
    expect(thread.runs.map((r) => r.role)).toEqual(['query']);
    thread.finishAll();
    expect((await question)[0]![0]).toBe('where did she go?'.length);
    for (let i = 0; i < 3; i++) {
      await tick();
      thread.finishAll();
    }
    expect(await passages).toHaveLength(3);
  });

  it('gives passages one thread while requests run, and every thread once they stop', async () => {
    let now = 0;
    const activity = new RequestActivity(100, () => now);
    const threads = [new ManualRunner(), new ManualRunner()];
    const s = new EmbedScheduler(threads, { subBatch: 1, load: gapAlways(activity), recheckMs: 5 });
    const done = activity.begin();
    const job = s.embed(texts(4), 'passage');
    await tick(); // a gap between requests is found after a turn of the event loop
    expect(threads.map((t) => t.running).reduce((a, b) => a + b)).toBe(1);
    // A question still gets the other thread.
    const question = s.embed(['q'], 'query');
    expect(threads.map((t) => t.running)).toEqual([1, 1]);
    threads.forEach((t) => t.finishAll());
    await question;
    await tick();
    expect(threads.map((t) => t.running).reduce((a, b) => a + b)).toBe(1);
    // The request ends; within the quiet time passages still keep to one thread, after it they take both.
    done();
    now += 50;
    threads.forEach((t) => t.finishAll());
    await tick();
    expect(threads.map((t) => t.running).reduce((a, b) => a + b)).toBe(1);
    now += 100;
    await new Promise((r) => setTimeout(r, 20));
    expect(threads.map((t) => t.running)).toEqual([1, 1]);
    while (threads.some((t) => t.runs.length > 0)) {
      threads.forEach((t) => t.finishAll());
      await tick();
    }
    expect(await job).toHaveLength(4);
  });

  it('holds passages to their share of the time while requests run, and lets them go once requests stop', async () => {
    let now = 0;
    const activity = new RequestActivity(100, () => now);
    const thread = new ManualRunner();
    const s = new EmbedScheduler([thread], {
      subBatch: 1,
      load: gapAlways(activity),
      busyShare: 0.25,
      recheckMs: 5,
      clock: () => now,
    });
    const done = activity.begin();
    const job = s.embed(texts(3), 'passage');
    await tick(); // a gap between requests is found after a turn of the event loop
    expect(thread.running).toBe(1);
    now += 40; // the first sub-batch took 40 ms: at a share of 0.25 the next waits 120 ms
    thread.finishAll();
    await new Promise((r) => setTimeout(r, 20));
    expect(thread.running).toBe(0);
    // A question never waits for the pause.
    const question = s.embed(['q'], 'query');
    expect(thread.runs.map((r) => r.role)).toEqual(['query']);
    thread.finishAll();
    await question;
    now += 119;
    await new Promise((r) => setTimeout(r, 20));
    expect(thread.running).toBe(0);
    now += 1;
    await new Promise((r) => setTimeout(r, 20));
    expect(thread.running).toBe(1);
    // The next sub-batch's pause is cut short when requests stop.
    now += 40;
    thread.finishAll();
    await new Promise((r) => setTimeout(r, 20));
    expect(thread.running).toBe(0);
    done();
    now += 100;
    await new Promise((r) => setTimeout(r, 20));
    expect(thread.running).toBe(1);
    thread.finishAll();
    expect(await job).toHaveLength(3);
  });

  it('starts a passage while requests run only in a gap between them, and a question at once', async () => {
    let openGap = () => {};
    const load: RequestLoad = {
      busy: () => true,
      untilGap: () => new Promise<void>((resolve) => (openGap = resolve)),
    };
    const thread = new ManualRunner();
    const s = new EmbedScheduler([thread], { subBatch: 1, load });
    const job = s.embed(texts(2), 'passage');
    await tick();
    expect(thread.running).toBe(0);
    const question = s.embed(['q'], 'query');
    expect(thread.runs.map((r) => r.role)).toEqual(['query']);
    thread.finishAll();
    await question;
    openGap();
    await tick();
    expect(thread.runs.map((r) => r.role)).toEqual(['passage']);
    // The next passage waits for a gap of its own.
    thread.finishAll();
    await tick();
    expect(thread.running).toBe(0);
    openGap();
    await tick();
    expect(thread.running).toBe(1);
    thread.finishAll();
    expect(await job).toHaveLength(2);
  });

  it('cuts sub-batches to busySubBatch while requests run, each vector in place, whole ones after', async () => {
    let busy = true;
    const load: RequestLoad = { busy: () => busy, untilGap: async () => undefined };
    const thread = new ManualRunner();
    const s = new EmbedScheduler([thread], { subBatch: 4, busySubBatch: 2, load });
    const job = s.embed(texts(8), 'passage');
    const sizes = () => thread.runs.map((r) => r.texts.length);
    await tick();
    expect(sizes()).toEqual([2]);
    thread.finishAll();
    await tick();
    expect(sizes()).toEqual([2]); // the rest of the first sub-batch
    // Requests stop: the next sub-batch runs whole.
    busy = false;
    thread.finishAll();
    await tick();
    expect(sizes()).toEqual([4]);
    thread.finishAll();
    expect((await job).map((v) => v[0])).toEqual(texts(8).map((t) => t.length));
  });

  it('computes the pause after a sub-batch from its time and the share', () => {
    expect(pauseAfter(40, 0.25)).toBe(120);
    expect(pauseAfter(40, 1)).toBe(0);
    expect(pauseAfter(-5, 0.5)).toBe(0);
  });

  it(
    'fails the whole job when one of its sub-batches fails, and fails what waits when ' + 'the threads are gone',
    async () => {
      const thread = new ManualRunner();
      const s = new EmbedScheduler([thread], { subBatch: 1, load: NO_REQUESTS });
      const job = s.embed(texts(2), 'passage');
      const waiting = s.embed(['later'], 'passage').catch((e: Error) => e);
      thread.runs.splice(0, 1)[0]!.fail(new Error('model crashed'));
      await expect(job).rejects.toThrow('model crashed');
      await tick();
      // The job's other sub-batch was dropped, not run: the thread took the next job's.
      expect(thread.runs.map((r) => r.texts)).toEqual([['later']]);
      s.embed(['never'], 'passage').catch(() => undefined);
      const queued = s.embed(['queued'], 'passage').catch((e: Error) => e);
      s.failWaiting(new Error('the embedder was closed'));
      expect(((await queued) as Error).message).toBe('the embedder was closed');
      thread.finishAll();
      expect(await waiting).toHaveLength(1);
    },
  );
});

describe('RequestActivity', () => {
  it('is busy while a request runs and for the quiet time after the last one ends', () => {
    let now = 0;
    const a = new RequestActivity(100, () => now);
    expect(a.busy()).toBe(false);
    const end1 = a.begin();
    const end2 = a.begin();
    end1();
    end1(); // a second call does nothing
    expect(a.busy()).toBe(true);
    end2();
    now = 99;
    expect(a.busy()).toBe(true);
    now = 100;
    expect(a.busy()).toBe(false);
  });

  it('finds a gap once no request runs and the last ended a moment ago, also seen from another thread', async () => {
    const owner = new RequestActivity(QUIET_MS, Date.now, 5_000);
    const seen = RequestActivity.seenFrom(owner.shared);
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let t = performance.now();
    await seen.untilGap(); // no request for the quiet time: a gap
    expect(performance.now() - t).toBeLessThan(50);
    const end1 = owner.begin();
    const end2 = owner.begin();
    let found = false;
    const gap = seen.untilGap().then(() => (found = true));
    end1();
    await sleep(20);
    expect(found).toBe(false); // one request still runs
    t = performance.now();
    end2();
    await gap;
    expect(performance.now() - t).toBeLessThan(50);
    // Later within the quiet time the gap is stale (the next request is nearer): it waits for the next one to end.
    await sleep(FRESH_GAP_MS + 15);
    found = false;
    const next = seen.untilGap().then(() => (found = true));
    await sleep(20);
    expect(found).toBe(false);
    owner.begin()();
    await next;
  });

  it('stops waiting for a gap after the gap wait, whatever runs, and with a wait of 0 never waits', async () => {
    const activity = new RequestActivity(QUIET_MS, Date.now, 30);
    const end = activity.begin();
    let t = performance.now();
    await activity.untilGap();
    expect(performance.now() - t).toBeGreaterThanOrEqual(25);
    expect(performance.now() - t).toBeLessThan(500);
    end();
    const never = new RequestActivity(QUIET_MS, Date.now, 0);
    never.begin();
    t = performance.now();
    await never.untilGap();
    expect(performance.now() - t).toBeLessThan(20);
  });
});

describe('splitTask (a sub-batch cut at the head of the line while requests run)', () => {
  const task = (texts: string[]) => {
    const got: { vectors?: Float32Array[]; error?: Error } = {};
    const t: Task = {
      texts,
      role: 'passage',
      done: (vectors) => (got.vectors = vectors),
      fail: (error) => (got.error = error),
    };
    return { t, got };
  };
  const vector = (text: string) => new Float32Array([text.length]);

  it('cuts the first texts off, and answers the whole task in its order once both parts are done', () => {
    const { t, got } = task(['a', 'bb', 'ccc', 'dddd', 'eeeee']);
    const [head, rest] = splitTask(t, 2);
    expect(head.texts).toEqual(['a', 'bb']);
    expect(rest.texts).toEqual(['ccc', 'dddd', 'eeeee']);
    rest.done(rest.texts.map(vector)); // the rest may finish first
    expect(got.vectors).toBeUndefined();
    head.done(head.texts.map(vector));
    expect(got.vectors?.map((v) => v[0])).toEqual([1, 2, 3, 4, 5]);
  });

  it('fails the whole task when a part fails, and the part that is cut again still answers in order', () => {
    const { t, got } = task(['a', 'bb', 'ccc']);
    const [, rest] = splitTask(t, 1);
    rest.fail(new Error('model gone'));
    expect(got.error?.message).toBe('model gone');

    const again = task(['a', 'bb', 'ccc', 'dddd']);
    const [first, tail] = splitTask(again.t, 1);
    const [second, last] = splitTask(tail, 1);
    for (const part of [last, first, second]) part.done(part.texts.map(vector));
    expect(again.got.vectors?.map((v) => v[0])).toEqual([1, 2, 3, 4]);
  });
});
