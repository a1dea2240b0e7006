import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SALIENCE as C,
  currentSalience,
  planBatch,
  type ScoringRow,
} from '../../src/contexts/salience/index.js';
import { decideTier } from '../../src/contexts/salience/testing.js';
import { checkTierChange } from '../../src/contexts/hippocampus/testing.js';
import { TIERS, type Tier } from '../../src/domain/index.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 0, 1);
const t = C.thresholds;

const row = (extra: Partial<ScoringRow> = {}): ScoringRow => ({
  id: 'm1',
  store: 's',
  tier: 'LONG_TERM',
  createdAt: T0,
  lastAccessedAt: null,
  accessCount: 0,
  claimed: false,
  claimedAt: null,
  tierChangedAt: null,
  salienceAnchor: null,
  salienceUses: null,
  salience: null,
  salienceAt: null,
  ...extra,
});

/**
 * A memory living through time as the database would keep it: a sweep at each
 * moment writes Salience's properties and applies the tier changes it asks for
 * (as Hippocampus would), accesses land on the node. Returns the tier changes.
 */
function live(start: ScoringRow, moments: readonly { at: number; access?: boolean; sweep?: boolean }[]) {
  let m = start;
  const moves: { at: number; from: Tier; to: Tier }[] = [];
  for (const { at, access, sweep = true } of moments) {
    if (access) m = { ...m, accessCount: m.accessCount + 1, lastAccessedAt: at };
    if (!sweep) continue;
    const plan = planBatch([m], at, C);
    for (const a of plan.anchors) {
      m = {
        ...m,
        salience: a.salience,
        salienceAt: at,
        salienceAnchor: {
          level: a.level,
          at: a.anchorAt,
          tier: a.anchorTier,
          uses: a.anchorUses,
          claimed: a.anchorClaimed,
        },
      };
    }
    for (const s of plan.scores) m = { ...m, salience: s.salience, salienceAt: at };
    for (const move of plan.moves) {
      expect(checkTierChange(move.from, move.to, 'SALIENCE').ok).toBe(true);
      moves.push({ at, from: move.from, to: move.to });
      m = { ...m, tier: move.to, tierChangedAt: at };
    }
  }
  return { memory: m, moves };
}

const every = (from: number, to: number, step: number) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => ({ at: from + i * step }));

describe('the tier decision', () => {
  it('promotes above P and demotes below D, with D < P on every boundary', () => {
    expect(t.demoteFromActive).toBeLessThan(t.promoteToActive);
    expect(t.demoteToArchive).toBeLessThan(t.promoteFromArchive);
    expect(decideTier({ tier: 'LONG_TERM', score: t.promoteToActive + 0.01, claimed: false }, C)).toMatchObject({
      kind: 'PROMOTE',
      to: 'ACTIVE_CONTEXT',
    });
    expect(decideTier({ tier: 'LONG_TERM', score: t.demoteToArchive - 0.01, claimed: false }, C)).toMatchObject({
      kind: 'DEMOTE',
      to: 'ARCHIVE',
    });
    expect(decideTier({ tier: 'ACTIVE_CONTEXT', score: t.demoteFromActive - 0.01, claimed: true }, C)).toMatchObject({
      kind: 'DEMOTE',
      to: 'LONG_TERM',
    });
    expect(decideTier({ tier: 'ARCHIVE', score: t.promoteFromArchive + 0.01, claimed: false }, C)).toMatchObject({
      kind: 'PROMOTE',
      to: 'LONG_TERM',
    });
  });

  it('leaves a memory between its two thresholds where it is', () => {
    for (let score = t.demoteToArchive; score <= t.promoteToActive; score += 0.01) {
      expect(decideTier({ tier: 'LONG_TERM', score, claimed: false }, C).kind).toBe('STAY');
    }
    for (let score = t.demoteFromActive; score <= 1; score += 0.01)
      expect(decideTier({ tier: 'ACTIVE_CONTEXT', score, claimed: false }, C).kind).toBe('STAY');
  });

  it('never touches IDENTITY_CORE, keeps ARCHIVE as the floor, never promotes into IDENTITY_CORE', () => {
    for (const score of [0, C.floor, 0.5, 1]) {
      expect(decideTier({ tier: 'IDENTITY_CORE', score, claimed: false, sessionEnded: true }, C).kind).toBe('STAY');
      expect(
        decideTier({ tier: 'ARCHIVE', score: Math.min(score, t.promoteFromArchive), claimed: false }, C).kind,
      ).toBe('STAY');
      expect(decideTier({ tier: 'ACTIVE_CONTEXT', score, claimed: false }, C)).not.toMatchObject({
        to: 'IDENTITY_CORE',
      });
    }
  });

  it('moves an ended session’s working memory down unless claimed', () => {
    expect(decideTier({ tier: 'ACTIVE_CONTEXT', score: 0.99, claimed: false, sessionEnded: true }, C)).toMatchObject({
      kind: 'DEMOTE',
      to: 'LONG_TERM',
    });
    expect(decideTier({ tier: 'ACTIVE_CONTEXT', score: 0.99, claimed: true, sessionEnded: true }, C).kind).toBe('STAY');
    expect(decideTier({ tier: 'LONG_TERM', score: 0.5, claimed: false, sessionEnded: true }, C).kind).toBe('STAY');
  });

  it('only ever asks for moves the tier rules allow', () => {
    for (const tier of TIERS) {
      for (let score = 0; score <= 1; score += 0.05) {
        for (const sessionEnded of [false, true]) {
          const d = decideTier({ tier, score, claimed: false, sessionEnded }, C);
          if (d.kind !== 'STAY') expect(checkTierChange(tier, d.to, 'SALIENCE')).toEqual({ ok: true });
        }
      }
    }
  });
});

