/** Readable CLI output: the frame line first, then one line per hit with its confidence and date. */

export interface HitLike {
  readonly confidence: number;
  readonly memory: {
    readonly id: string;
    readonly content: string;
    readonly occurredAt: string;
    readonly tier?: string;
  };
}

export interface MemoryLike {
  readonly id: string;
  readonly content: string;
  readonly occurredAt: string;
  readonly tier: string;
  readonly salience: number;
  readonly claimed: boolean;
}

export interface SessionLike {
  readonly id: string;
  readonly instanceId: string;
  readonly mode: string;
  readonly task: string | null;
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly endCause: string | null;
}

const day = (iso: string) => iso.slice(0, 10);
const pct = (x: number) => `${Math.round(x * 100)}%`.padStart(4);
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Text with its control characters shown as `\x1b` rather than sent: stored text must not move the cursor, clear the
 * screen or set the title of the terminal it is printed to. Line ends and tabs stay.
 */
export const visible = (text: string): string =>
  text.replace(/(?![\n\t])\p{Cc}/gu, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

export function hitLines(frame: string, hits: readonly HitLike[]): string[] {
  return [
    frame,
    ...hits.map(
      (h) => `  ${pct(h.confidence)}  ${day(h.memory.occurredAt)}  ${h.memory.id}  ${oneLine(h.memory.content)}`,
    ),
  ];
}

export function memoryLine(m: MemoryLike): string {
  const claimed = m.claimed ? ', claimed' : '';
  return `  ${day(m.occurredAt)}  ${m.id}  ${oneLine(m.content)}  (salience ${m.salience.toFixed(2)}${claimed})`;
}

export function sessionLine(s: SessionLike): string {
  const ended = s.endedAt ? `ended ${s.endedAt.slice(0, 16).replace('T', ' ')} (${s.endCause})` : 'open';
  const task = s.task ? ` "${oneLine(s.task)}"` : '';
  return `${s.id}  ${s.instanceId}  ${s.mode}${task}  started ${s.startedAt.slice(0, 16).replace('T', ' ')}  ${ended}`;
}
