/** Associations as Synapse hands them out: seen from one end (times in epoch ms). */
import type { AssociationOrigin, AssociationType } from './tiers.js';

export interface AssociationRecord {
  /** The memory it is seen from. */
  readonly seenFrom: string;
  /** The memory at the other end. */
  readonly other: string;
  readonly type: AssociationType;
  readonly origin: AssociationOrigin;
  readonly strength: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** 1 for a direct link; in a neighbourhood, the distance of the nearer end + 1. */
  readonly hop: number;
}

/** Associations of one memory read when the caller names no limit. */
export const DEFAULT_ASSOCIATIONS_LIMIT = 25;

/** Associations a neighbourhood reads when the caller names no limit. */
export const DEFAULT_NEIGHBOURHOOD_LIMIT = 100;

/** What a caller asks of one memory's associations. */
export interface AssociationsQuery {
  readonly types?: readonly string[] | null;
  readonly minStrength?: number | null;
  readonly limit?: number;
}

/** How far and how wide a neighbourhood reaches. */
export interface NeighbourhoodQuery {
  readonly depth?: number;
  readonly types?: readonly string[] | null;
  readonly limit?: number;
}
