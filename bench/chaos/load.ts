// The write load: clients storing with their own ids, retrying until acknowledged, counted per fault phase.
import { gql, type Reply } from './graphql.js';
import { CLIENTS, type Fault, RATE } from './settings.js';
import { sleep } from './wait.js';

export interface Phase {
  readonly fault: Fault;
  acknowledged: number;
  retriedAcks: number;
  errors: Record<string, number>;
  killedAt: number;
  /** Restart command finished (component up again). */
  restartedMs: number;
  /** Health reports Neo4j and Redis up again. */
  healthyMs: number | null;
  /** First acknowledged store after the kill. */
  firstAckMs: number | null;
  /** Scheduled jobs ran again after the kill. */
  jobsMs: number | null;
  storeMs: number[];
}

export class Load {
  readonly acked = new Map<string, string>();
  phase: Phase | null = null;
  private stopped = false;
  private readonly loops: Promise<void>[] = [];

  constructor(readonly store: string) {}

  start(): void {
    for (let c = 0; c < CLIENTS; c++) this.loops.push(this.client(c));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  private count(code: string): void {
    if (this.phase) this.phase.errors[code] = (this.phase.errors[code] ?? 0) + 1;
  }

  private async client(c: number): Promise<void> {
    const instanceId = `${this.store}-client-${c}`;
    const headers = { 'x-instance-id': instanceId };
    await this.retrying(() =>
      gql(
        'mutation ($i: StartSessionInput!) { startSession(input: $i) { id } }',
        { i: { instanceId, mindType: 'bench', store: this.store } },
        headers,
      ),
    );
    const every = (1000 * CLIENTS) / RATE;
    for (let n = 0; !this.stopped; n++) {
      const due = Date.now() + every;
      const id = `${this.store}-${c}-${n}`;
      const content =
        `Client ${c} note ${n}: the ${['harbour', 'lighthouse', 'orchard', 'station'][n % 4]} at ` +
        `${['dawn', 'noon', 'dusk'][n % 3]} with ${['Ana', 'Ben', 'Chen'][c % 3]}.`;
      const input = {
        id,
        store: this.store,
        content,
        tags: ['chaos', `client-${c}`],
        people: [['Ana', 'Ben', 'Chen'][c % 3]],
      };
      // A client retries with the same id until the store is acknowledged (a retry is a no-op).
      const started = Date.now();
      const attempts = await this.retrying(() =>
        gql('mutation ($m: StoreInput!) { store(input: $m) { id content } }', { m: input }, headers),
      );
      this.acked.set(id, content);
      if (this.phase) {
        this.phase.acknowledged++;
        if (attempts > 1) this.phase.retriedAcks++;
        this.phase.storeMs.push(Date.now() - started);
        if (this.phase.firstAckMs === null && this.phase.killedAt > 0 && started >= this.phase.killedAt)
          this.phase.firstAckMs = Date.now() - this.phase.killedAt;
      }
      if (n % 10 === 5) {
        const r = await gql(
          'query ($q: SearchInput!) { search(input: $q) { hits { memory { id } } } }',
          { q: { query: 'harbour at dawn', store: this.store, limit: 5 } },
          headers,
        ).catch(
          (e: Error) =>
            ({
              errors: [
                {
                  message: e.message,
                  extensions: { code: e.name === 'TimeoutError' ? 'client timeout (10 s)' : 'connection failed' },
                },
              ],
            }) as Reply,
        );
        if (r.errors) this.count(`search ${r.errors[0]?.extensions?.code ?? 'no code'}`);
      }
      await sleep(Math.max(0, due - Date.now()));
    }
  }

  /** Sends until it gets data; returns the attempts it took. */
  private async retrying(send: () => Promise<Reply>): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      let reply: Reply;
      try {
        reply = await send();
      } catch (error) {
        this.count((error as Error).name === 'TimeoutError' ? 'client timeout (10 s)' : 'connection failed');
        await sleep(250);
        continue;
      }
      if (!reply.errors) return attempt;
      const e = reply.errors[0];
      this.count(e?.extensions?.code ?? 'no code');
      await sleep(Math.min(2000, e?.extensions?.retryAfterMs ?? 250));
    }
  }
}
