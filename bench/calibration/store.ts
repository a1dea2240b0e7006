// Stores every plan through the service's GraphQL API and waits for the embeddings: the whole
// conversations and everyday scenarios first, then the sub-stores with the vectors those got.
import type { createApp } from '../../src/app.js';
import type { loadConfig } from '../../src/config.js';
import type { graphqlClient } from '../lib.js';
import type { Input, Plan } from './plans.js';

export interface Stored {
  /** Memory id → the plan's key for it. */
  readonly keyOf: Map<string, string>;
  /** Memories stored in all. */
  readonly stored: number;
  /** When storing started (performance.now()). */
  readonly started: number;
}

export async function storeAll(
  app: Awaited<ReturnType<typeof createApp>>,
  config: ReturnType<typeof loadConfig>,
  gql: ReturnType<typeof graphqlClient>,
  plans: readonly Plan[],
): Promise<Stored> {
  const STORE_MANY = 'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }';
  const keyOf = new Map<string, string>(); // memory id → key
  const started = performance.now();
  let stored = 0;
  const vectorOf = new Map<string, number[]>(); // LoCoMo key → the vector the service gave it in its whole conversation
  async function ingest(plan: Plan, withVectors: boolean): Promise<void> {
    const bySession = new Map<string | null, Input[]>();
    for (const i of plan.inputs) bySession.set(i.sessionId, [...(bySession.get(i.sessionId) ?? []), i]);
    for (const inputs of bySession.values()) {
      for (let from = 0; from < inputs.length; from += 500) {
        const part = inputs.slice(from, from + 500);
        const { storeMany } = await gql<{ storeMany: { id: string }[] }>(STORE_MANY, {
          inputs: part.map((i) => ({
            store: plan.store,
            content: i.content,
            people: i.people,
            tags: i.tags,
            occurredAt: i.occurredAt,
            sessionId: i.sessionId,
            metadata: { key: i.key },
            ...(withVectors ? { embedding: vectorOf.get(i.key) } : {}),
          })),
        });
        storeMany.forEach((r, n) => keyOf.set(r.id, part[n]!.key));
      }
    }
    stored += plan.inputs.length;
  }
  async function embedded(): Promise<void> {
    await app.bus.idle();
    await app.embeddings!.idle(3_600_000);
    await app.bus.idle();
  }
  // The service embeds each turn once, in its whole conversation (with the turn before it as context), and
  // every everyday memory and LongMemEval turn; sub-stores reuse a turn's vector as a client's own (so the
  // context of a turn whose predecessor is not in the sub-store is still that predecessor: noted in the results).
  const model = await (app.embedder as { start?: () => Promise<{ state: string }> }).start?.();
  if (model?.state !== 'ready' || !app.embeddings)
    throw new Error('the embedding model is not ready: run node scripts/services/model.mjs');
  const first = plans.filter((p) => p.kind === 'conversation' || p.source !== 'locomo');
  for (const plan of first) await ingest(plan, false);
  await embedded();
  console.log(`stored and embedded ${stored} memories in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  for (const plan of first.filter((p) => p.kind === 'conversation')) {
    const session = app.driver.session({ database: config.neo4j.database });
    const rows = await session.run('MATCH (m:Memory) WHERE m.store = $store RETURN m.id AS id, m.embedding AS e', {
      store: plan.store,
    });
    await session.close();
    for (const r of rows.records) vectorOf.set(keyOf.get(r.get('id'))!, (r.get('e') as number[]).map(Number));
  }
  for (const plan of plans.filter((p) => !first.includes(p))) await ingest(plan, true);
  await app.bus.idle();
  console.log(
    `all ${plans.length} stores (${stored} memories) ready after ` +
      `${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return { keyOf, stored, started };
}
