import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { GraphQLResponse } from '../helpers.js';
import {
  A,
  as,
  code,
  nodes,
  okAs,
  post,
  refusedWritingNothing,
  STORE,
  startRateLimitedApp,
  storeAs,
  t,
  tok,
  tokens,
  useSecurityApp,
} from './security-fixture.js';

useSecurityApp();

describe('request limits', () => {
  it('a deeply nested query, too many aliases and too many tokens are refused before anything runs', async () => {
    const a = await storeAs(tok.mindA, { content: 'nest one' });
    let nested = 'id';
    for (let i = 0; i < 20; i++) nested = `associations { other { ${nested} } }`;
    await refusedWritingNothing(
      () => as(tok.mindA, `{ memory(id: "${a.id}") { ${nested} } }`),
      'GRAPHQL_VALIDATION_FAILED',
    );
    const aliases = Array.from({ length: 500 }, (_, i) => `m${i}: memory(id: "${a.id}") { id }`).join(' ');
    await refusedWritingNothing(() => as(tok.mindA, `{ ${aliases} }`), 'GRAPHQL_VALIDATION_FAILED');
    const searches = Array.from({ length: 1000 }, (_, i) => `s${i}: search(input: { query: "x" }) { id }`).join(' ');
    await refusedWritingNothing(() => as(tok.mindA, `{ ${searches} }`), 'GRAPHQL_VALIDATION_FAILED');
    const [row] = await t.cypher<{ n: number }>('MATCH (m:Memory {id: $id}) RETURN m.accessCount AS n', { id: a.id });
    expect(row?.n).toBe(0);
  });

  it('aliased reads of one memory count as one access; a read that fails writes nothing', async () => {
    const a = await storeAs(tok.mindA, { content: 'read me twice' });
    const read = await okAs<Record<string, { accessCount: number }>>(
      tok.mindA,
      `{ x: memory(id: "${a.id}") { accessCount } y: memory(id: "${a.id}") { accessCount } z: ` +
        `memory(id: "${a.id}") { id } }`,
    );
    expect(read.x?.accessCount).toBe(1);
    const count = async () =>
      (
        await t.cypher<{ n: number; e: number }>(
          "MATCH (m:Memory {id: $id}) OPTIONAL MATCH (e:Event {type: 'MemoryAccessed', memoryId: $id}) RETURN " +
            'm.accessCount AS n, count(e) AS e',
          { id: a.id },
        )
      )[0];
    expect(await count()).toEqual({ n: 1, e: 1 });
    await refusedWritingNothing(
      () => as(tok.mindA, `{ memory(id: "${a.id}") { id history(limit: -1) { type } } }`),
      'HIPPOCAMPUS.INVALID_LIMIT',
    );
    expect(await count()).toEqual({ n: 1, e: 1 });
  });

  it('a body over the limit is answered 413', async () => {
    const big = JSON.stringify({ query: STORE, variables: { in: { content: 'x'.repeat(33 * 1024 * 1024) } } });
    const before = await nodes();
    const res = await post(big, { authorization: `Bearer ${tok.mindA}` });
    expect(res.status).toBe(413);
    expect(res.json?.errors?.[0]?.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await nodes()).toBe(before);
  });

  it('refuses hosts and origins of other sites (DNS rebinding, web pages)', async () => {
    const body = JSON.stringify({ query: '{ health { neo4j } }' });
    const auth = { authorization: `Bearer ${tok.operator}` };
    // fetch cannot set Host: node:http can.
    const { port } = new URL(t.server.url);
    const raw = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/graphql',
            method: 'POST',
            headers: { 'content-type': 'application/json', ...auth, ...headers },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    expect(await raw({ host: 'evil.example' })).toBe(403);
    expect(await raw({ host: `evil.example:${port}` })).toBe(403);
    expect(await raw({ host: `127.0.0.1:${port}`, origin: 'http://evil.example' })).toBe(403);
    expect(await raw({ host: `localhost:${port}` })).toBe(200);
    expect(await raw({ host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` })).toBe(200);
    const res = await fetch(t.server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body,
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('turns field suggestions and introspection off', async () => {
    const res = await as(tok.mindA, '{ healt { neo4j } }');
    expect(code(res)).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(JSON.stringify(res.errors)).not.toContain('Did you mean');
    expect(code(await as(tok.mindA, '{ __schema { types { name } } }'))).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('a pool taken by others is a retryable UNAVAILABLE within about a second, not a hang', async () => {
    const a = await storeAs(tok.mindA, { content: 'pool' });
    // never checked yet: its check needs the pool
    const fresh = await tokens.issue({ scope: 'mind', stores: [A] });
    // Someone holds every connection of the pool (64), taken one at a time.
    const held = Array.from({ length: 64 }, () => t.app.driver.session({ database: t.config.neo4j.database }));
    const txs = [];
    for (const s of held) {
      const tx = s.beginTransaction();
      await tx.run('RETURN 1');
      txs.push(tx);
    }
    try {
      const started = Date.now();
      const res = await as(tok.mindA, `{ memory(id: "${a.id}") { id } }`);
      const took = Date.now() - started;
      expect(code(res), JSON.stringify(res.errors)).toBe('UNAVAILABLE');
      expect(res.errors?.[0]?.extensions?.retryable).toBe(true);
      // The driver gives up after TOTAL_RECALL_POOL_ACQUISITION_MS (1 s); a generous bound for a busy machine.
      expect(took).toBeLessThan(3_000);
      // Refused before it runs (the token cannot be checked): 503 with the same retry hint and Retry-After.
      const atTheDoor = await post(JSON.stringify({ query: '{ health { neo4j } }' }), {
        authorization: `Bearer ${fresh.token}`,
      });
      expect(atTheDoor.status).toBe(503);
      expect(atTheDoor.headers.get('retry-after')).toBe('1');
      expect(atTheDoor.json?.errors?.[0]?.extensions).toMatchObject({
        code: 'UNAVAILABLE',
        retryable: true,
        retryAfterMs: 1000,
        details: { service: 'neo4j' },
      });
    } finally {
      await Promise.all(txs.map((tx) => tx.rollback()));
      await Promise.all(held.map((s) => s.close()));
    }
    expect((await okAs<{ memory: { id: string } }>(tok.mindA, `{ memory(id: "${a.id}") { id } }`)).memory.id).toBe(
      a.id,
    );
  });

  it('other callers keep being answered while hostile requests run', async () => {
    const a = await storeAs(tok.mindA, { content: 'well behaved' });
    let nested = 'id';
    for (let i = 0; i < 9; i++) nested = `associations { other { ${nested} } }`;
    let stop = false;
    const hostile = (async () => {
      let sent = 0;
      const searches = Array.from(
        { length: 14 },
        (_, i) => `s${i}: search(input: { query: "well behaved ${i}" }) { id }`,
      );
      while (!stop) {
        await Promise.all([
          as(tok.mindB, `{ memory(id: "${a.id}") { ${nested} } }`),
          as(tok.mindB, `{ ${searches.join(' ')} }`),
        ]);
        sent += 2;
      }
      return sent;
    })();
    const answered: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = Date.now();
      const res = await as(tok.mindA, '{ search(input: { query: "well behaved" }) { hits { memory { id } } } }');
      expect(res.errors).toBeUndefined();
      answered.push(Date.now() - started);
    }
    stop = true;
    expect(await hostile).toBeGreaterThan(0);
    await t.app.settle();
    // A stall detector, not a speed target (bench:fuzz measures p95 against idle).
    expect(Math.max(...answered)).toBeLessThan(15_000);
    expect((await okAs<{ health: { neo4j: boolean } }>(tok.operator, '{ health { neo4j } }')).health.neo4j).toBe(true);
  });
});

describe('input bounds', () => {
  it('JSON arguments have a size and a nesting cap', async () => {
    const a = await storeAs(tok.mindA, { content: 'json' });
    // 5,000 levels: written by hand (JSON.stringify of it would overflow this test's own stack).
    const deep = `${'{"d":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const raw = (query: string, variables: string) =>
      post(`{"query":${JSON.stringify(query)},"variables":${variables}}`, {
        authorization: `Bearer ${tok.mindA}`,
      }).then((r) => r.json);
    await refusedWritingNothing(
      () =>
        raw(
          `mutation ($m: JSON) { reclassify(id: "${a.id}", tier: ARCHIVE, reason: "r", metadata: $m) { id } }`,
          `{"m":${deep}}`,
        ),
      'JSON_TOO_DEEP',
    );
    await refusedWritingNothing(() => raw(STORE, `{"in":{"content":"deep","metadata":${deep}}}`), 'JSON_TOO_DEEP');
    const recall = (await okAs<{ search: { id: string } }>(tok.mindA, '{ search(input: { query: "json" }) { id } }'))
      .search.id;
    await expect
      .poll(
        async () =>
          (await t.cypher<{ n: number }>('MATCH (r:Recall {id: $id}) RETURN count(r) AS n', { id: recall }))[0]?.n,
        { timeout: 30_000 },
      )
      .toBe(1);
    await refusedWritingNothing(
      () =>
        as(tok.mindA, `mutation ($a: JSON) { markUsed(recallId: "${recall}", action: $a) { id } }`, {
          a: { big: 'x'.repeat(5 * 1024 * 1024) },
        }),
      'JSON_TOO_LARGE',
    );
    let literal = '1';
    for (let i = 0; i < 30; i++) literal = `{ d: ${literal} }`;
    await refusedWritingNothing(
      () =>
        as(
          tok.mindA,
          `mutation { reclassify(id: "${a.id}", tier: ARCHIVE, reason: "r", metadata: ${literal}) { id } }`,
        ),
      'JSON_TOO_DEEP',
    );
  });

  it('DateTime takes only ISO-8601 strings with a real calendar date', async () => {
    for (const occurredAt of [
      1e20,
      1700000000000,
      '2026-02-30',
      '2026-13-01T00:00:00Z',
      '2026-04-31',
      'yesterday',
      '2026-01-01T25:00:00Z',
    ]) {
      await refusedWritingNothing(
        () => as(tok.mindA, STORE, { in: { content: `when ${occurredAt}`, occurredAt } }),
        'INVALID_DATETIME',
      );
    }
    const ok = await okAs<{ store: { occurredAt: string } }>(
      tok.mindA,
      'mutation ($in: StoreInput!) { store(input: $in) { occurredAt } }',
      { in: { content: 'leap', occurredAt: '2024-02-29' } },
    );
    expect(ok.store.occurredAt).toBe('2024-02-29T00:00:00.000Z');
  });

  it('embeddings must be finite with a non-zero norm', async () => {
    await refusedWritingNothing(
      () => as(tok.mindA, STORE, { in: { content: 'zero', embedding: Array(384).fill(0) } }),
      'HIPPOCAMPUS.EMBEDDING_ZERO',
    );
    const infinite = Array(384).fill('1e999').join(',');
    const res = await post(
      `{"query":${JSON.stringify(STORE)},"variables":{"in":{"content":"inf","embedding":[${infinite}]}}}`,
      { authorization: `Bearer ${tok.mindA}` },
    );
    expect(res.json?.errors?.[0]?.extensions?.code).toMatch(/EMBEDDING_NOT_FINITE|BAD_USER_INPUT/);
  });
});

describe('rate limit', () => {
  it('a token over its share per minute is refused with 429 RATE_LIMITED, others are not', async () => {
    const limited = await startRateLimitedApp(5);
    try {
      const call = (token: string) =>
        fetch(limited.server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: '{ health { neo4j } }' }),
        });
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await call(tok.readerA)).status);
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      const refused = await call(tok.readerA);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as GraphQLResponse).errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await call(tok.mindB)).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});
