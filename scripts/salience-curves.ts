// `npm run docs:salience`: draws docs/salience-curves.svg from the real model
// (the same pure functions the service runs, with the default settings).
// Top: the score of a memory left alone, per tier, with and without a claim,
// on a log time axis. Bottom: one memory's life under use, with a sweep every
// 15 minutes asking for tier changes through the hysteresis rule.
import { writeFileSync } from 'node:fs';
import {
  DEFAULT_SALIENCE as C,
  currentSalience,
  planBatch,
  type ScoringInput,
  type ScoringRow,
} from '../src/contexts/salience/index.js';
import type { Tier } from '../src/domain/index.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;
const T0 = Date.UTC(2026, 0, 1);

const W = 760;
const PANEL = 300;
const M = { left: 56, right: 170, top: 40, bottom: 46 };
const plotW = W - M.left - M.right;
const COLOURS: Record<Tier, string> = {
  IDENTITY_CORE: '#7b3294',
  ACTIVE_CONTEXT: '#d7191c',
  LONG_TERM: '#2c7bb6',
  ARCHIVE: '#636363',
};

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const f = (x: number) => x.toFixed(1);

/** One panel's frame: y axis 0..1 with the floor and the four thresholds dashed. */
function frame(top: number, title: string): { svg: string[]; y: (score: number) => number } {
  const y = (s: number) => top + M.top + (1 - s) * (PANEL - M.top - M.bottom);
  const svg = [`<text x="${M.left}" y="${top + 22}" font-size="15" font-weight="bold">${esc(title)}</text>`];
  for (const s of [0, 0.25, 0.5, 0.75, 1]) {
    svg.push(`<line x1="${M.left}" x2="${M.left + plotW}" y1="${f(y(s))}" y2="${f(y(s))}" stroke="#eee"/>`);
    svg.push(`<text x="${M.left - 8}" y="${f(y(s) + 4)}" font-size="11" text-anchor="end">${s}</text>`);
  }
  const t = C.thresholds;
  const lines: [number, string][] = [
    [t.promoteToActive, `promote to ACTIVE (> ${t.promoteToActive})`],
    [t.promoteFromArchive, `promote from ARCHIVE (> ${t.promoteFromArchive})`],
    [t.demoteFromActive, `demote from ACTIVE (< ${t.demoteFromActive})`],
    [t.demoteToArchive, `demote to ARCHIVE (< ${t.demoteToArchive})`],
    [C.floor, `floor ${C.floor}`],
  ];
  for (const [s, label] of lines) {
    svg.push(
      `<line x1="${M.left}" x2="${M.left + plotW}" y1="${f(y(s))}" y2="${f(y(s))}" stroke="#999" ` +
        `stroke-dasharray="2 3"/>`,
    );
    svg.push(`<text x="${M.left + plotW + 6}" y="${f(y(s) + 3)}" font-size="10" fill="#555">${esc(label)}</text>`);
  }
  svg.push(
    `<text transform="translate(16 ${f(y(0.5))}) rotate(-90)" font-size="12" text-anchor="middle">salience</text>`,
  );
  return { svg, y };
}

const input = (tier: Tier, claimed: boolean): ScoringInput => ({
  tier,
  createdAt: T0,
  lastAccessedAt: null,
  accessCount: 0,
  claimed,
  claimedAt: claimed ? T0 : null,
  tierChangedAt: null,
  salienceAnchor: null,
  salienceUses: null,
});

function decayPanel(top: number): string[] {
  const { svg, y } = frame(top, 'Left alone: decay per tier, claimed at creation (solid) or not (dashed)');
  const from = Math.log10(MINUTE);
  const to = Math.log10(10 * YEAR);
  const x = (dt: number) => M.left + ((Math.log10(dt) - from) / (to - from)) * plotW;
  const ticks: [number, string][] = [
    [MINUTE, '1 min'],
    [HOUR, '1 h'],
    [DAY, '1 day'],
    [7 * DAY, '1 week'],
    [30 * DAY, '1 month'],
    [YEAR, '1 year'],
    [10 * YEAR, '10 years'],
  ];
  for (const [dt, label] of ticks) {
    svg.push(`<line x1="${f(x(dt))}" x2="${f(x(dt))}" y1="${f(y(1))}" y2="${f(y(0))}" stroke="#eee"/>`);
    svg.push(`<text x="${f(x(dt))}" y="${f(y(0) + 16)}" font-size="11" text-anchor="middle">${label}</text>`);
  }
  svg.push(
    `<text x="${M.left + plotW / 2}" y="${f(y(0) + 34)}" font-size="12" text-anchor="middle">time since stored, ` +
      `unused (log scale)</text>`,
  );
  const samples = Array.from({ length: 241 }, (_, i) => 10 ** (from + ((to - from) * i) / 240));
  let legend = 0;
  for (const tier of ['IDENTITY_CORE', 'ACTIVE_CONTEXT', 'LONG_TERM', 'ARCHIVE'] as const) {
    for (const claimed of tier === 'IDENTITY_CORE' ? [false] : [true, false]) {
      const points = samples
        .map((dt) => `${f(x(dt))},${f(y(currentSalience(input(tier, claimed), T0 + dt, C)))}`)
        .join(' ');
      svg.push(
        `<polyline points="${points}" fill="none" stroke="${COLOURS[tier]}" ` +
          `stroke-width="2"${claimed || tier === 'IDENTITY_CORE' ? '' : ' stroke-dasharray="6 4"'}/>`,
      );
    }
    const ly = y(0.42) + legend++ * 15;
    svg.push(
      `<line x1="${M.left + 12}" x2="${M.left + 32}" y1="${f(ly)}" y2="${f(ly)}" ` +
        `stroke="${COLOURS[tier]}" stroke-width="2"/>`,
    );
    svg.push(`<text x="${M.left + 36}" y="${f(ly + 4)}" font-size="10">${tier}</text>`);
  }
  return svg;
}

