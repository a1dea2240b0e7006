import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SALIENCE as C,
  currentSalience,
  salienceConfigFromEnv,
  type ScoringInput,
} from '../../src/contexts/salience/index.js';
import { fold, halfLife, salienceConfigProblems, scoreAt } from '../../src/contexts/salience/testing.js';
import type { Tier } from '../../src/domain/index.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 0, 1);
const DECAYING = ['ACTIVE_CONTEXT', 'LONG_TERM', 'ARCHIVE'] as const;

const memory = (extra: Partial<ScoringInput> = {}): ScoringInput => ({
  tier: 'LONG_TERM',
  createdAt: T0,
  lastAccessedAt: null,
  accessCount: 0,
  claimed: false,
  claimedAt: null,
  tierChangedAt: null,
  salienceAnchor: null,
  salienceUses: null,
  ...extra,
});

/** Times from creation out to ten years, denser early on. */
const TIMES = [0, 1, 60_000, HOUR, 3 * HOUR, DAY, 7 * DAY, 30 * DAY, 90 * DAY, 365 * DAY, 3650 * DAY].map(
  (dt) => T0 + dt,
);

describe('decay (invariant 4: score always decays with time)', () => {
  it.each(DECAYING)('%s: never rises while nothing happens, and falls while above the floor', (tier) => {
    for (const extra of [{}, { claimed: true, claimedAt: T0 }, { accessCount: 5, lastAccessedAt: T0 }]) {
      const scores = TIMES.map((t) => currentSalience(memory({ tier, ...extra }), t, C));
      for (let i = 1; i < scores.length; i++) {
        expect(scores[i]).toBeLessThanOrEqual(scores[i - 1] as number);
        if ((scores[i - 1] as number) > C.floor + 1e-9 && TIMES[i]! - TIMES[i - 1]! >= HOUR)
          expect(scores[i]).toBeLessThan(scores[i - 1] as number);
      }
    }
  });

  it('halves the part above the floor once per half-life', () => {
    const m = memory({ tier: 'LONG_TERM' });
    const above = (t: number) => currentSalience(m, t, C) - C.floor;
    expect(above(T0 + C.halfLifeMs.LONG_TERM) / above(T0)).toBeCloseTo(0.5, 12);
    expect(above(T0 + 3 * C.halfLifeMs.LONG_TERM) / above(T0)).toBeCloseTo(0.125, 12);
  });

  it('starts each tier at its configured score', () => {
    for (const tier of DECAYING) expect(currentSalience(memory({ tier }), T0, C)).toBeCloseTo(C.start[tier], 12);
  });

  it('is bounded below by the floor, so age alone never hides a strong match', () => {
    for (const tier of DECAYING) {
      const ancient = currentSalience(memory({ tier }), T0 + 100 * 365 * DAY, C);
      expect(ancient).toBeGreaterThanOrEqual(C.floor);
      expect(ancient).toBeCloseTo(C.floor, 6);
    }
  });

  it('keeps IDENTITY_CORE flat at 1, whatever happens', () => {
    for (const t of TIMES) {
      expect(currentSalience(memory({ tier: 'IDENTITY_CORE' }), t, C)).toBe(1);
      expect(currentSalience(memory({ tier: 'IDENTITY_CORE', accessCount: 3, lastAccessedAt: T0 }), t, C)).toBe(1);
    }
  });

  it('stays in [0,1] for any input', () => {
    for (const tier of DECAYING) {
      for (const accessCount of [0, 1, 10, 1000]) {
        for (const t of TIMES) {
          const s = currentSalience(
            memory({ tier, accessCount, lastAccessedAt: accessCount ? T0 : null, claimed: true, claimedAt: T0 }),
            t,
            C,
          );
          expect(s).toBeGreaterThanOrEqual(0);
          expect(s).toBeLessThanOrEqual(1);
        }
      }
    }
  });
});

