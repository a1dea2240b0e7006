import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORY_FIELDS, randomStore, startTestApp, type TestApp } from '../helpers.js';
import { Bus, message } from '../../src/domain/index.js';
import { Hippocampus } from '../../src/contexts/hippocampus/index.js';
import type { GraphPort } from '../../src/domain/index.js';
import { Neo4jGraph } from '../../src/adapters/neo4j/index.js';

let t: TestApp;
const store = randomStore('hippo');
const other = randomStore('hippo-other');

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.dropStore(store);
  await t.dropStore(other);
  await t.stop();
});

const STORE = `mutation ($input: StoreInput!) { store(input: $input) { ${MEMORY_FIELDS} } }`;

async function remember(content: string, extra: Record<string, unknown> = {}): Promise<string> {
  const { store: m } = await t.ok<{ store: { id: string } }>(STORE, { input: { store, content, ...extra } });
  return m.id;
}

async function eventsOf(id: string): Promise<{ type: string; payload: any }[]> {
  const { memory } = await t.ok<{ memory: { history: { type: string; payload: any }[] } | null }>(
    'query ($id: ID!) { memory(id: $id) { history { type payload } } }',
    { id },
  );
  return memory?.history ?? [];
}

/** Expects a typed error whose code ends as given, and that the store's node count did not move. */
async function expectRefused(query: string, variables: Record<string, unknown>, codeEnd: string, inStore = store) {
  await t.app.bus.idle(); // reactions to earlier calls (salience, links) may still be writing
  const before = await t.countNodes(inStore);
  const res = await t.gql(query, variables);
  expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toMatch(new RegExp(`${codeEnd}$`));
  expect(await t.countNodes(inStore)).toBe(before);
}

describe('claims (invariant 3)', () => {
  it('persists the claim before MemoryClaimed is published', async () => {
    // A Hippocampus on a port that logs when each write has committed, and a bus
    // that logs each publish: the claim's commit must come first in the log.
    const real = new Neo4jGraph(t.app.driver, t.config.neo4j.database);
    const log: string[] = [];
    const committed = async <T>(name: string, work: Promise<T>) => {
      const result = await work;
      log.push(`commit ${name}`);
      return result;
    };
    const recording: GraphPort = {
      read: (s, p) => real.read(s, p),
      write: (s, p) => committed(s.file, real.write(s, p)),
      readTransaction: (w) => real.readTransaction(w),
      transaction: (w) => committed('transaction', real.transaction(w)),
    };
    const bus = new Bus();
    bus.tap((m) => void log.push(`publish ${m.type}`));
    const hippocampus = new Hippocampus({ graph: recording, bus, limits: t.config });
    const [stored] = await hippocampus.store(
      message('StoreCommand', { memories: [{ store, content: 'this matters to me' }] }, 'cortex'),
    );
    const id = stored!.memory.id;
    log.length = 0;
    const claimed = await hippocampus.claim(message('ClaimCommand', { id }, 'cortex'));
    expect(claimed.claimed).toBe(true);
    expect(log).toEqual([expect.stringMatching(/^commit .*claim-memory/), 'publish MemoryClaimed']);
    const rows = await t.cypher<{ c: boolean }>('MATCH (m:Memory {id: $id}) RETURN m.claimed AS c', { id });
    expect(rows).toEqual([{ c: true }]);
    expect((await eventsOf(id)).map((e) => e.type)).toContain('MemoryClaimed');
  });

  it('answers an unknown id with NOT_FOUND', async () => {
    await expectRefused('mutation { claim(id: "nope") { id } }', {}, 'NOT_FOUND');
  });

  it('echoes an id too long to exist cut, not whole', async () => {
    const id = 'x'.repeat(50_000);
    const res = await t.gql('mutation ($id: ID!) { claim(id: $id) { id } }', { id });
    const error = res.errors?.[0];
    expect(error?.extensions?.code).toBe('HIPPOCAMPUS.MEMORY_NOT_FOUND');
    expect(error?.message.length).toBeLessThan(1100);
    expect(JSON.stringify(error).length).toBeLessThan(2000);
  });
});

