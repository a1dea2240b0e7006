/** Memory records and ranking candidates with neutral defaults, for the recall unit tests to vary. */
import type { Candidate } from '../../src/contexts/recall/testing.js';
import type { MemoryRecord, Tier } from '../../src/domain/index.js';

export const memory = (id: string, extra: Partial<MemoryRecord> = {}): MemoryRecord => ({
  id,
  store: 's',
  content: `memory ${id}`,
  tier: 'LONG_TERM',
  claimed: false,
  tags: [],
  people: [],
  emotions: [],
  metadata: null,
  occurredAt: 1000,
  createdAt: 1000,
  lastAccessedAt: null,
  accessCount: 0,
  sessionId: null,
  claimedAt: null,
  tierChangedAt: null,
  salience: null,
  salienceAt: null,
  usefulness: 0,
  ...extra,
});
export const candidate = (
  id: string,
  coverage: number,
  extra: Partial<Candidate> = {},
  tier: Tier = 'LONG_TERM',
): Candidate => ({
  memory: memory(id, { tier }),
  textScore: coverage,
  coverage,
  exact: 0,
  exactMiss: 0,
  kindMiss: 0,
  breadth: 0,
  personMatch: 0,
  dateMatch: 0,
  similarity: null,
  activation: 0,
  via: null,
  path: [],
  salience: 0.5,
  usefulness: 0,
  ...extra,
});
