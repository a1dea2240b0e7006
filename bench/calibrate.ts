/** Logistic calibration of confidence and its reliability table. */
export interface Example {
  readonly features: readonly number[];
  readonly label: 0 | 1;
  readonly confidence: number;
}

/** Fits [bias, ...weights] by batch gradient descent with a little L2. */
export function fitLogistic(examples: readonly Example[], iterations = 20_000, rate = 0.5, l2 = 1e-4): number[] {
  const d = examples[0]?.features.length ?? 0;
  const w = new Array<number>(d + 1).fill(0);
  for (let it = 0; it < iterations; it++) {
    const grad = new Array<number>(d + 1).fill(0);
    for (const e of examples) {
      const z = w[0]! + e.features.reduce((s, x, i) => s + x * w[i + 1]!, 0);
      const err = 1 / (1 + Math.exp(-z)) - e.label;
      grad[0]! += err;
      e.features.forEach((x, i) => (grad[i + 1]! += err * x));
    }
    for (let i = 0; i <= d; i++) w[i]! -= rate * (grad[i]! / examples.length + (i > 0 ? l2 * w[i]! : 0));
  }
  return w;
}

export function reliability(examples: readonly Example[], thresholds = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]) {
  return thresholds.map((threshold) => {
    const above = examples.filter((e) => e.confidence >= threshold);
    const precision = above.length ? Math.round((above.filter((e) => e.label === 1).length / above.length) * 1000) / 1000 : NaN;
    return { threshold, count: above.length, precision };
  });
}
