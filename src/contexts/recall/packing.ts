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
 * chance of being the answer: 0.15 injects what is at least about 1 in 7
 * likely, every line says its confidence and the frame line how sure the pack
 * is. What the floor trades (answers in the pack against empty packs for
 * questions nothing answers) is in bench/results/calibration.md.
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
  /** The store holds no memory at all (the frame says so). */
  readonly storeEmpty?: boolean;
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
  const belowFloor = hits.length - eligible.length;
  // Reserve room for the frame line as it will read with everything chosen.
  let budget =
    o.maxTokens - estimateTokens(frameLine(o.query, eligible.map(confidenceOf), { belowFloor, overBudget: [] }));
  const chosen: RankedHit[] = [];
  for (const hit of eligible) {
    if (chosen.length >= o.maxItems) break;
    const cost = estimateTokens(memoryLine(hit)) + 1;
    if (cost > budget) continue; // a shorter memory further down may still fit
    budget -= cost;
    chosen.push(hit);
  }
  // The frame's final wording can be longer than the one reserved for (it names what did not fit):
  // give back memories, lowest first, until the whole pack is within its budget.
  let text = packText(o.query, eligible, chosen, belowFloor, o.storeEmpty);
  while (estimateTokens(text) > o.maxTokens && chosen.length > 0) {
    chosen.pop();
    text = packText(o.query, eligible, chosen, belowFloor, o.storeEmpty);
  }
  return { text, hits: chosen, estimatedTokens: estimateTokens(text), dropped: hits.length - chosen.length };
}

const confidenceOf = (h: RankedHit) => h.confidence;

function packText(
  query: string,
  eligible: readonly RankedHit[],
  chosen: readonly RankedHit[],
  belowFloor: number,
  storeEmpty = false,
) {
  const overBudget = eligible.filter((h) => !chosen.includes(h)).map(confidenceOf);
  const frame = frameLine(query, chosen.map(confidenceOf), { belowFloor, overBudget }, storeEmpty);
  return [frame, ...chosen.map(memoryLine)].join('\n');
}