describe('reclassify (invariant 2)', () => {
  const RECLASSIFY =
    'mutation ($id: ID!, $tier: Tier!, $reason: String!) { reclassify(id: $id, tier: $tier, ' +
    'reason: $reason) { tier } }';

  it('moves a memory by the mind, into IDENTITY_CORE too, keeping the reason in the history', async () => {
    const id = await remember('I keep my promises');
    const { reclassify } = await t.ok<{ reclassify: { tier: string } }>(RECLASSIFY, {
      id,
      tier: 'IDENTITY_CORE',
      reason: 'this is who I am',
    });
    expect(reclassify.tier).toBe('IDENTITY_CORE');
    const history = await eventsOf(id);
    // A read's own access is recorded once its request has succeeded: the next read lists it.
    expect(history.map((e) => e.type)).toEqual(['MemoryStored', 'MemoryReclassified', 'TierChanged']);
    expect((await eventsOf(id)).map((e) => e.type)).toEqual([
      'MemoryStored',
      'MemoryReclassified',
      'TierChanged',
      'MemoryAccessed',
    ]);
    expect(history[1]?.payload).toMatchObject({
      from: 'LONG_TERM',
      to: 'IDENTITY_CORE',
      reason: 'this is who I am',
      by: 'MIND',
    });
  });

  it('refuses an empty reason and an unknown id, changing nothing', async () => {
    const id = await remember('stays put');
    await expectRefused(RECLASSIFY, { id, tier: 'ARCHIVE', reason: '   ' }, 'HIPPOCAMPUS.REASON_REQUIRED');
    await expectRefused(RECLASSIFY, { id: 'nope', tier: 'ARCHIVE', reason: 'why not' }, 'NOT_FOUND');
    const rows = await t.cypher<{ tier: string }>('MATCH (m:Memory {id: $id}) RETURN m.tier AS tier', { id });
    expect(rows[0]?.tier).toBe('LONG_TERM');
  });

  it('refuses salience moves into or out of IDENTITY_CORE and records the ones it allows', async () => {
    const core = await remember('core value', { tier: 'IDENTITY_CORE' });
    const ask = (type: 'DemoteTier' | 'PromoteTier', id: string, from: string, to: string) =>
      t.app.bus.ask(
        message(
          'TierChangeBatch',
          {
            changes: [
              type === 'DemoteTier'
                ? message(
                    'DemoteTier',
                    { id, from: from as never, to: to as never, salience: 0.01, reason: 'faded' },
                    'salience',
                  )
                : message('PromoteTier', { id, from: from as never, to: to as never, salience: 0.99 }, 'salience'),
            ],
          },
          'salience',
        ),
      );
    await expect(ask('DemoteTier', core, 'IDENTITY_CORE', 'ACTIVE_CONTEXT')).rejects.toThrow(/IDENTITY_CORE/);
    const plain = await remember('ordinary day');
    await expect(ask('PromoteTier', plain, 'ACTIVE_CONTEXT', 'IDENTITY_CORE')).rejects.toThrow(/IDENTITY_CORE/);
    await ask('DemoteTier', plain, 'LONG_TERM', 'ARCHIVE');
    const rows = await t.cypher<{ tiers: string[] }>(
      'MATCH (m:Memory) WHERE m.id IN [$a, $b] RETURN collect(m.tier) AS tiers',
      { a: core, b: plain },
    );
    expect([...(rows[0]?.tiers ?? [])].sort()).toEqual(['ARCHIVE', 'IDENTITY_CORE']);
    const changed = (await eventsOf(plain)).find((e) => e.type === 'TierChanged');
    expect(changed?.payload).toMatchObject({ from: 'LONG_TERM', to: 'ARCHIVE', reason: 'faded', by: 'SALIENCE' });
  });
});