describe('use (invariant 4: access always raises the score)', () => {
  it.each(DECAYING)('%s: an access raises the score then and keeps it higher at every later moment', (tier) => {
    const at = T0 + 10 * DAY;
    const before = memory({ tier, accessCount: 1, lastAccessedAt: T0 + DAY });
    const after = memory({ tier, accessCount: 2, lastAccessedAt: at });
    expect(currentSalience(after, at, C)).toBeGreaterThan(currentSalience(before, at, C));
    for (const t of [at + HOUR, at + 30 * DAY, at + 3650 * DAY]) {
      // Strictly higher until both have faded to the floor (in floating point).
      const [a, b] = [currentSalience(after, t, C), currentSalience(before, t, C)];
      if (a > C.floor) expect(a).toBeGreaterThan(b);
      else expect(a).toBe(b);
    }
  });

  it('gives diminishing returns: each access adds less than the one before', () => {
    const at = T0 + DAY;
    const scores = [0, 1, 2, 3, 4, 5, 10].map((n) =>
      currentSalience(memory({ accessCount: n, lastAccessedAt: n ? at : null }), at, C),
    );
    const gains = scores.slice(1, 6).map((s, i) => s - (scores[i] as number));
    for (let i = 1; i < gains.length; i++) expect(gains[i]).toBeLessThan(gains[i - 1] as number);
    expect(scores[6]).toBeLessThan(1);
  });

  it('makes a much-used memory fade more slowly (stability grows with the log of uses)', () => {
    expect(halfLife('LONG_TERM', false, 10, C)).toBeGreaterThan(halfLife('LONG_TERM', false, 1, C));
    expect(halfLife('LONG_TERM', false, 100, C) / halfLife('LONG_TERM', false, 10, C)).toBeLessThan(
      halfLife('LONG_TERM', false, 10, C) / halfLife('LONG_TERM', false, 1, C),
    );
  });

  it('counts a markUsed report as a use, like a read', () => {
    const at = T0 + 5 * DAY;
    const plain = currentSalience(memory(), at, C);
    const read = currentSalience(memory({ accessCount: 1, lastAccessedAt: at }), at, C);
    const marked = currentSalience(memory({ salienceUses: { count: 1, lastAt: at } }), at, C);
    expect(marked).toBeGreaterThan(plain);
    expect(marked).toBeCloseTo(read, 12);
  });
});

describe('claims (invariant 3: claimed memories decay slower)', () => {
  it.each(DECAYING)('%s: a claimed memory decays claimFactor times slower, and still decays', (tier) => {
    expect(halfLife(tier, true, 0, C)).toBe(C.claimFactor * halfLife(tier, false, 0, C));
    const claimed = memory({ tier, claimed: true, claimedAt: T0 });
    const plain = memory({ tier });
    for (const t of TIMES.slice(1)) {
      const [a, b] = [currentSalience(claimed, t, C), currentSalience(plain, t, C)];
      if (a > C.floor) expect(a).toBeGreaterThan(b);
      else expect(a).toBe(b);
    }
    expect(currentSalience(claimed, T0 + 3650 * DAY, C)).toBeLessThan(currentSalience(claimed, T0 + DAY, C));
  });
});

