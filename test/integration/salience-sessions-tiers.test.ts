import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { message, type Tier } from '../../src/domain/index.js';
import type { GraphPort } from '../../src/domain/index.js';
import { Neo4jGraph } from '../../src/adapters/neo4j/index.js';
import { Salience } from '../../src/contexts/salience/index.js';

import {
  C,
  DAY,
  HOUR,
  T0,
  clock,
  newStore,
  remember,
  scoreOf,
  seedMixed,
  states,
  sweep,
  t,
  tierChanges,
  useSalienceApp,
  type NodeState,
} from './salience-fixture.js';

useSalienceApp();

describe('resuming a sweep that crashed', () => {
  // Crash points: right after a batch's decay statement commits, and right after
  // the write of the memories scored outside it (before their tier changes and the cursor).
  it.each([
    ['after the third batch statement commits', 'salience/sweep-batch-in-store.cypher', 3],
    ['after the second write of pending memories commits', 'transaction', 2],
  ] as const)('resumes %s and ends in the same state as an uninterrupted sweep', async (_when, where, nth) => {
    const [crashed, control] = [newStore(), newStore()];
    await seedMixed(crashed);
    await seedMixed(control);
    const at = T0 + 4 * DAY;
    clock.now = at;
    const real = new Neo4jGraph(t.app.driver, t.config.neo4j.database);
    let seen = 0;
    let crashedUntil: string | null = null; // the end of the batch range whose statement crashed
    const issued: unknown[] = []; // the ends of the batch ranges in the order their statements were sent: id order
    const crashAfter = async <R>(here: boolean, commit: () => Promise<R>, until?: unknown): Promise<R> => {
      if (here && until !== undefined) issued.push(until);
      const result = await commit();
      if (here && ++seen === nth) {
        crashedUntil = typeof until === 'string' ? until : null;
        throw new Error('crash after commit');
      }
      return result;
    };
    const dying: GraphPort = {
      read: (s, p) => real.read(s, p),
      write: (s, p) => crashAfter(s.file === where, () => real.write(s, p), p?.until),
      readTransaction: (w) => real.readTransaction(w),
      transaction: (w) => crashAfter(where === 'transaction', () => real.transaction(w)),
    };
    const doomed = new Salience({ graph: dying, bus: t.app.bus, config: t.config.salience, clock: () => clock.now });
    await expect(doomed.sweep(message('SweepDecay', { store: crashed, now: at }, 'subconscious'))).rejects.toThrow(
      /crash/,
    );
    await t.app.bus.idle();
    const [cursor] = await t.cypher<{ done: boolean; batches: number; after: string }>(
      'MATCH (c:SweepCursor {key: $k}) RETURN c.done AS done, c.batches AS batches, c.after AS after',
      { k: crashed },
    );
    expect(cursor?.done).toBe(false);
    if (where !== 'transaction') {
      // Batches run two at a time, so the third statement to commit is not always the
      // third batch in id order: a later one may commit first, and the batch before it
      // may still finish after the crash. The cursor stops short of the crashed batch
      // either way, and counts only batches before it in id order.
      expect(crashedUntil).not.toBeNull();
      expect(cursor!.after < crashedUntil!).toBe(true);
      const crashedIndex = issued.indexOf(crashedUntil);
      // With two lanes the third commit is the second batch sent at the earliest (the third overtook it).
      expect(crashedIndex).toBeGreaterThanOrEqual(nth - t.config.salience.sweepLanes);
      expect(cursor?.batches).toBeLessThanOrEqual(crashedIndex);
    }

    const resumed = await sweep(crashed, at);
    const straight = await sweep(control, at);
    expect(resumed.resumed).toBe(true);
    expect(straight.resumed).toBe(false);
    expect(resumed.scanned).toBe(straight.scanned);
    // Same tiers and stored scores, and the same scores from here on (anchors may differ
    // in form: a tier change the crashed run made may already be folded in).
    const strip = (s: NodeState[]) =>
      s.map(({ content, tier, salience, salienceAt }) => ({ content, tier, salience, salienceAt }));
    expect(strip(await states(crashed))).toEqual(strip(await states(control)));
    const future = async (s: string) => {
      const ids = await t.cypher<{ id: string }>('MATCH (m:Memory {store: $s}) RETURN m.id AS id ORDER BY m.content', {
        s,
      });
      return Promise.all(ids.flatMap(({ id }) => [at + DAY, at + 90 * DAY].map((when) => scoreOf(id, when))));
    };
    const [a, b] = [await future(crashed), await future(control)];
    a.forEach((score, i) => expect(score).toBeCloseTo(b[i]!, 12));
  });
});