describe('consolidate (invariant 6)', () => {
  const CONSOLIDATE = `mutation ($ids: [ID!]!, $strategy: MergeStrategy!, $content: String) {
    consolidate(ids: $ids, strategy: $strategy, content: $content) { id content tags consolidatedFrom { id content } }
  }`;

  it('creates a new memory linked to its originals and keeps them', async () => {
    const a = await remember('Met Ana at the cafe', { tags: ['ana'], occurredAt: '2026-01-01T10:00:00Z' });
    const b = await remember('Ana told me about Lisbon', { tags: ['lisbon'], occurredAt: '2026-01-02T10:00:00Z' });
    const { consolidate } = await t.ok<{ consolidate: any }>(CONSOLIDATE, { ids: [b, a], strategy: 'COMBINE' });
    expect(consolidate.content).toBe('Met Ana at the cafe\n\nAna told me about Lisbon');
    expect(consolidate.tags).toEqual(['ana', 'lisbon']);
    expect(consolidate.consolidatedFrom.map((m: { id: string }) => m.id)).toEqual([a, b]);
    const originals = await t.cypher<{ n: number }>('MATCH (m:Memory) WHERE m.id IN [$a, $b] RETURN count(m) AS n', {
      a,
      b,
    });
    expect(originals[0]?.n).toBe(2);
    expect((await eventsOf(a)).map((e) => e.type)).toContain('MemoryConsolidated');
  });

  it('takes the caller text for SUMMARIZE', async () => {
    const a = await remember('one');
    const b = await remember('two');
    const { consolidate } = await t.ok<{ consolidate: any }>(CONSOLIDATE, {
      ids: [a, b],
      strategy: 'SUMMARIZE',
      content: 'one and two',
    });
    expect(consolidate.content).toBe('one and two');
  });

  it('refuses fewer than two, unknown ids and ids from two stores, writing nothing', async () => {
    const a = await remember('alone');
    await expectRefused(CONSOLIDATE, { ids: [a], strategy: 'COMBINE' }, 'HIPPOCAMPUS.CONSOLIDATE_TOO_FEW');
    await expectRefused(CONSOLIDATE, { ids: [a, a], strategy: 'COMBINE' }, 'HIPPOCAMPUS.CONSOLIDATE_TOO_FEW');
    await expectRefused(CONSOLIDATE, { ids: [a, 'missing'], strategy: 'COMBINE' }, 'NOT_FOUND');
    const { store: elsewhere } = await t.ok<{ store: { id: string } }>(STORE, {
      input: { store: other, content: 'other store' },
    });
    await expectRefused(CONSOLIDATE, { ids: [a, elsewhere.id], strategy: 'COMBINE' }, 'HIPPOCAMPUS.CROSS_STORE');
    await expectRefused(CONSOLIDATE, { ids: [a, elsewhere.id], strategy: 'COMBINE' }, 'HIPPOCAMPUS.CROSS_STORE', other);
    const b = await remember('second');
    await expectRefused(CONSOLIDATE, { ids: [a, b], strategy: 'SUMMARIZE' }, 'HIPPOCAMPUS.SUMMARY_REQUIRED');
  });

  it('refuses more than 32 ids, writing nothing', async () => {
    const own = randomStore('hippo-consolidate-many');
    try {
      const { storeMany } = await t.ok<{ storeMany: { id: string }[] }>(
        'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }',
        { inputs: Array.from({ length: 33 }, (_, i) => ({ store: own, content: `one of many ${i}` })) },
      );
      const ids = storeMany.map((m) => m.id);
      await expectRefused(CONSOLIDATE, { ids, strategy: 'COMBINE' }, 'HIPPOCAMPUS.CONSOLIDATE_TOO_MANY', own);
      await t.ok(CONSOLIDATE, { ids: ids.slice(0, 32), strategy: 'SUMMARIZE', content: 'the many' });
    } finally {
      await t.dropStore(own);
    }
  });

  it("keeps the merged labels and the originals' metadata within the limits a stored memory has", async () => {
    const own = randomStore('hippo-consolidate-limits');
    try {
      const labels = (prefix: string) => Array.from({ length: 60 }, (_, i) => `${prefix}${i}`);
      const big = { note: 'z'.repeat(15_000) };
      const { storeMany } = await t.ok<{ storeMany: { id: string }[] }>(
        'mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }',
        {
          inputs: ['a', 'b'].map((p, i) => ({
            store: own,
            content: `labelled ${p}`,
            tags: labels(p),
            people: labels(p),
            emotions: labels(p),
            metadata: big,
            occurredAt: `2026-01-0${i + 1}T10:00:00Z`,
          })),
        },
      );
      const { consolidate } = await t.ok<{ consolidate: { id: string } }>(CONSOLIDATE, {
        ids: storeMany.map((m) => m.id),
        strategy: 'COMBINE',
      });
      const { memory } = await t.ok<{ memory: Record<string, any> }>(
        'query ($id: ID!) { memory(id: $id) { tags people emotions metadata } }',
        { id: consolidate.id },
      );
      for (const field of ['tags', 'people', 'emotions']) expect(memory[field]).toHaveLength(64);
      expect(Buffer.byteLength(JSON.stringify(memory.metadata))).toBeLessThanOrEqual(16 * 1024);
      expect(memory.metadata.originals.map((o: { metadataOmitted?: boolean }) => o.metadataOmitted ?? false)).toEqual([
        false,
        true,
      ]);
    } finally {
      await t.dropStore(own);
    }
  });

  it('refuses originals another memory consolidates already, writing nothing', async () => {
    const a = await remember('consolidated once');
    const b = await remember('consolidated once too');
    const c = await remember('not yet');
    await t.ok(CONSOLIDATE, { ids: [a, b], strategy: 'COMBINE' });
    await expectRefused(CONSOLIDATE, { ids: [c, a], strategy: 'COMBINE' }, 'HIPPOCAMPUS.ALREADY_CONSOLIDATED');
  });

  it('lets only one of two overlapping consolidations of the same originals commit', async () => {
    const a = await remember('overlap one');
    const b = await remember('overlap two');
    // The first transaction holds its uncommitted consolidation until the second has begun, then commits.
    const real = new Neo4jGraph(t.app.driver, t.config.neo4j.database);
    let secondBegan: () => void = () => undefined;
    const began = new Promise<void>((resolve) => (secondBegan = resolve));
    let transactions = 0;
    const overlapping: GraphPort = {
      read: (s, p) => real.read(s, p),
      write: (s, p) => real.write(s, p),
      readTransaction: (w) => real.readTransaction(w),
      transaction(work) {
        const first = ++transactions === 1;
        return real.transaction((tx) =>
          work({
            async run(s, p) {
              if (!first) secondBegan();
              const rows = await tx.run(s, p);
              if (first && s.file.endsWith('create-consolidated.cypher')) {
                await began;
                await new Promise((resolve) => setTimeout(resolve, 300));
              }
              return rows;
            },
          } as typeof tx),
        );
      },
    };
    const hippocampus = new Hippocampus({ graph: overlapping, bus: new Bus(), limits: t.config });
    const consolidate = () =>
      hippocampus.consolidate(
        message('ConsolidateCommand', { ids: [a, b], strategy: 'COMBINE', content: null }, 'cortex'),
      );
    // Which call opens the first transaction is up to the scheduler: exactly one commits, the other is refused.
    const results = await Promise.allSettled([consolidate(), consolidate()]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused?.reason).toMatchObject({ code: 'HIPPOCAMPUS.ALREADY_CONSOLIDATED' });
    const into = await t.cypher<{ n: number }>(
      'MATCH (c:Memory)-[:CONSOLIDATED_FROM]->(o:Memory) WHERE o.id IN [$a, $b] RETURN count(DISTINCT c) AS n',
      { a, b },
    );
    expect(into[0]?.n).toBe(1);
  });
});

