import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { message, type Tier } from '../../src/domain/index.js';
import neo4j from 'neo4j-driver';
import { Salience, type SweepReport } from '../../src/contexts/salience/index.js';

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

const neo4jInt = (n: number) => neo4j.int(n);

/** A read by id through GraphQL (an access), at `at`. */
async function read(id: string, at: number): Promise<{ salience: number; tier: Tier }> {
  clock.now = at;
  const { memory } = await t.ok<{ memory: { salience: number; tier: Tier } }>(
    'query ($id: ID!) { memory(id: $id) { salience tier } }',
    { id },
  );
  await t.app.bus.idle();
  // The read's access is recorded once its request has succeeded: the score after it is the stored one.
  const stored = await t.app.hippocampus.get(id);
  return { salience: await scoreOf(id, at), tier: stored?.tier ?? memory.tier };
}

describe('decay with an injectable clock (invariant 4)', () => {
  it('materialises a score that falls monotonically as sweeps run later', async () => {
    const store = newStore();
    const id = await remember(store, 'fading fact');
    const seen: number[] = [];
    for (const at of [T0, T0 + DAY, T0 + 30 * DAY, T0 + 90 * DAY]) {
      await sweep(store, at);
      const [row] = await t.cypher<{ s: number }>('MATCH (m:Memory {id: $id}) RETURN m.salience AS s', { id });
      seen.push(row!.s);
      expect(row!.s).toBeCloseTo(await scoreOf(id, at), 12);
    }
    expect(seen[0]).toBeCloseTo(C().start.LONG_TERM, 12);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeLessThan(seen[i - 1]!);
  });

  it('reads Memory.salience decayed to the moment of the query', async () => {
    const store = newStore();
    clock.now = T0;
    const { store: stored } = await t.ok<{ store: { id: string; salience: number } }>(
      'mutation ($i: StoreInput!) { store(input: $i) { id salience } }',
      {
        i: { store, content: 'now and later', tier: 'ACTIVE_CONTEXT' },
      },
    );
    expect(stored.salience).toBe(C().start.ACTIVE_CONTEXT);
    const later = await read(stored.id, T0 + 2 * HOUR);
    // One half-life of ACTIVE_CONTEXT, then the read itself (an access) lifts it.
    const decayedOnly = C().floor + (1 - C().floor) * 0.5;
    expect(later.salience).toBeGreaterThan(decayedOnly);
    expect(later.salience).toBeLessThan(C().start.ACTIVE_CONTEXT);
  });
});

describe('the sweep statement and the model agree', () => {
  it('materialises, for every kind of memory, the score currentSalience gives', async () => {
    const store = newStore();
    await seedMixed(store);
    // Memories whose uses and claims Salience never heard of (written before it ran, or an event lost
    // in a crash): no anchor, so the batch statement folds their history in itself.
    await t.cypher(
      `UNWIND range(0, 11) AS i
       CREATE (:Memory {id: $store + '-legacy-' + i, store: $store, content: 'legacy ' + i,
         tier: ['ACTIVE_CONTEXT', 'LONG_TERM', 'ARCHIVE'][i % 3],
         claimed: i % 2 = 0, claimedAt: CASE WHEN i % 4 = 0 THEN datetime({epochMillis: $t0 + i * 3600000}) END,
         accessCount: i % 5,
         lastAccessedAt: CASE WHEN i % 5 > 0 THEN datetime({epochMillis: $t0 + (12 - i) * 3600000}) END,
         salienceUses: CASE WHEN i % 3 = 1 THEN 2 END,
         salienceUsedAt: CASE WHEN i % 3 = 1 THEN datetime({epochMillis: $t0 + i * 1800000}) END,
         createdAt: datetime({epochMillis: $t0}), occurredAt: datetime({epochMillis: $t0})})`,
      { store, t0: neo4jInt(T0) },
    );
    for (const at of [T0 + 2 * HOUR, T0 + 9 * DAY, T0 + 200 * DAY]) {
      await sweep(store, at);
      const rows = await t.cypher<{ id: string; s: number; at: number }>(
        'MATCH (m:Memory {store: $store}) WHERE m.tier <> "IDENTITY_CORE" RETURN m.id AS id, m.salience AS s, ' +
          'm.salienceAt.epochMillis AS at',
        { store },
      );
      expect(rows.length).toBeGreaterThan(10);
      for (const r of rows) expect(r.s, r.id).toBeCloseTo(await scoreOf(r.id, r.at), 12);
    }
    // The statement itself folded histories in (no anchor needed) for some legacy memories.
    const [folded] = await t.cypher<{ n: number }>(
      "MATCH (m:Memory {store: $store}) WHERE m.content STARTS WITH 'legacy' AND m.salienceAnchor IS NULL AND " +
        'm.salience IS NOT NULL AND m.accessCount > 0 RETURN count(m) AS n',
      { store },
    );
    expect(folded?.n).toBeGreaterThan(0);
  });
});

