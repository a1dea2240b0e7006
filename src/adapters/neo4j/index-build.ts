/**
 * Indexes Neo4j is still building after the start (schema.ts): each one's
 * progress is on the progress board (health.progress, operation "index"),
 * polled from SHOW INDEXES until it is online or has failed, and `building()`
 * names those not online yet, for health's `degraded`.
 */
import type { Driver } from 'neo4j-driver';
import type { ProgressBoard, ProgressHandle } from '../../domain/index.js';

/** How often the build is looked at. */
const POLL_MS = 5000;

export class IndexBuilds {
  private readonly pending = new Map<string, ProgressHandle>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly driver: Driver,
    private readonly database: string,
    private readonly progress: ProgressBoard,
    private readonly log: (line: string) => void,
  ) {}

  /** Starts watching these indexes (from applySchema). */
  watch(names: readonly string[]): void {
    for (const name of names) {
      if (this.pending.has(name)) continue;
      this.pending.set(name, this.progress.start('index', null, `% of the ${name} index built`, 100));
    }
    if (this.pending.size > 0 && !this.timer) this.schedule(0);
  }

  /** Indexes not online yet. */
  building(): string[] {
    return [...this.pending.keys()];
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => void this.poll(), ms);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    try {
      const { records } = await this.driver.executeQuery(
        'SHOW INDEXES YIELD name, state, populationPercent WHERE name IN $names RETURN name, state, populationPercent',
        { names: this.building() },
        { database: this.database },
      );
      const seen = new Set(records.map((r) => r.get('name') as string));
      for (const [name, handle] of this.pending) {
        if (seen.has(name)) continue;
        handle.fail(); // dropped meanwhile (by hand, or another version's start)
        this.pending.delete(name);
      }
      for (const record of records) {
        const name = record.get('name') as string;
        const handle = this.pending.get(name)!;
        const state = record.get('state') as string;
        handle.update(Number(record.get('populationPercent') ?? 0));
        if (state === 'ONLINE') {
          handle.update(100);
          handle.finish();
        } else if (state === 'FAILED') handle.fail();
        if (state === 'ONLINE' || state === 'FAILED') {
          this.pending.delete(name);
          this.log(`neo4j: index ${name} is ${state === 'ONLINE' ? 'online' : 'FAILED (see SHOW INDEXES)'}`);
        }
      }
    } catch {
      // Neo4j unreachable for a moment: health says so already; look again later.
    }
    this.timer = null;
    if (this.pending.size > 0) this.schedule(POLL_MS);
  }
}
