/**
 * Packs recalled memories into a context budget. A memory reaches the window
 * only above the inject floor (or the lower live floor when it was stored in
 * the current session); the frame line comes first; every memory is labelled
 * as recalled, with its date, so it is never mistaken for the conversation.
 */
import { frameLine } from './frame.js';
import type { Pack } from '../../domain/index.js';
import type { RankedHit } from './scoring.js';

/**
 * Confidence is a calibrated probability (scoring.ts), so the floor is a
 * chance of being the answer: 0.1 injects what is at least 1 in 10 likely,
 * every line says its confidence and the frame line how sure the pack is.
 * Chosen on the development everyday scenarios (bench/results/calibration.md):
 * at 0.1 the pack stays empty for 19 of 20 questions nothing answers.
 */
export const DEFAULT_INJECT_FLOOR = 0.15;
export const DEFAULT_LIVE_FLOOR = 0.1;

/** A rough, deliberately generous estimate: one token per 4 characters, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export interface PackOptions {
  readonly query: string;
  readonly sessionId: string | null;
  readonly maxTokens: number;
  readonly maxItems: number;
  readonly injectFloor: number;
  readonly liveFloor: number;
}

export type { Pack } from '../../domain/index.js';

export function memoryLine(hit: RankedHit): string {
  const date = new Date(hit.memory.occurredAt).toISOString().slice(0, 10);
  return `[Recalled memory, ${date}, confidence ${Math.round(hit.confidence * 100)}%] ${hit.memory.content}`;
}

export function pack(hits: readonly RankedHit[], o: PackOptions): Pack {
  const floorOf = (h: RankedHit) =>
    o.sessionId !== null && h.memory.sessionId === o.sessionId ? o.liveFloor : o.injectFloor;
  const eligible = hits.filter((h) => h.confidence >= floorOf(h));
  const chosen: RankedHit[] = [];
  const lines: string[] = [];
  // Reserve room for the frame line as it will read with everything chosen.
  let budget =
    o.maxTokens -
    estimateTokens(
      frameLine(
        o.query,
        eligible.map((h) => h.confidence),
        hits.length,
      ),
    ) -
    1;
  for (const hit of eligible) {
    if (chosen.length >= o.maxItems) break;
    const line = memoryLine(hit);
    const cost = estimateTokens(line) + 1;
    if (cost > budget) continue; // a shorter memory further down may still fit
    budget -= cost;
    chosen.push(hit);
    lines.push(line);
  }
  const dropped = hits.length - chosen.length;
  const text = [
    frameLine(
      o.query,
      chosen.map((h) => h.confidence),
      dropped,
    ),
    ...lines,
  ].join('\n');
  return { text, hits: chosen, estimatedTokens: estimateTokens(text), dropped };
}
