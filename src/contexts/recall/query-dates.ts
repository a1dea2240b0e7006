/**
 * Dates a question names ("on 3 June, 2023", "in May 2023", "2023-06-03"):
 * a memory that happened then is more likely what the question is about.
 * Only dates with a year count: a bare "May" is as likely the verb, and a
 * month without a year could be any of them. Relative dates ("last week")
 * are left alone: they need the asker's own now and time zone.
 */

export interface TimeSpan {
  /** Epoch ms, inclusive. */
  readonly from: number;
  /** Epoch ms, exclusive. */
  readonly to: number;
}

export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH = `(${MONTHS.join('|')}|sept|${MONTHS.map((m) => m.slice(0, 3)).join('|')})\\.?`;
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '(\\d{4})';
/** A day names the same date everywhere only within ±14 h of UTC: the asker's zone is unknown. */
export const ZONE_SLACK_MS = 14 * 3_600_000;

const PATTERNS: readonly { re: RegExp; span: (m: RegExpExecArray) => [number, number, number | null] }[] = [
  // 3 June 2023, 3rd of June, 2023
  {
    re: new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH},?\\s+${YEAR}\\b`, 'gi'),
    span: (m) => [Number(m[3]), monthOf(m[2]!), Number(m[1])],
  },
  // June 3, 2023
  {
    re: new RegExp(`\\b${MONTH}\\s+${DAY},?\\s+${YEAR}\\b`, 'gi'),
    span: (m) => [Number(m[3]), monthOf(m[1]!), Number(m[2])],
  },
  // 2023-06-03, also as the date of a timestamp (2023-06-03T10:00:00Z)
  { re: /\b(\d{4})-(\d{2})-(\d{2})(?:\b|(?=T\d))/g, span: (m) => [Number(m[1]), Number(m[2]) - 1, Number(m[3])] },
  // June 2023 (no day)
  { re: new RegExp(`\\b${MONTH},?\\s+${YEAR}\\b`, 'gi'), span: (m) => [Number(m[2]), monthOf(m[1]!), null] },
];

function monthOf(name: string): number {
  const key = name
    .toLowerCase()
    .replace('.', '')
    .replace(/^sept$/, 'sep');
  return MONTHS.findIndex((m) => m === key || m.slice(0, 3) === key);
}

/**
 * The spans of time a question names, each widened by the time-zone slack; none when it names no dated day or month.
 */
export function datesNamed(question: string): TimeSpan[] {
  const spans: TimeSpan[] = [];
  // character ranges already read as a date ("3 June 2023" is not also "June 2023")
  const taken: [number, number][] = [];
  for (const { re, span } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(question); m; m = re.exec(question)) {
      const start = m.index;
      const end = start + m[0].length;
      if (taken.some(([a, b]) => start < b && end > a)) continue;
      const [year, month, day] = span(m);
      if (month < 0 || month > 11 || year < 1000 || (day !== null && (day < 1 || day > 31))) continue;
      const from = day === null ? Date.UTC(year, month, 1) : Date.UTC(year, month, day);
      const to = day === null ? Date.UTC(year, month + 1, 1) : Date.UTC(year, month, day + 1);
      if (day !== null && new Date(from).getUTCMonth() !== month) continue; // 31 June
      taken.push([start, end]);
      spans.push({ from: from - ZONE_SLACK_MS, to: to + ZONE_SLACK_MS });
    }
  }
  return spans;
}

/** 1 when the memory happened within one of the spans, else 0. */
export function inSpans(occurredAt: number, spans: readonly TimeSpan[]): number {
  return spans.some((s) => occurredAt >= s.from && occurredAt < s.to) ? 1 : 0;
}
