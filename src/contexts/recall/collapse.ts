/**
 * A consolidated memory and its originals say the same thing: recall shows
 * one of them, the one with more evidence (the first in confidence order),
 * and lists the others it stands for in `represents`.
 */
import type { RankedHit } from './scoring.js';

/**
 * The hits that may be consolidations: those whose metadata names `consolidatedFrom`. The metadata only says where
 * to look (it saves a read when no hit claims it); a client can write it too, so only the links decide what folds.
 * A consolidated memory whose metadata was replaced since (reclassify replaces it whole) is not looked up, so it
 * does not fold: a miss, never a wrong fold.
 */
export function claimedConsolidations(hits: readonly RankedHit[]): string[] {
  return hits
    .filter((h) => (h.memory.metadata as { consolidatedFrom?: unknown } | null)?.consolidatedFrom !== undefined)
    .map((h) => h.memory.id);
}

/**
 * `hits` in rank order, with each group of a consolidation and its originals kept once. `originalsOf` maps a
 * consolidated memory to its originals as consolidation linked them (CONSOLIDATED_FROM).
 */
export function collapseConsolidated(
  hits: readonly RankedHit[],
  originalsOf: ReadonlyMap<string, readonly string[]>,
): RankedHit[] {
  const group = new Map<string, string>(); // memory id → the consolidated memory it belongs with
  for (const h of hits) {
    const originals = originalsOf.get(h.memory.id) ?? [];
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
