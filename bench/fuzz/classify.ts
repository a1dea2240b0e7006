// Sorts each answer: answered, typed error, untyped error; and keeps the slowest requests.

export const tally = {
  sent: 0,
  ok: 0,
  typedErrors: 0,
  untyped: 0,
  crashes: 0,
  byCode: new Map<string, number>(),
  byStatus: new Map<number, number>(),
};
export const untypedSamples: string[] = [];
export function classify(status: number, text: string): { refused: boolean } {
  tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
  let parsed: { data?: unknown; errors?: { message?: string; extensions?: { code?: unknown } }[] } | null = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (!parsed || (status >= 500 && status !== 503)) {
    tally.untyped += 1;
    if (untypedSamples.length < 10) untypedSamples.push(`${status} ${text.slice(0, 300)}`);
    return { refused: true };
  }
  const errors = parsed.errors ?? [];
  if (errors.length === 0) {
    tally.ok += 1;
    return { refused: false };
  }
  for (const e of errors) {
    const code = e.extensions?.code;
    if (typeof code !== 'string' || code === 'INTERNAL_SERVER_ERROR') {
      tally.untyped += 1;
      if (untypedSamples.length < 10) untypedSamples.push(`${status} ${JSON.stringify(e).slice(0, 300)}`);
    } else {
      tally.typedErrors += 1;
      tally.byCode.set(code, (tally.byCode.get(code) ?? 0) + 1);
    }
  }
  // A response with errors and no data for any root field: the call was refused.
  const data = parsed.data as Record<string, unknown> | null | undefined;
  return { refused: !data || Object.values(data).every((v) => v === null) };
}

/** The slowest requests, so a request shape that stalls the service can be found. */
export const slowest: { ms: number; status: number; body: string }[] = [];
export function noteSlow(ms: number, body: string, status: number): void {
  if (slowest.length >= 8 && ms <= (slowest[slowest.length - 1]?.ms ?? 0)) return;
  slowest.push({
    ms: Math.round(ms),
    status,
    body: body.length > 400 ? `${body.slice(0, 400)}… (${body.length} chars)` : body,
  });
  slowest.sort((a, b) => b.ms - a.ms);
  slowest.length = Math.min(slowest.length, 8);
}
