/**
 * What both salience test files share: one app whose clock the tests move, sweeps in small batches, the stores a
 * file made (dropped after it), and the helpers that store, sweep, read scores and seed a mixed store.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { message, type Tier } from '../../src/domain/index.js';
import { currentSalience, type SweepReport } from '../../src/contexts/salience/index.js';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const T0 = Date.UTC(2030, 0, 1);

export let t: TestApp;
export const clock = { now: T0 };
const stores: string[] = [];

/** Registers the file's app (a clock the tests move; small sweep batches) and drops its stores afterwards. */
export function useSalienceApp(): void {
  beforeAll(async () => {
    // Small batches, so a sweep of a test store runs several of them.
    t = await startTestApp({ clock: () => clock.now }, { ...process.env, TOTAL_RECALL_SWEEP_BATCH: '4' });
  });
  afterAll(async () => {
    for (const s of stores) await t.dropStore(s);
    await t.stop();
  });
  beforeEach(() => {
    clock.now = T0;
  });
}

export const C = () => t.config.salience;
export const newStore = () => {
  const s = randomStore('salience');
  stores.push(s);
  return s;
};

export const STORE_MANY = 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }';

export async function remember(store: string, content: string, extra: Record<string, unknown> = {}): Promise<string> {
  const { storeMany } = await t.ok<{ storeMany: { id: string }[] }>(STORE_MANY, {
    inputs: [{ store, content, ...extra }],
  });
  return storeMany[0]!.id;
}

export async function sweep(store: string, at: number): Promise<SweepReport> {
  clock.now = at;
  const report = await t.app.bus.ask(message('SweepDecay', { store, now: at }, 'subconscious'));
  await t.app.bus.idle();
  return report;
}

export interface NodeState {
  content: string;
  tier: Tier;
  salience: number | null;
  salienceAt: number | null;
  anchor: number | null;
  anchorTier: string | null;
}

export async function states(store: string): Promise<NodeState[]> {
  return t.cypher<NodeState>(
    `MATCH (m:Memory {store: $store})
     RETURN m.content AS content, m.tier AS tier, m.salience AS salience, m.salienceAt.epochMillis AS salienceAt,
            m.salienceAnchor AS anchor, m.salienceAnchorTier AS anchorTier
     ORDER BY content`,
    { store },
  );
}

/** The score as Memory.salience would report it at `at`, without recording an access. */
export async function scoreOf(id: string, at: number): Promise<number> {
  const m = await t.app.hippocampus.get(id);
  return currentSalience(m!, at, C());
}

export async function tierChanges(id: string): Promise<{ from: string; to: string; by: string; reason: string }[]> {
  const rows = await t.cypher<{ p: string }>(
    'MATCH (e:Event {memoryId: $id, type: "TierChanged"}) RETURN e.payload AS p ORDER BY e.id',
    { id },
  );
  return rows.map((r) => JSON.parse(r.p));
}

/** A mixed store: every tier, claims, reads, a session. */
export async function seedMixed(store: string): Promise<void> {
  const tiers = ['IDENTITY_CORE', 'ACTIVE_CONTEXT', 'LONG_TERM', 'ARCHIVE'];
  const inputs = Array.from({ length: 22 }, (_, i) => ({
    store,
    content: `memory ${String(i).padStart(2, '0')}`,
    tier: tiers[i % 4],
    sessionId: 's1',
  }));
  const { storeMany } = await t.ok<{ storeMany: { id: string }[] }>(STORE_MANY, { inputs });
  const ids = storeMany.map((m) => m.id);
  // Each memory's own history is what counts (claimed at T0, read an hour later), so the
  // claims go together, then the reads: two round trips' worth of waiting instead of forty.
  clock.now = T0;
  await Promise.all(
    ids.filter((_, i) => i % 3 === 0).map((id) => t.ok('mutation ($id: ID!) { claim(id: $id) { id } }', { id })),
  );
  await t.app.bus.idle(); // the claims are rescored at T0 before the clock moves on
  clock.now = T0 + HOUR;
  await Promise.all(
    ids.filter((_, i) => i % 5 === 0).map((id) => t.ok('query ($id: ID!) { memory(id: $id) { id } }', { id })),
  );
  await t.app.bus.idle();
  clock.now = T0;
}
