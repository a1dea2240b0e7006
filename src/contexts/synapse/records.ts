/** Associations as Synapse hands them out: seen from one end (times in epoch ms). */
import type { AssociationOrigin, AssociationRecord, AssociationType } from '../../domain/index.js';

export type { AssociationRecord } from '../../domain/index.js';

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** A row with `other, type, origin, strength, createdAt, updatedAt`, seen from `seenFrom`. */
export function toAssociation(seenFrom: string, row: Record<string, unknown>, hop = 1): AssociationRecord {
  return {
    seenFrom,
    other: String(row.other),
    type: row.type as AssociationType,
    origin: row.origin as AssociationOrigin,
    strength: num(row.strength),
    createdAt: num(row.createdAt),
    updatedAt: num(row.updatedAt),
    hop,
  };
}

/** The canonical ends of a pair: relationships are stored from the lower id to the higher. */
export function canonical(a: string, b: string): { readonly lo: string; readonly hi: string } {
  return a < b ? { lo: a, hi: b } : { lo: b, hi: a };
}
