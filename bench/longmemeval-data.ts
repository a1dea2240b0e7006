/**
 * The LongMemEval sample (../shared/data/longmemeval/dev-sample.json, read at run time, never copied): chat
 * histories of about 500 user and assistant turns, each with a question whose evidence turns are marked.
 * bench:longmemeval asks N questions spread evenly over the file (it is ordered by question type); the
 * calibration fits on the others, so the questions LongMemEval reports were never fitted on.
 */
import { readFileSync } from 'node:fs';

export interface LongMemEvalTurn {
  role: string;
  content: string;
  has_answer?: boolean;
}
export interface LongMemEvalItem {
  question_id: string;
  question_type: string;
  question: string;
  haystack_sessions: LongMemEvalTurn[][];
  haystack_session_ids: string[];
  haystack_dates: string[];
  answer_session_ids: string[];
}

export const LONGMEMEVAL_FILE = new URL('../../shared/data/longmemeval/dev-sample.json', import.meta.url).pathname;

/** How many questions bench:longmemeval asks by default (and the calibration leaves out). */
export const LONGMEMEVAL_ASKED = 30;

export function loadLongMemEval(file = LONGMEMEVAL_FILE): LongMemEvalItem[] {
  return JSON.parse(readFileSync(file, 'utf8')) as LongMemEvalItem[];
}

/** N items spread evenly over the list (all when N is at least its length). */
export function spread<T>(all: readonly T[], n: number): T[] {
  if (n >= all.length) return [...all];
  return all.filter((_, i) => Math.floor((i * n) / all.length) !== Math.floor(((i - 1) * n) / all.length));
}

/** The questions bench:longmemeval asks by default: the calibration never fits on them. */
export const neverFitted = (all: readonly LongMemEvalItem[]): ReadonlySet<LongMemEvalItem> =>
  new Set(spread(all, LONGMEMEVAL_ASKED));

/** A turn as the service stores it: "<role>: <content>". */
export const turnContent = (t: LongMemEvalTurn) => `${t.role}: ${t.content}`.slice(0, 60_000);

/** "2023/05/20 (Sat) 02:21" → ISO. */
export function sessionDate(s: string): string {
  const m = /(\d{4})\/(\d\d)\/(\d\d)\D+(\d\d):(\d\d)/.exec(s)!;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!)).toISOString();
}