describe('nothing is deleted (invariant 6)', () => {
  it('keeps every memory through years of sweeps; decay only moves memories down to ARCHIVE', async () => {
    const store = newStore();
    await seedMixed(store);
    const count = async () =>
      (await t.cypher<{ n: number }>('MATCH (m:Memory {store: $store}) RETURN count(m) AS n', { store }))[0]!.n;
    const before = await count();
    for (const at of [T0 + DAY, T0 + 100 * DAY, T0 + 3 * 365 * DAY, T0 + 30 * 365 * DAY]) await sweep(store, at);
    expect(await count()).toBe(before);
    const tiers = await t.cypher<{ tier: string; claimed: boolean; s: number | null }>(
      'MATCH (m:Memory {store: $store}) RETURN m.tier AS tier, m.claimed AS claimed, m.salience AS s',
      {
        store,
      },
    );
    for (const m of tiers) {
      expect(['IDENTITY_CORE', 'ARCHIVE']).toContain(m.tier);
      if (m.s !== null) expect(m.s).toBeGreaterThanOrEqual(C().floor);
    }
  });
});

describe('session end', () => {
  it('moves the unclaimed working memory of an ended session down, and nothing else', async () => {
    const store = newStore();
    const session = `session-${store}`;
    const kept = await remember(store, 'claimed plan', { tier: 'ACTIVE_CONTEXT', sessionId: session });
    const loose = await remember(store, 'scratch note', { tier: 'ACTIVE_CONTEXT', sessionId: session });
    const other = await remember(store, 'other session', { tier: 'ACTIVE_CONTEXT', sessionId: `${session}-2` });
    await t.ok('mutation ($id: ID!) { claim(id: $id) { id } }', { id: kept });
    clock.now = T0 + 10 * 60_000;
    t.app.bus.publish(
      message('SessionEnded', { sessionId: session, instanceId: 'i1', store, cause: 'EXPLICIT' }, 'cortex'),
    );
    await t.app.bus.idle();
    const rows = await t.cypher<{ id: string; tier: string }>(
      'MATCH (m:Memory {store: $store}) RETURN m.id AS id, m.tier AS tier',
      { store },
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.tier]))).toEqual({
      [kept]: 'ACTIVE_CONTEXT',
      [loose]: 'LONG_TERM',
      [other]: 'ACTIVE_CONTEXT',
    });
    expect((await tierChanges(loose))[0]).toMatchObject({
      from: 'ACTIVE_CONTEXT',
      to: 'LONG_TERM',
      by: 'SALIENCE',
      reason: expect.stringMatching(/session ended/),
    });
    // It lands at the demotion threshold, inside LONG_TERM's band: the next sweep leaves it there.
    expect(await scoreOf(loose, clock.now)).toBeCloseTo(C().thresholds.demoteFromActive, 6);
    const report = await sweep(store, clock.now + HOUR);
    expect(report.promoted).toBe(0);
  });
});

describe('session end, through the API', () => {
  it(
    'endSession moves the unclaimed working memory the instance stored in that session ' + 'down, and nothing else',
    async () => {
      const store = newStore();
      const i = `mind-${store.slice(-12)}`;
      const as = async <T = Record<string, any>>(query: string, variables: Record<string, unknown>) => {
        const res = await t.gql<T>(query, variables, { 'x-instance-id': i });
        if (res.errors?.length) throw new Error(JSON.stringify(res.errors));
        return res.data as T;
      };
      const STORE = 'mutation ($in: StoreInput!) { store(input: $in) { id sessionId } }';
      const { startSession } = await as<{ startSession: { id: string } }>(
        'mutation ($in: StartSessionInput!) { startSession(input: $in) { id } }',
        {
          in: { instanceId: i, mindType: 'claude', store },
        },
      );
      // Stored by the instance while its session is open: the session's own working memory.
      const put = async (content: string, tier: Tier) =>
        (await as<{ store: { id: string; sessionId: string } }>(STORE, { in: { store, content, tier } })).store;
      const kept = await put('claimed plan', 'ACTIVE_CONTEXT');
      const loose = await put('scratch note', 'ACTIVE_CONTEXT');
      const older = await put('long-term fact', 'LONG_TERM');
      expect([kept.sessionId, loose.sessionId, older.sessionId]).toEqual([
        startSession.id,
        startSession.id,
        startSession.id,
      ]);
      const outside = await remember(store, 'working memory of no session', { tier: 'ACTIVE_CONTEXT' });
      await as('mutation ($id: ID!) { claim(id: $id) { id } }', { id: kept.id });
      clock.now = T0 + 10 * 60_000;
      const { endSession } = await as<{ endSession: { unclaimed: { id: string }[] } }>(
        'mutation ($i: String!) { endSession(instanceId: $i) { unclaimed { id } } }',
        { i },
      );
      expect(endSession.unclaimed.map((m) => m.id).sort()).toEqual([loose.id, older.id].sort());
      await t.app.bus.idle();
      const rows = await t.cypher<{ id: string; tier: string }>(
        'MATCH (m:Memory {store: $store}) RETURN m.id AS id, m.tier AS tier',
        { store },
      );
      expect(Object.fromEntries(rows.map((r) => [r.id, r.tier]))).toEqual({
        [kept.id]: 'ACTIVE_CONTEXT',
        [loose.id]: 'LONG_TERM',
        [older.id]: 'LONG_TERM',
        [outside]: 'ACTIVE_CONTEXT',
      });
      expect(await tierChanges(loose.id)).toEqual([
        expect.objectContaining({
          from: 'ACTIVE_CONTEXT',
          to: 'LONG_TERM',
          by: 'SALIENCE',
          reason: expect.stringMatching(/session ended/),
        }),
      ]);
      for (const id of [kept.id, older.id, outside]) expect(await tierChanges(id), id).toEqual([]);
    },
  );
});