describe('forget (invariant 6)', () => {
  const FORGET = 'mutation ($input: ForgetInput!) { forget(input: $input) { id forgotten } }';

  it('needs confirmId to repeat the id and an explicit reason', async () => {
    const id = await remember('keep me unless I say so');
    await expectRefused(
      FORGET,
      { input: { id, confirmId: 'something-else', reason: 'oops' } },
      'HIPPOCAMPUS.FORGET_NOT_CONFIRMED',
    );
    await expectRefused(FORGET, { input: { id, confirmId: id, reason: '' } }, 'HIPPOCAMPUS.REASON_REQUIRED');
    await expectRefused(FORGET, { input: { id: 'nope', confirmId: 'nope', reason: 'gone' } }, 'NOT_FOUND');
  });

  it('removes the content everywhere and leaves a tombstone in the trail', async () => {
    const secret = `a secret ${store}`;
    const id = await remember(secret, { tags: ['private-tag'] });
    await t.ok('mutation ($id: ID!) { claim(id: $id) { id } }', { id });
    const { forget } = await t.ok<{ forget: { forgotten: boolean } }>(FORGET, {
      input: { id, confirmId: id, reason: 'I choose to let this go' },
    });
    expect(forget.forgotten).toBe(true);
    expect((await t.ok<{ memory: null }>('query ($id: ID!) { memory(id: $id) { id } }', { id })).memory).toBeNull();
    const leaks = await t.cypher<{ n: number }>(
      `MATCH (n) WHERE n.store = $store
         AND any(k IN keys(n) WHERE toStringOrNull(n[k]) CONTAINS $secret OR toStringOrNull(n[k]) CONTAINS 'private-tag'
           OR (n[k] IS :: LIST<STRING> AND 'private-tag' IN n[k]))
       RETURN count(n) AS n`,
      { secret, store },
    );
    expect(leaks[0]?.n).toBe(0);
    const { events } = await t.ok<{ events: { type: string; memoryId: string; payload: any }[] }>(
      'query ($store: String) { events(store: $store, limit: 1000) { type memoryId payload } }',
      { store },
    );
    const mine = events.filter((e) => e.memoryId === id);
    expect(mine.map((e) => e.type)).toEqual(['MemoryStored', 'MemoryClaimed', 'MemoryForgotten']);
    expect(mine[2]?.payload).toEqual({ reason: 'I choose to let this go' });
    await expectRefused(FORGET, { input: { id, confirmId: id, reason: 'again' } }, 'NOT_FOUND');
  });
});