describe('use raises the score', () => {
  it('raises the score on a read by id, with diminishing returns, and materialises it at once', async () => {
    const store = newStore();
    const used = await remember(store, 'used often');
    const idle = await remember(store, 'never used');
    const at = T0 + 20 * DAY;
    const first = await read(used, at);
    expect(first.salience).toBeGreaterThan(await scoreOf(idle, at));
    const second = await read(used, at);
    const third = await read(used, at);
    expect(second.salience - first.salience).toBeGreaterThan(third.salience - second.salience);
    expect(third.salience - second.salience).toBeGreaterThan(0);
    const [row] = await t.cypher<{ s: number; uses: number }>(
      'MATCH (m:Memory {id: $id}) RETURN m.salience AS s, m.salienceAnchorUses AS uses',
      { id: used },
    );
    expect(row).toEqual({ s: third.salience, uses: 3 });
  });

  it('counts a markUsed report (MemoryUsed) as a use, once per use id', async () => {
    const store = newStore();
    const id = await remember(store, 'helped me once');
    clock.now = T0 + 10 * DAY;
    const before = await scoreOf(id, clock.now);
    const used = message(
      'MemoryUsed',
      { useId: `use-${store}`, recallId: 'recall-1', store, memoryIds: [id] },
      'recall',
    );
    t.app.bus.publish(used);
    await t.app.bus.idle();
    t.app.bus.publish(used);
    await t.app.bus.idle();
    const [row] = await t.cypher<{ uses: number }>('MATCH (m:Memory {id: $id}) RETURN m.salienceUses AS uses', { id });
    expect(row?.uses).toBe(1);
    expect(await scoreOf(id, clock.now)).toBeGreaterThan(before);
  });

  it('applies a use and an outcome once each, even when one is replayed after a later one', async () => {
    const store = newStore();
    const id = await remember(store, 'helped me twice');
    const deliver = async (event: Parameters<typeof t.app.bus.publish>[0]) => {
      t.app.bus.publish(event);
      await t.app.bus.idle();
    };
    const used = (useId: string) =>
      message('MemoryUsed', { useId, recallId: 'recall-1', store, memoryIds: [id] }, 'recall');
    const [u1, u2] = [used(`use-1-${store}`), used(`use-2-${store}`)];
    const outcome = (useId: string, messageId: string) =>
      message('OutcomeReported', { useId, store, memoryIds: [id], outcome: 'SUCCEEDED' }, 'recall', { messageId });
    const [o1, o2] = [outcome(`use-1-${store}`, `evt-1-${store}`), outcome(`use-2-${store}`, `evt-2-${store}`)];
    const read = async () =>
      (
        await t.cypher<{ uses: number; usefulness: number }>(
          'MATCH (m:Memory {id: $id}) RETURN m.salienceUses AS uses, m.usefulness AS usefulness',
          { id },
        )
      )[0];
    for (const event of [u1, u2, o1, o2]) await deliver(event);
    const applied = await read();
    expect(applied?.uses).toBe(2);
    // A retried transaction of the first use and the first outcome, after the second ones committed.
    for (const event of [u1, o1]) await deliver(event);
    expect(await read()).toEqual(applied);
  });

  it('promotes a memory used again and again, one tier at a time, by asking Hippocampus', async () => {
    const store = newStore();
    const id = await remember(store, 'rediscovered', { tier: 'ARCHIVE' });
    let last: Tier = 'ARCHIVE';
    for (let i = 0; i < 10 && last !== 'ACTIVE_CONTEXT'; i++) last = (await read(id, T0 + DAY + i * 60_000)).tier;
    // The read that crossed the threshold answers with the old tier; the move follows it.
    const [row] = await t.cypher<{ tier: string }>('MATCH (m:Memory {id: $id}) RETURN m.tier AS tier', { id });
    expect(row?.tier).toBe('ACTIVE_CONTEXT');
    const changes = await tierChanges(id);
    expect(changes.map((c) => `${c.from}→${c.to} by ${c.by}`)).toEqual([
      'ARCHIVE→LONG_TERM by SALIENCE',
      'LONG_TERM→ACTIVE_CONTEXT by SALIENCE',
    ]);
  });
});