describe("the mind's tier changes", () => {
  it('folds a reclassify in at once, so the next sweep does not undo it', async () => {
    const store = newStore();
    const id = await remember(store, 'old idea, needed now', { tier: 'ARCHIVE' });
    clock.now = T0 + 400 * DAY;
    await t.ok(
      'mutation ($id: ID!) { reclassify(id: $id, tier: ACTIVE_CONTEXT, reason: "working on it again") { id } }',
      { id },
    );
    await t.app.bus.idle();
    const [row] = await t.cypher<{ anchorTier: string }>(
      'MATCH (m:Memory {id: $id}) RETURN m.salienceAnchorTier AS anchorTier',
      { id },
    );
    expect(row?.anchorTier).toBe('ACTIVE_CONTEXT');
    expect(await scoreOf(id, clock.now)).toBeCloseTo(C().thresholds.promoteToActive, 6);
    const report = await sweep(store, clock.now + 15 * 60_000);
    expect(report.demoted).toBe(0);
  });
});

describe('Hippocampus tier batches (TierChangeBatch)', () => {
  const ask = (changes: Parameters<typeof message<'TierChangeBatch'>>[1]['changes']) =>
    t.app.bus.ask(message('TierChangeBatch', { changes }, 'salience'));
  const demote = (id: string, from: Tier, to: Tier) =>
    message('DemoteTier', { id, from, to, salience: 0.1, reason: 'faded' }, 'salience');

  it('checks every change against the tier rules, refusing the whole batch for one bad change', async () => {
    const store = newStore();
    const a = await remember(store, 'a');
    const core = await remember(store, 'core', { tier: 'IDENTITY_CORE' });
    await expect(
      ask([demote(a, 'LONG_TERM', 'ARCHIVE'), demote(core, 'IDENTITY_CORE', 'ACTIVE_CONTEXT')]),
    ).rejects.toThrow(/IDENTITY_CORE/);
    const rows = await t.cypher<{ tier: string }>('MATCH (m:Memory {id: $a}) RETURN m.tier AS tier', { a });
    expect(rows[0]?.tier).toBe('LONG_TERM');
    await expect(ask([demote(a, 'LONG_TERM', 'ARCHIVE'), demote(a, 'LONG_TERM', 'ARCHIVE')])).rejects.toThrow(/twice/);
  });

  it(
    'applies a batch in one statement, records TierChanged for each, and skips a memory ' + 'that moved meanwhile',
    async () => {
      const store = newStore();
      const ids = [await remember(store, 'x'), await remember(store, 'y'), await remember(store, 'z')];
      const seen: string[] = [];
      const untap = t.app.bus.tap((m) => void (m.type === 'TierChanged' && seen.push(m.data.id)));
      const applied = await ask([
        demote(ids[0]!, 'LONG_TERM', 'ARCHIVE'),
        demote(ids[1]!, 'LONG_TERM', 'ARCHIVE'),
        demote(ids[2]!, 'ARCHIVE', 'LONG_TERM'),
      ]);
      untap();
      expect(applied).toHaveLength(2);
      expect(seen.sort()).toEqual([ids[0], ids[1]].sort());
      for (const id of ids.slice(0, 2))
        expect(await tierChanges(id)).toEqual([
          { from: 'LONG_TERM', to: 'ARCHIVE', by: 'SALIENCE', reason: 'faded', salience: 0.1 },
        ]);
      expect(await tierChanges(ids[2]!)).toEqual([]);
    },
  );
});
