/**
 * A consolidated memory and its originals say the same thing: recall shows
 * one of them, the one with more evidence (the first in confidence order),
 * and lists the others it stands for in `represents`.
 */
import type { RankedHit } from './scoring.js';

/** The originals a consolidated memory names in its metadata (Hippocampus writes `consolidatedFrom`). */
export function originalsOf(metadata: unknown): readonly string[] {
  const from = (metadata as { consolidatedFrom?: unknown } | null)?.consolidatedFrom;
  return Array.isArray(from) ? from.filter((x): x is string => typeof x === 'string') : [];
}

/** `hits` in rank order; returns them with each group of a consolidation and its originals kept once. */
export function collapseConsolidated(hits: readonly RankedHit[]): RankedHit[] {
  const group = new Map<string, string>(); // memory id → the consolidated memory it belongs with
  for (const h of hits) {
    const originals = originalsOf(h.memory.metadata);
    if (originals.length === 0) continue;
    if (!group.has(h.memory.id)) group.set(h.memory.id, h.memory.id);
    for (const id of originals) if (!group.has(id)) group.set(id, group.get(h.memory.id)!);
  }
  if (group.size === 0) return [...hits];
  const kept = new Map<string, { hit: RankedHit; represents: string[] }>();
  const out: { hit: RankedHit; represents: string[] }[] = [];
  for (const h of hits) {
    const key = group.get(h.memory.id) ?? h.memory.id;
    const first = kept.get(key);
    if (first) first.represents.push(h.memory.id);
    else {
      const entry = { hit: h, represents: [...h.represents] };
      kept.set(key, entry);
      out.push(entry);
    }
  }
  return out.map(({ hit, represents }) => ({ ...hit, represents }));
}