describe('forget of a memory that was consolidated', () => {
  it('keeps the consolidated memory, names it, and redacts its record of the original', async () => {
    const secret = `private-meta-${store}`;
    const a = await remember('The spare key is under the blue pot.', { metadata: { note: secret } });
    const b = await remember('The spare key moved to the garage.');
    const { consolidate } = await t.ok<{ consolidate: { id: string } }>(
      'mutation ($ids: [ID!]!) { consolidate(ids: $ids, strategy: COMBINE) { id } }',
      { ids: [a, b] },
    );
    const { forget } = await t.ok<{ forget: { forgotten: boolean; consolidatedInto: string[] } }>(
      'mutation ($input: ForgetInput!) { forget(input: $input) { forgotten consolidatedInto } }',
      { input: { id: a, confirmId: a, reason: 'the pot is gone' } },
    );
    expect(forget).toEqual({ forgotten: true, consolidatedInto: [consolidate.id] });
    const { memory } = await t.ok<{ memory: { content: string; metadata: any; consolidatedFrom: { id: string }[] } }>(
      'query ($id: ID!) { memory(id: $id) { content metadata consolidatedFrom { id } } }',
      { id: consolidate.id },
    );
    // The consolidated memory is the mind's own: it stays, whole, until the mind forgets it too.
    expect(memory.content).toContain('blue pot');
    expect(memory.consolidatedFrom.map((m) => m.id)).toEqual([b]);
    expect(memory.metadata.consolidatedFrom).toEqual([a, b]);
    expect(memory.metadata.originals[0]).toMatchObject({ id: a, metadata: null, forgotten: true });
    const leaks = await t.cypher<{ n: number }>(
      'MATCH (n) WHERE n.store = $store AND any(k IN keys(n) WHERE toStringOrNull(n[k]) CONTAINS $secret) ' +
        'RETURN count(n) AS n',
      { secret, store },
    );
    expect(leaks[0]?.n).toBe(0);
    // A memory consolidated from nothing forgotten is not named.
    const { forget: plain } = await t.ok<{ forget: { consolidatedInto: string[] } }>(
      'mutation ($input: ForgetInput!) { forget(input: $input) { consolidatedInto } }',
      { input: { id: b, confirmId: b, reason: 'moved on' } },
    );
    expect(plain.consolidatedInto).toEqual([consolidate.id]);
  });
});

describe('audit trail (invariant 7)', () => {
  it('pages a store’s events in time order with after and limit, never showing another store', async () => {
    const s = randomStore('trail');
    try {
      for (let i = 0; i < 5; i++) await t.ok(STORE, { input: { store: s, content: `event ${i}` } });
      await t.ok(STORE, { input: { store: other, content: 'not mine' } });
      const page = (after: string | null) =>
        t.ok<{ events: { id: string; type: string }[] }>(
          'query ($s: String, $a: ID) { events(store: $s, after: $a, limit: 2) { id type } }',
          { s, a: after },
        );
      const first = (await page(null)).events;
      const second = (await page(first[1]!.id)).events;
      const third = (await page(second[1]!.id)).events;
      const ids = [...first, ...second, ...third].map((e) => e.id);
      expect(ids).toHaveLength(5);
      expect([...ids].sort()).toEqual(ids);
      expect(new Set(ids).size).toBe(5);
      const bad = await t.gql('query ($s: String) { events(store: $s, limit: 0) { id } }', { s });
      expect(bad.errors?.[0]?.extensions?.code).toBe('HIPPOCAMPUS.INVALID_LIMIT');
    } finally {
      await t.dropStore(s);
    }
  });

  it('records exactly one event per change, in the same transaction', async () => {
    const id = await remember('counted');
    await t.ok('mutation ($id: ID!) { claim(id: $id) { id } }', { id });
    await t.ok('mutation ($id: ID!) { reclassify(id: $id, tier: ARCHIVE, reason: "old news") { id } }', { id });
    const rows = await t.cypher<{ types: string[] }>(
      'MATCH (e:Event {memoryId: $id}) WITH e ORDER BY e.id RETURN collect(e.type) AS types',
      { id },
    );
    expect(rows[0]?.types).toEqual(['MemoryStored', 'MemoryClaimed', 'MemoryReclassified', 'TierChanged']);
  });
});
