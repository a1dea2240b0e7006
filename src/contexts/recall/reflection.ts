/**
 * Reflection's candidates: memories worth a mind's second look (stale,
 * recent, weakly associated), each with a reason written for the mind that
 * reads it.
 */
import { type ReflectionScope, type ReflectCandidate, type GraphPort, toMemoryRecord } from '../../domain/index.js';
import { Q } from './cypher.js';
import { invalid } from './search-request.js';

export type { ReflectCandidate } from '../../domain/index.js';

const DAY = 86_400_000;

type Row = { memory: Record<string, unknown>; associations: number };
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export class Reflection {
  constructor(
    private readonly graph: GraphPort,
    private readonly clock: () => number,
  ) {}

  /** Candidates of the scope (ALL: stale, then recent, then weak), each memory once, at most `limit`. */
  async candidates(
    store: string,
    scope: ReflectionScope,
    timeSpanDays: number | null,
    limit: number,
  ): Promise<ReflectCandidate[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > 200)
      throw invalid('INVALID_LIMIT', 'limit must be an integer from 1 to 200');
    if (timeSpanDays !== null && (!Number.isInteger(timeSpanDays) || timeSpanDays < 1))
      throw invalid('INVALID_TIME_SPAN', 'timeSpanDays must be a positive integer');
    const now = this.clock();
    const found = new Map<string, ReflectCandidate>();
    const add = (list: ReflectCandidate[]) => list.forEach((c) => found.has(c.memory.id) || found.set(c.memory.id, c));
    if (scope === 'STALE' || scope === 'ALL') add(await this.stale(store, now, timeSpanDays ?? 30, limit));
    if (scope === 'RECENT' || scope === 'ALL') add(await this.recent(store, now, timeSpanDays ?? 1, limit));
    if (scope === 'WEAK_ASSOCIATIONS' || scope === 'ALL') add(await this.weak(store, now, timeSpanDays ?? 365, limit));
    return [...found.values()].slice(0, limit);
  }

  private async stale(store: string, now: number, days: number, limit: number): Promise<ReflectCandidate[]> {
    const rows = await this.graph.read<Row>(Q.reflectStale, { store, before: now - days * DAY, limit });
    return rows.map((r) => {
      const memory = toMemoryRecord(r.memory);
      const staleDays = (now - (memory.lastAccessedAt ?? memory.createdAt)) / DAY;
      const once = memory.claimed ? 'claimed' : `accessed ${plural(memory.accessCount, 'time')}`;
      return {
        memory,
        staleDays,
        associationCount: r.associations,
        reason:
          `STALE: untouched for ${Math.floor(staleDays)} days, once ${once}; ` +
          'keep it (claim), link it (associate) or let it fade',
      };
    });
  }

  private async recent(store: string, now: number, days: number, limit: number): Promise<ReflectCandidate[]> {
    const rows = await this.graph.read<Row>(Q.reflectRecent, { store, since: now - days * DAY, limit });
    return rows.map((r) => {
      const memory = toMemoryRecord(r.memory);
      const hours = (now - memory.createdAt) / 3_600_000;
      const age = hours < 48 ? `${Math.max(0, Math.round(hours))} h` : `${Math.round(hours / 24)} days`;
      return {
        memory,
        staleDays: null,
        associationCount: r.associations,
        reason: `RECENT: stored ${age} ago with ${plural(r.associations, 'association')}; what does it connect to?`,
      };
    });
  }

  private async weak(store: string, now: number, days: number, limit: number): Promise<ReflectCandidate[]> {
    const rows = await this.graph.read<Row & { strongest: number }>(Q.reflectWeak, {
      store,
      since: now - days * DAY,
      minLinks: 2,
      minStrength: 0.3,
      limit,
    });
    return rows.map((r) => ({
      memory: toMemoryRecord(r.memory),
      staleDays: null,
      associationCount: r.associations,
      reason:
        r.associations === 0
          ? 'WEAK_ASSOCIATIONS: linked to nothing; recall can only reach it by its words'
          : `WEAK_ASSOCIATIONS: ${plural(r.associations, 'association')}, strongest ${r.strongest.toFixed(2)}`,
    }));
  }
}
