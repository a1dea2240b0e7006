/** Reading LoCoMo-format conversations (../shared/data/locomo) at run time; nothing of them is kept in the repo. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
export interface Question {
  question: string;
  evidence?: string[];
  category: number;
}
export interface Conversation {
  name: string;
  turns: { turn: Turn; session: number; at: number }[];
  questions: Question[];
}

export const DEFAULT_LOCOMO_DIR = new URL('../../shared/data/locomo', import.meta.url).pathname;

/** "1:56 pm on 8 May, 2023" → epoch ms (UTC). */
export function parseLocomoDate(text: string): number {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})/i.exec(text);
  if (!m) throw new Error(`unreadable date: ${text}`);
  const [, hh, mm, ap, day, month, year] = m;
  let hour = Number(hh) % 12;
  if ((ap as string).toLowerCase() === 'pm') hour += 12;
  const monthIndex = new Date(`${month} 1, 2000`).getMonth();
  return Date.UTC(Number(year), monthIndex, Number(day), hour, Number(mm));
}

export function loadConversation(file: string): Conversation {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const data = (raw.conversation as Record<string, unknown> | undefined) ?? raw;
  const turns: Conversation['turns'] = [];
  for (let n = 1; data[`session_${n}_date_time`] !== undefined || data[`session_${n}`] !== undefined; n++) {
    const list = data[`session_${n}`] as Turn[] | undefined;
    if (!Array.isArray(list)) continue;
    const start = parseLocomoDate(String(data[`session_${n}_date_time`]));
    // Turns of a session are a minute apart: the dataset gives only the session's time.
    list.forEach((turn, i) => turns.push({ turn, session: n, at: start + i * 60_000 }));
  }
  return {
    name: file
      .split('/')
      .pop()!
      .replace(/\.json$/, ''),
    turns,
    questions: (raw.qa as Question[]) ?? [],
  };
}

/** Every conversation of a folder, in file-name order. */
export function loadConversations(dir: string): Conversation[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => loadConversation(join(dir, f)));
}