describe('folding events into the anchor (idempotence)', () => {
  it('gives the same score whether the anchor was moved part-way or not', () => {
    const m = memory({ accessCount: 3, lastAccessedAt: T0 + 2 * DAY, claimed: true, claimedAt: T0 + DAY });
    const mid = fold(m, T0 + 3 * DAY, C);
    const resumed = { ...m, salienceAnchor: mid.anchor };
    for (const t of [T0 + 3 * DAY, T0 + 40 * DAY, T0 + 400 * DAY])
      expect(currentSalience(resumed, t, C)).toBe(currentSalience(m, t, C));
    expect(fold(resumed, T0 + 40 * DAY, C).folded).toBe(0);
  });

  it('lets an event wait until its time has come', () => {
    const m = memory({ accessCount: 1, lastAccessedAt: T0 + 10 * DAY });
    expect(fold(m, T0 + 5 * DAY, C).folded).toBe(0);
    expect(fold(m, T0 + 10 * DAY, C).folded).toBe(1);
  });

  it('carries the score across a demotion it asked for without a jump', () => {
    const down = T0 + 6 * HOUR;
    const before = memory({ tier: 'ACTIVE_CONTEXT' });
    const score = currentSalience(before, down, C);
    expect(score).toBeLessThan(C.thresholds.demoteFromActive);
    const anchor = fold(before, down, C).anchor;
    const after = memory({ tier: 'LONG_TERM', tierChangedAt: down, salienceAnchor: anchor });
    expect(currentSalience(after, down, C)).toBeCloseTo(score, 12);
    // …and then decays at the LONG_TERM rate, much slower.
    const dayLater = currentSalience(after, down + DAY, C);
    expect(dayLater).toBeLessThan(score);
    expect(dayLater).toBeGreaterThan(C.thresholds.demoteToArchive);
  });

  it('caps a memory moved down early (session end, the mind) at the threshold it skipped, and never raises it', () => {
    const down = T0 + 10 * 60_000;
    const active = memory({ tier: 'ACTIVE_CONTEXT' });
    const moved = memory({ tier: 'LONG_TERM', tierChangedAt: down, salienceAnchor: fold(active, down, C).anchor });
    expect(currentSalience(active, down, C)).toBeGreaterThan(C.thresholds.promoteToActive);
    expect(currentSalience(moved, down, C)).toBeCloseTo(C.thresholds.demoteFromActive, 12);
  });

  it('lifts a memory the mind moved up to the promotion threshold it crossed', () => {
    const up = T0 + 500 * DAY;
    const archived = memory({ tier: 'ARCHIVE' });
    const moved = memory({ tier: 'LONG_TERM', tierChangedAt: up, salienceAnchor: fold(archived, up, C).anchor });
    expect(currentSalience(archived, up, C)).toBeLessThan(C.thresholds.promoteFromArchive);
    expect(currentSalience(moved, up, C)).toBeCloseTo(C.thresholds.promoteFromArchive, 12);
  });

  it('folds a tier change from the tier named when no anchor exists yet', () => {
    const up = T0 + 10 * DAY;
    const m = memory({ tier: 'ACTIVE_CONTEXT', tierChangedAt: up });
    const fromArchive = fold(m, up, C, 'ARCHIVE').anchor;
    expect(fromArchive.tier).toBe('ACTIVE_CONTEXT');
    expect(scoreAt(fromArchive, up, C)).toBeCloseTo(C.thresholds.promoteToActive, 12);
  });
});

describe('settings', () => {
  it('accepts the defaults and refuses thresholds without a gap or out of order', () => {
    expect(salienceConfigProblems(C)).toEqual([]);
    const bad = (thresholds: Partial<typeof C.thresholds>) =>
      salienceConfigProblems({ ...C, thresholds: { ...C.thresholds, ...thresholds } });
    expect(bad({ demoteToArchive: 0.5 }).join()).toMatch(/hysteresis/);
    expect(bad({ demoteFromActive: 0.8 }).join()).toMatch(/hysteresis/);
    expect(bad({ demoteFromActive: 0.15 }).join()).toMatch(/demoteToArchive must be below demoteFromActive/);
  });

  it('reads TOTAL_RECALL_SALIENCE_* over the defaults and refuses a bad value', () => {
    const c = salienceConfigFromEnv({
      TOTAL_RECALL_SALIENCE_HALF_LIFE_ACTIVE_HOURS: '0.5',
      TOTAL_RECALL_SALIENCE_FLOOR: '0.05',
    });
    expect(c.halfLifeMs.ACTIVE_CONTEXT).toBe(30 * 60_000);
    expect(c.floor).toBe(0.05);
    expect(c.halfLifeMs.LONG_TERM).toBe(C.halfLifeMs.LONG_TERM);
    expect(() => salienceConfigFromEnv({ TOTAL_RECALL_SALIENCE_FLOOR: 'low' })).toThrow(/must be a number/);
    expect(() => salienceConfigFromEnv({ TOTAL_RECALL_SALIENCE_PROMOTE_TO_ACTIVE: '0.3' })).toThrow(
      /salience settings/,
    );
    expect(salienceConfigFromEnv({ TOTAL_RECALL_SWEEP_LANES: '3' }).sweepLanes).toBe(3);
    expect(() => salienceConfigFromEnv({ TOTAL_RECALL_SWEEP_LANES: '0' })).toThrow(/sweepLanes/);
    expect(() => salienceConfigFromEnv({ TOTAL_RECALL_SWEEP_LANES: '1.5' })).toThrow(/sweepLanes/);
  });

  it('has a half-life for every decaying tier and none for IDENTITY_CORE', () => {
    for (const tier of DECAYING) expect(Number.isFinite(halfLife(tier, false, 0, C))).toBe(true);
    expect(halfLife('IDENTITY_CORE' as Tier, false, 0, C)).toBe(Infinity);
  });
});