describe('claims (invariant 3)', () => {
  it('makes a claimed memory decay slower than an unclaimed one, and still decay', async () => {
    const store = newStore();
    const claimed = await remember(store, 'I choose to keep this');
    const plain = await remember(store, 'just a note');
    await t.ok('mutation ($id: ID!) { claim(id: $id) { id } }', { id: claimed });
    await t.app.bus.idle();
    const atClaim = await scoreOf(claimed, T0);
    await sweep(store, T0 + 60 * DAY);
    const rows = await t.cypher<{ id: string; s: number; tier: string }>(
      'MATCH (m:Memory {store: $store}) RETURN m.id AS id, m.salience AS s, m.tier AS tier',
      { store },
    );
    const by = new Map(rows.map((r) => [r.id, r]));
    expect(by.get(claimed)!.s).toBeGreaterThan(by.get(plain)!.s);
    expect(by.get(claimed)!.s).toBeLessThan(atClaim);
  });
});

describe('IDENTITY_CORE', () => {
  it('is flat at 1 and never touched by sweeps', async () => {
    const store = newStore();
    const id = await remember(store, 'who I am', { tier: 'IDENTITY_CORE' });
    // Linking clears the memory's linkPendingAt once its links are written: let that happen first.
    await t.app.synapse.linked(store);
    await t.app.bus.idle();
    const before = await t.cypher<{ p: Record<string, unknown> }>(
      'MATCH (m:Memory {id: $id}) RETURN properties(m) AS p',
      { id },
    );
    for (const years of [1, 10, 50]) {
      const report = await sweep(store, T0 + years * 365 * DAY);
      expect(report.scanned).toBe(0);
      expect(await scoreOf(id, clock.now)).toBe(1);
    }
    const after = await t.cypher<{ p: Record<string, unknown> }>(
      'MATCH (m:Memory {id: $id}) RETURN properties(m) AS p',
      { id },
    );
    expect(after).toEqual(before);
    expect(await tierChanges(id)).toEqual([]);
  });
});