/** A LONG_TERM memory read five times on day 10, neglected, then read three times on day 100. */
function lifePanel(top: number): string[] {
  const { svg, y } = frame(top, 'One memory under use: reads (▲), sweeps every 15 min, tier changes (│)');
  const span = 120 * DAY;
  const x = (t: number) => M.left + ((t - T0) / span) * plotW;
  for (let d = 0; d <= 120; d += 20) {
    svg.push(`<text x="${f(x(T0 + d * DAY))}" y="${f(y(0) + 16)}" font-size="11" text-anchor="middle">day ${d}</text>`);
  }
  svg.push(
    `<text x="${M.left + plotW / 2}" y="${f(y(0) + 34)}" font-size="12" text-anchor="middle">time (linear)</text>`,
  );
  const reads = [
    ...[0, 1, 2, 3, 4].map((i) => T0 + 10 * DAY + i * 10 * MINUTE),
    ...[0, 1, 2].map((i) => T0 + 100 * DAY + i * 10 * MINUTE),
  ];
  let m: ScoringRow = { id: 'm', store: 's', ...input('LONG_TERM', false), salience: null, salienceAt: null };
  const points: string[] = [];
  const changes: { at: number; to: Tier }[] = [];
  let tier: Tier = m.tier;
  const segments: { from: number; to: number; tier: Tier }[] = [];
  let segmentStart = T0;
  for (let at = T0; at <= T0 + span; at += 15 * MINUTE) {
    for (const r of reads.filter((r) => r > at - 15 * MINUTE && r <= at))
      m = { ...m, accessCount: m.accessCount + 1, lastAccessedAt: r };
    const plan = planBatch([m], at, C, { always: true });
    for (const a of plan.anchors)
      m = {
        ...m,
        salienceAnchor: {
          level: a.level,
          at: a.anchorAt,
          tier: a.anchorTier,
          uses: a.anchorUses,
          claimed: a.anchorClaimed,
        },
      };
    points.push(`${f(x(at))},${f(y(plan.scored.get('m') ?? 0))}`);
    for (const move of plan.moves) {
      m = { ...m, tier: move.to, tierChangedAt: at };
      changes.push({ at, to: move.to });
    }
    if (m.tier !== tier) {
      segments.push({ from: segmentStart, to: at, tier });
      segmentStart = at;
      tier = m.tier;
    }
  }
  segments.push({ from: segmentStart, to: T0 + span, tier });
  for (const s of segments) {
    svg.push(
      `<rect x="${f(x(s.from))}" y="${f(y(0) + 2)}" width="${f(Math.max(1, x(s.to) - x(s.from)))}" height="5" ` +
        `fill="${COLOURS[s.tier]}"/>`,
    );
  }
  svg.push(`<polyline points="${points.join(' ')}" fill="none" stroke="#222" stroke-width="1.6"/>`);
  for (const r of reads)
    svg.push(`<text x="${f(x(r))}" y="${f(y(1) - 4)}" font-size="9" text-anchor="middle" fill="#222">▲</text>`);
  changes.forEach((c, i) => {
    svg.push(
      `<line x1="${f(x(c.at))}" x2="${f(x(c.at))}" y1="${f(y(1))}" y2="${f(y(0))}" ` +
        `stroke="${COLOURS[c.to]}" stroke-width="1"/>`,
    );
    svg.push(
      `<text x="${f(x(c.at) + 4)}" y="${f(y(0.97) + (i % 3) * 13)}" font-size="10" ` +
        `fill="${COLOURS[c.to]}">→ ${c.to}</text>`,
    );
  });
  svg.push(`<text x="${M.left + plotW + 6}" y="${f(y(0) + 24)}" font-size="10">bar: tier over time</text>`);
  return svg;
}

const height = 2 * PANEL + 20;
const svg = [
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" ` +
    `font-family="Helvetica, Arial, sans-serif">`,
  `<rect width="${W}" height="${height}" fill="white"/>`,
  ...decayPanel(0),
  ...lifePanel(PANEL + 20),
  `</svg>`,
].join('\n');
writeFileSync(new URL('../docs/salience-curves.svg', import.meta.url), `${svg}\n`);
console.log('docs/salience-curves.svg written');
