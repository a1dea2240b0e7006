/**
 * A one-page HTML report of a store: counts by tier over time, the salience
 * distribution, association degrees, what faded. Charts are Vega-Lite specs
 * rendered to SVG by Vega in Node (no browser); the numbers come from four
 * read-only statements.
 */
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { toMemoryRecord, type GraphPort, type MemoryRecord } from '../../domain/index.js';
import { Q } from './cypher.js';

export interface StoreReportData {
  readonly store: string;
  readonly generatedAt: number;
  readonly tierWeeks: readonly { week: string; tier: string; memories: number }[];
  readonly salienceBins: readonly { tier: string; bin: number; memories: number }[];
  readonly degrees: readonly { degree: number; memories: number }[];
  readonly faded: readonly { at: number; id: string; content: string; from: string; to: string; reason: string }[];
}

const DAY = 86_400_000;
const TIER_COLOURS = {
  domain: ['IDENTITY_CORE', 'ACTIVE_CONTEXT', 'LONG_TERM', 'ARCHIVE'],
  range: ['#C0392B', '#F5B041', '#2E86C1', '#7F8C8D'],
};

/** Memories per tier and salience bin of 0.05 (the last bin holds 1.0). */
const STYLE =
  '<style>body{font-family:sans-serif;max-width:1150px;margin:2em auto;color:#1c2833}' +
  '.charts{display:grid;grid-template-columns:1fr 1fr;gap:1em}\n' +
  'table{border-collapse:collapse;width:100%;font-size:13px}' +
  'td,th{border-bottom:1px solid #ddd;padding:4px;text-align:left;vertical-align:top}</style>';

export function salienceBins(
  scored: readonly { tier: string; salience: number }[],
): { tier: string; bin: number; memories: number }[] {
  const counts = new Map<string, { tier: string; bin: number; memories: number }>();
  for (const { tier, salience } of scored) {
    const bin = Math.min(19, Math.max(0, Math.floor(salience * 20))) / 20;
    const key = `${tier}|${bin}`;
    const entry = counts.get(key) ?? { tier, bin, memories: 0 };
    entry.memories += 1;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => a.tier.localeCompare(b.tier) || a.bin - b.bin);
}

/** The report's numbers; `salienceOf` is Salience's read model (the score decayed to now). */
export async function readStoreReport(
  graph: GraphPort,
  store: string,
  now: number,
  salienceOf: (memory: MemoryRecord, now: number) => number,
  fadedDays = 7,
): Promise<StoreReportData> {
  const [tierWeeks, memories, degrees, faded] = await Promise.all([
    graph.read<{ week: string; tier: string; memories: number }>(Q.tierWeeks, { store }),
    graph.read<{ memory: Record<string, unknown> }>(Q.memoryScores, { store }),
    graph.read<{ degree: number; memories: number }>(Q.associationDegrees, { store }),
    graph.read<{ at: number; id: string; content: string; payload: string }>(Q.faded, {
      store,
      since: now - fadedDays * DAY,
      limit: 50,
    }),
  ]);
  return {
    store,
    generatedAt: now,
    tierWeeks: tierWeeks.map((r) => ({ ...r, memories: Number(r.memories) })),
    salienceBins: salienceBins(
      memories.map((r) => toMemoryRecord(r.memory)).map((m) => ({ tier: m.tier, salience: salienceOf(m, now) })),
    ),
    degrees: degrees.map((r) => ({ degree: Number(r.degree), memories: Number(r.memories) })),
    faded: faded.map((r) => {
      const p = JSON.parse(r.payload) as { from?: string; to?: string; reason?: string };
      return {
        at: Number(r.at),
        id: r.id,
        content: r.content,
        from: p.from ?? '',
        to: p.to ?? '',
        reason: p.reason ?? '',
      };
    }),
  };
}

/** The report's charts as Vega-Lite specs (data inline). */
export function chartSpecs(data: StoreReportData): Record<'tiers' | 'salience' | 'degrees', TopLevelSpec> {
  const common = { width: 430, height: 200, config: { font: 'sans-serif', legend: { orient: 'bottom' } } } as const;
  return {
    tiers: {
      ...common,
      title: 'Memories stored per week, by the tier they are in now',
      data: { values: [...data.tierWeeks] },
      mark: 'bar',
      encoding: {
        x: { field: 'week', type: 'ordinal', title: 'week stored' },
        y: { field: 'memories', type: 'quantitative', title: 'memories' },
        color: { field: 'tier', type: 'nominal', scale: TIER_COLOURS },
      },
    },
    salience: {
      ...common,
      title: 'Salience now (decayed to this moment), by tier',
      data: { values: [...data.salienceBins] },
      mark: 'bar',
      encoding: {
        x: {
          field: 'bin',
          type: 'quantitative',
          bin: { binned: true, step: 0.05 },
          scale: { domain: [0, 1] },
          title: 'salience',
        },
        x2: { datum: 0 },
        y: { field: 'memories', type: 'quantitative', stack: true, title: 'memories' },
        color: { field: 'tier', type: 'nominal', scale: TIER_COLOURS },
      },
    },
    degrees: {
      ...common,
      title: 'Association degree: how many memories have n associations',
      data: { values: [...data.degrees] },
      mark: 'bar',
      encoding: {
        x: { field: 'degree', type: 'ordinal', title: 'associations' },
        y: { field: 'memories', type: 'quantitative', title: 'memories' },
      },
    },
  };
}

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export async function reportHtml(data: StoreReportData): Promise<string> {
  const specs = chartSpecs(data);
  const [tiers, salience, degrees] = await Promise.all([
    renderSvg(specs.tiers),
    renderSvg(specs.salience),
    renderSvg(specs.degrees),
  ]);
  const total = data.tierWeeks.reduce((n, r) => n + r.memories, 0);
  const fadedRows = data.faded
    .map(
      (f) =>
        `<tr><td>${new Date(f.at).toISOString().slice(0, 16).replace('T', ' ')}</td>` +
        `<td>${escapeXml(f.from)} → ${escapeXml(f.to)}</td><td>${escapeXml(f.content)}</td>` +
        `<td>${escapeXml(f.reason)}</td></tr>`,
    )
    .join('\n');
  const fadedTable =
    data.faded.length === 0
      ? '<p>Nothing: no memory was moved into the archive or out of the active context.</p>'
      : `<table><tr><th>when (UTC)</th><th>tier</th><th>memory</th><th>why</th></tr>\n${fadedRows}</table>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Total Recall report: ${escapeXml(data.store)}</title>
${STYLE}</head>
<body>
<h1>Store “${escapeXml(data.store)}”</h1>
<p>${total} memories · generated ${new Date(data.generatedAt).toISOString()}</p>
<div class="charts">
<figure>${tiers}</figure>
<figure>${salience}</figure>
<figure>${degrees}</figure>
<section><h2>What faded in the last seven days</h2>
${fadedTable}
</section>
</div>
</body></html>
`;
}