describe('hysteresis over time (no bounce at a threshold)', () => {
  it('demotes a neglected working memory once, then lets it rest in LONG_TERM', () => {
    const { moves } = live(row({ tier: 'ACTIVE_CONTEXT' }), every(T0, T0 + 7 * DAY, 15 * 60_000));
    expect(moves).toEqual([expect.objectContaining({ from: 'ACTIVE_CONTEXT', to: 'LONG_TERM' })]);
  });

  it('takes a neglected LONG_TERM memory to ARCHIVE once and leaves it there for years', () => {
    const { memory, moves } = live(row(), every(T0, T0 + 5 * 365 * DAY, DAY));
    expect(moves.map((m) => `${m.from}→${m.to}`)).toEqual(['LONG_TERM→ARCHIVE']);
    expect(memory.tier).toBe('ARCHIVE');
    expect(currentSalience(memory, T0 + 5 * 365 * DAY, C)).toBeGreaterThanOrEqual(C.floor);
  });

  it('does not send a memory straight back when one access lifts it just over the threshold it crossed', () => {
    const start = row();
    const { memory, moves } = live(start, every(T0, T0 + 200 * DAY, DAY));
    expect(moves).toHaveLength(1);
    const down = moves[0]!.at;
    // Right after the demotion one read lifts the score above demoteToArchive: it stays in ARCHIVE.
    const after = live(memory, [{ at: down + DAY, access: true }, ...every(down + 2 * DAY, down + 30 * DAY, DAY)]);
    expect(currentSalience(after.memory, down + DAY, C)).toBeGreaterThan(t.demoteToArchive);
    expect(after.moves).toEqual([]);
  });

  it('promotes a memory that is used again and again, one tier at a time', () => {
    const start = row({ tier: 'ARCHIVE' });
    const reads = Array.from({ length: 12 }, (_, i) => ({ at: T0 + DAY + i * HOUR, access: true }));
    const { moves } = live(start, reads);
    expect(moves.map((m) => `${m.from}→${m.to}`)).toEqual(['ARCHIVE→LONG_TERM', 'LONG_TERM→ACTIVE_CONTEXT']);
  });

  it('keeps a claimed working memory longer than an unclaimed one', () => {
    const sweeps = every(T0, T0 + 3 * DAY, 15 * 60_000);
    const plain = live(row({ tier: 'ACTIVE_CONTEXT' }), sweeps).moves[0]!.at;
    const claimed = live(row({ tier: 'ACTIVE_CONTEXT', claimed: true, claimedAt: T0 }), sweeps).moves[0]!.at;
    expect(claimed - T0).toBeGreaterThan(3 * (plain - T0));
  });
});

describe('batch plans', () => {
  it('writes nothing the second time a sweep runs at the same moment (idempotent)', () => {
    const at = T0 + 45 * DAY;
    const rows = [
      row({ id: 'a' }),
      row({ id: 'b', accessCount: 2, lastAccessedAt: T0 + DAY }),
      row({ id: 'c', tier: 'ARCHIVE' }),
    ];
    const first = planBatch(rows, at, C);
    expect(first.scores.length + first.anchors.length).toBe(3);
    const written = rows.map((r) => {
      const a = first.anchors.find((x) => x.id === r.id);
      const s = first.scores.find((x) => x.id === r.id) ?? a;
      return {
        ...r,
        salience: s?.salience ?? r.salience,
        salienceAt: at,
        salienceAnchor: a
          ? { level: a.level, at: a.anchorAt, tier: a.anchorTier, uses: a.anchorUses, claimed: a.anchorClaimed }
          : r.salienceAnchor,
      };
    });
    const second = planBatch(written, at, C);
    expect(second.scores).toEqual([]);
    expect(second.anchors).toEqual([]);
    expect([...second.scored]).toEqual([...first.scored]);
  });

  it('settles a memory in one sweep after a long pause, one tier per step', () => {
    const plan = planBatch([row({ tier: 'ACTIVE_CONTEXT' })], T0 + 30 * DAY, C);
    expect(plan.moves.map((m) => `${m.step}:${m.from}→${m.to}`)).toEqual([
      '0:ACTIVE_CONTEXT→LONG_TERM',
      '1:LONG_TERM→ARCHIVE',
    ]);
    const up = planBatch([row({ tier: 'ARCHIVE', accessCount: 12, lastAccessedAt: T0 + DAY })], T0 + DAY, C);
    expect(up.moves.map((m) => `${m.step}:${m.from}→${m.to}`)).toEqual([
      '0:ARCHIVE→LONG_TERM',
      '1:LONG_TERM→ACTIVE_CONTEXT',
    ]);
  });

  it('keeps the anchor of a memory it is about to move, so the move folds in from the right tier', () => {
    const plan = planBatch([row({ tier: 'ACTIVE_CONTEXT' })], T0 + 4 * HOUR, C);
    expect(plan.moves).toHaveLength(1);
    expect(plan.anchors[0]).toMatchObject({ anchorTier: 'ACTIVE_CONTEXT', anchorAt: T0 });
  });

  it('skips rewriting a score that moved less than sweepEpsilon', () => {
    const at = T0 + 100 * DAY;
    const m = row({ tier: 'ARCHIVE', salience: currentSalience(row({ tier: 'ARCHIVE' }), at, C), salienceAt: at });
    expect(planBatch([m], at + HOUR, C).scores).toEqual([]);
    expect(planBatch([m], at + 30 * DAY, C).scores).toHaveLength(1);
  });
});
