/**
 * Fitting and checking confidence: a logistic model fitted by Newton's method
 * (a handful of weights, a little L2), reliability per decile, the expected
 * calibration error and a reliability plot as SVG.
 */
export interface Example {
  readonly features: readonly number[];
  readonly label: 0 | 1;
  /** The confidence the service gave (or a model predicts). */
  readonly confidence: number;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * [bias, ...weights] maximising the log-likelihood with an L2 penalty on the weights; `weight` per example (default 1).
 */
export function fitLogistic(
  examples: readonly Example[],
  l2 = 1e-3,
  weightOf: (e: Example) => number = () => 1,
): number[] {
  const d = (examples[0]?.features.length ?? 0) + 1;
  const w = new Array<number>(d).fill(0);
  const total = examples.reduce((s, e) => s + weightOf(e), 0) || 1;
  for (let it = 0; it < 50; it++) {
    const grad = new Array<number>(d).fill(0);
    const hess = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (const e of examples) {
      const x = [1, ...e.features];
      const p = sigmoid(x.reduce((s, xi, i) => s + xi * w[i]!, 0));
      const c = weightOf(e) / total;
      for (let i = 0; i < d; i++) {
        grad[i]! += c * (p - e.label) * x[i]!;
        for (let j = 0; j < d; j++) hess[i]![j]! += c * p * (1 - p) * x[i]! * x[j]!;
      }
    }
    for (let i = 1; i < d; i++) {
      grad[i]! += l2 * w[i]!;
      hess[i]![i]! += l2;
    }
    for (let i = 0; i < d; i++) hess[i]![i]! += 1e-9;
    const step = solve(hess, grad);
    let moved = 0;
    for (let i = 0; i < d; i++) {
      w[i]! -= step[i]!;
      moved = Math.max(moved, Math.abs(step[i]!));
    }
    if (moved < 1e-7) break;
  }
  return w;
}

/**
 * fitLogistic with the named weights kept non-negative: a feature whose
 * weight comes out negative is held at 0 and the rest refitted, since these
 * are evidence for a memory (an exact name, a date, an association) and a
 * quirk of the data must not turn them into evidence against it.
 */
export function fitNonNegative(
  examples: readonly Example[],
  nonNegative: readonly number[],
  l2 = 1e-3,
  weightOf: (e: Example) => number = () => 1,
): number[] {
  const held = new Set<number>();
  for (;;) {
    const shown = examples.map((e) => ({ ...e, features: e.features.map((x, i) => (held.has(i) ? 0 : x)) }));
    const w = fitLogistic(shown, l2, weightOf);
    const negative = nonNegative.filter((i) => !held.has(i) && w[i + 1]! < 0);
    if (negative.length === 0) return w.map((x, i) => (i > 0 && held.has(i - 1) ? 0 : x));
    for (const i of negative) held.add(i);
  }
}

/** Gaussian elimination with partial pivoting: A x = b. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

export interface Bin {
  readonly from: number;
  readonly to: number;
  readonly count: number;
  /** Mean predicted confidence in the bin. */
  readonly predicted: number;
  /** Share of the bin's hits that are the answer. */
  readonly observed: number;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** Predicted confidence against the observed share, per decile of confidence. */
export function reliability(examples: readonly Example[]): Bin[] {
  return Array.from({ length: 10 }, (_, i) => {
    const from = i / 10;
    const to = (i + 1) / 10;
    const inBin = examples.filter((e) => e.confidence >= from && (e.confidence < to || (i === 9 && e.confidence <= 1)));
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
    return {
      from,
      to,
      count: inBin.length,
      predicted: r3(mean(inBin.map((e) => e.confidence))),
      observed: r3(mean(inBin.map((e) => e.label))),
    };
  });
}

/** Expected calibration error: the count-weighted mean gap between predicted and observed over the deciles. */
export function expectedCalibrationError(bins: readonly Bin[]): number {
  const n = bins.reduce((s, b) => s + b.count, 0);
  if (n === 0) return NaN;
  return r3(bins.reduce((s, b) => s + (b.count > 0 ? (b.count / n) * Math.abs(b.predicted - b.observed) : 0), 0));
}

/** A reliability table's rows: confidence range, hits, mean predicted, observed share. */
export const reliabilityRows = (bins: readonly Bin[]) =>
  bins.map((b) => [
    `${b.from.toFixed(1)}–${b.to.toFixed(1)}`,
    b.count,
    Number.isNaN(b.predicted) ? '–' : b.predicted,
    Number.isNaN(b.observed) ? '–' : b.observed,
  ]);
/** Its header. */
export const RELIABILITY_HEADER = ['confidence', 'hits', 'mean predicted', 'observed share'];

/** A reliability diagram: one line per band, the diagonal for perfect calibration. */
export function reliabilitySvg(series: readonly { name: string; bins: readonly Bin[] }[]): string {
  const size = 360;
  const pad = 48;
  const x = (v: number) => pad + v * (size - 2 * pad);
  const y = (v: number) => size - pad - v * (size - 2 * pad);
  const colours = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b'];
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size + 170}" height="${size}" viewBox="0 0 ${size + 170} ` +
      `${size}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#999" stroke-dasharray="4 3"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(0)}" stroke="black"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(0)}" y2="${y(1)}" stroke="black"/>`,
  ];
  for (let t = 0; t <= 10; t += 2) {
    parts.push(`<text x="${x(t / 10)}" y="${y(0) + 14}" text-anchor="middle">${t / 10}</text>`);
    parts.push(`<text x="${x(0) - 6}" y="${y(t / 10) + 4}" text-anchor="end">${t / 10}</text>`);
  }
  parts.push(
    `<text x="${size / 2}" y="${size - 8}" text-anchor="middle">predicted confidence (mean per decile)</text>`,
  );
  parts.push(
    `<text x="12" y="${size / 2}" text-anchor="middle" transform="rotate(-90 12 ${size / 2})">observed ` +
      `share that answers</text>`,
  );
  series.forEach((s, i) => {
    const colour = colours[i % colours.length];
    const pts = s.bins.filter((b) => b.count > 0);
    parts.push(
      `<polyline fill="none" stroke="${colour}" stroke-width="1.5" ` +
        `points="${pts.map((b) => `${x(b.predicted).toFixed(1)},${y(b.observed).toFixed(1)}`).join(' ')}"/>`,
    );
    for (const b of pts)
      parts.push(
        `<circle cx="${x(b.predicted).toFixed(1)}" cy="${y(b.observed).toFixed(1)}" ` +
          `r="${Math.min(6, 1.5 + Math.log10(b.count + 1))}" fill="${colour}"/>`,
      );
    parts.push(
      `<rect x="${size - 20}" y="${pad + i * 18 - 8}" width="10" height="10" fill="${colour}"/><text x="${size - 4}" ` +
        `y="${pad + i * 18 + 1}">${s.name}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