describe('hysteresis (no bounce at a threshold)', () => {
  it('demotes a neglected memory once, and one read just after does not bring it back', async () => {
    const store = newStore();
    const id = await remember(store, 'slowly forgotten');
    let demotedAt = 0;
    for (let day = 0; day <= 200 && demotedAt === 0; day += 2) {
      const report = await sweep(store, T0 + day * DAY);
      if (report.demoted > 0) demotedAt = clock.now;
    }
    expect(demotedAt).toBeGreaterThan(0);
    const atDemotion = await scoreOf(id, demotedAt);
    expect(atDemotion).toBeLessThan(C().thresholds.demoteToArchive);
    // A read lifts it over the threshold it just crossed, but not over the one that would promote it.
    const lifted = await read(id, demotedAt + DAY);
    expect(lifted.salience).toBeGreaterThan(C().thresholds.demoteToArchive);
    expect(lifted.salience).toBeLessThan(C().thresholds.promoteFromArchive);
    for (let day = 2; day <= 60; day += 2) await sweep(store, demotedAt + day * DAY);
    expect((await tierChanges(id)).map((c) => `${c.from}→${c.to}`)).toEqual(['LONG_TERM→ARCHIVE']);
  });
});

describe('idempotence', () => {
  it('gives the same scores and tiers when a sweep runs twice at the same moment', async () => {
    const store = newStore();
    await seedMixed(store);
    const first = await sweep(store, T0 + 5 * DAY);
    const once = await states(store);
    const second = await sweep(store, T0 + 5 * DAY);
    const twice = await states(store);
    expect(twice.map(({ content, tier, salience, salienceAt }) => ({ content, tier, salience, salienceAt }))).toEqual(
      once.map(({ content, tier, salience, salienceAt }) => ({ content, tier, salience, salienceAt })),
    );
    expect(first.demoted).toBeGreaterThan(0);
    expect(second).toMatchObject({ promoted: 0, demoted: 0 });
  });

  it('ends in the same state after sweeps at t1 and t2 as after one sweep at t2', async () => {
    const [a, b] = [newStore(), newStore()];
    await seedMixed(a);
    await seedMixed(b);
    for (const at of [T0 + HOUR, T0 + 3 * HOUR, T0 + 20 * DAY]) await sweep(a, at);
    await sweep(b, T0 + 20 * DAY);
    const [sa, sb] = [await states(a), await states(b)];
    expect(sa.map((s) => s.tier)).toEqual(sb.map((s) => s.tier));
    const ids = async (s: string) =>
      t.cypher<{ id: string }>('MATCH (m:Memory {store: $s}) RETURN m.id AS id ORDER BY m.content', { s });
    const [ia, ib] = [await ids(a), await ids(b)];
    for (let i = 0; i < ia.length; i++)
      expect(await scoreOf(ia[i]!.id, clock.now)).toBeCloseTo(await scoreOf(ib[i]!.id, clock.now), 12);
  });
});

describe('batches in flight at once (sweepLanes)', () => {
  it('ends in the same state with one lane as with three', async () => {
    const stores = [newStore(), newStore()];
    for (const s of stores) await seedMixed(s);
    const at = T0 + 6 * DAY;
    clock.now = at;
    const reports: SweepReport[] = [];
    for (const [i, store] of stores.entries()) {
      const salience = new Salience({
        graph: t.app.graph,
        bus: t.app.bus,
        config: { ...C(), sweepLanes: [1, 3][i]! },
        clock: () => clock.now,
      });
      reports.push(await salience.sweep(message('SweepDecay', { store, now: at }, 'subconscious')));
      await t.app.bus.idle();
    }
    const counts = reports.map(({ scanned, updated, promoted, demoted, batches }) => ({
      scanned,
      updated,
      promoted,
      demoted,
      batches,
    }));
    expect(counts[1]).toEqual(counts[0]);
    expect(counts[0]!.batches).toBeGreaterThan(3);
    expect(counts[0]!.demoted).toBeGreaterThan(0);
    const [a, b] = [await states(stores[0]!), await states(stores[1]!)];
    const strip = (s: NodeState[]) =>
      s.map(({ content, tier, salience, salienceAt }) => ({ content, tier, salience, salienceAt }));
    expect(strip(b)).toEqual(strip(a));
    expect(a.every((s) => s.tier === 'IDENTITY_CORE' || s.salience !== null)).toBe(true);
  });
});
