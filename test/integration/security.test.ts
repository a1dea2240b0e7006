/**
 * Security, tried as an attacker on the same machine would (issue 22): every
 * case checks the typed error, that nothing was written (node counts before
 * and after) and that the service still answers. The app here opts in to
 * authentication (TOTAL_RECALL_AUTH=on) and uses its own tokens and stores,
 * removed afterwards; other test files keep running anonymously.
 */
import { stat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { ensureOperatorToken } from '../../src/adapters/auth/index.js';
import {
  A,
  B,
  as,
  code,
  coldDir,
  iA,
  iB,
  nodes,
  okAs,
  post,
  refusedWritingNothing,
  STORE,
  storeAs,
  t,
  tok,
  tokenIds,
  tokens,
  useSecurityApp,
} from './security-fixture.js';

useSecurityApp();

describe('tokens', () => {
  it(
    'refuses anonymous callers, malformed, unknown and revoked tokens with 401 ' + 'UNAUTHENTICATED, writing nothing',
    async () => {
      const body = JSON.stringify({ query: STORE, variables: { in: { store: A, content: 'anonymous' } } });
      const revoked = await tokens.issue({ scope: 'mind', stores: [A] });
      await t.app.tokens.revoke(revoked.id);
      const forged = tok.mindA.slice(0, -4) + (tok.mindA.endsWith('AAAA') ? 'BBBB' : 'AAAA');
      for (const headers of [
        {} as Record<string, string>,
        { authorization: 'Basic abc' },
        { authorization: 'Bearer tr_0000000000_nope' },
        { authorization: `Bearer ${forged}` },
        { authorization: `Bearer ${revoked.token}` },
      ]) {
        const before = await nodes();
        const res = await post(body, headers);
        expect(res.status, JSON.stringify(headers)).toBe(401);
        expect(res.json?.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
        expect(await nodes()).toBe(before);
      }
    },
  );

  it(
    'stores only the hash and a lookup prefix; list shows created and last-used times ' + 'and the revocation flag',
    async () => {
      const rows = await t.cypher<{ props: Record<string, unknown> }>(
        'MATCH (k:ApiToken {id: $id}) RETURN properties(k) AS props',
        { id: tokenIds[0] },
      );
      const props = rows[0]?.props ?? {};
      expect(Object.values(props)).not.toContain(tok.mindA);
      expect(String(props.hash)).toMatch(/^[0-9a-f]{64}$/);
      expect(tok.mindA.startsWith(`tr_${tokenIds[0]}_`)).toBe(true);
      await okAs(tok.mindA, '{ health { neo4j } }');
      const listed = (await t.app.tokens.list()).find((k) => k.id === tokenIds[0]);
      expect(listed).toMatchObject({ scope: 'mind', stores: [A], instanceId: iA, revoked: false });
      expect(listed?.createdAt).toBeGreaterThan(0);
      await expect
        .poll(async () => (await t.app.tokens.list()).find((k) => k.id === tokenIds[0])?.lastUsedAt ?? null)
        .not.toBeNull();
    },
  );

  it('npm start keeps an operator token in a file of mode 0600 and reuses it while it verifies', async () => {
    const file = join(coldDir, 'operator.token');
    expect((await ensureOperatorToken(t.app.tokens, file)).created).toBe(true);
    const made = (await import('node:fs')).readFileSync(file, 'utf8').trim();
    const record = await t.app.tokens.verify(made);
    if (record) tokenIds.push(record.id);
    expect(record?.scope).toBe('operator');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await ensureOperatorToken(t.app.tokens, file)).created).toBe(false);
  });
});

describe('binding and scopes', () => {
  it(
    "a mind token's store arguments default to its store; naming another store is " + 'FORBIDDEN and writes nothing',
    async () => {
      const stored = await storeAs(tok.mindA, { content: 'mine by default' });
      expect(stored.store).toBe(A);
      await refusedWritingNothing(() => as(tok.mindA, STORE, { in: { store: B, content: 'into B' } }), 'FORBIDDEN');
      await refusedWritingNothing(
        () =>
          as(tok.mindA, 'mutation ($m: [StoreInput!]!) { storeMany(inputs: $m) { id } }', {
            m: [{ content: 'ok' }, { store: B, content: 'x' }],
          }),
        'FORBIDDEN',
      );
      await refusedWritingNothing(
        () => as(tok.mindA, 'query ($s: String) { events(store: $s) { id } }', { s: B }),
        'FORBIDDEN',
      );
      await refusedWritingNothing(
        () => as(tok.mindA, 'query ($s: String) { search(input: { query: "x", store: $s }) { id } }', { s: B }),
        'FORBIDDEN',
      );
      await refusedWritingNothing(
        () => as(tok.mindA, 'query ($s: String) { sessions(store: $s) { id } }', { s: B }),
        'FORBIDDEN',
      );
      await refusedWritingNothing(
        () => as(tok.mindA, 'query ($s: String) { resume(store: $s) { session { id } } }', { s: B }),
        'FORBIDDEN',
      );
      await refusedWritingNothing(
        () =>
          as(
            tok.mindA,
            `mutation ($s: String) { startSession(input: { instanceId: "${iA}", mindType: "m", store: $s }) { id } }`,
            { s: B },
          ),
        'FORBIDDEN',
      );
    },
  );

  it('the instance comes from the token, not from a header', async () => {
    const session = (
      await okAs<{ startSession: { id: string; instanceId: string } }>(
        tok.mindA,
        `mutation { startSession(input: { instanceId: "${iA}", mindType: "test" }) { id instanceId } }`,
      )
    ).startSession;
    expect(session.instanceId).toBe(iA);
    // Claiming to be B's instance by header changes nothing: the token is instance A.
    const res = await as(
      tok.mindA,
      `mutation { logDecision(instanceId: "${iB}", text: "not mine") { id } }`,
      {},
      { 'x-instance-id': iB },
    );
    expect(code(res)).toBe('CORTEX.FOREIGN_INSTANCE');
    const notes = await as(tok.mindA, `{ notifications(instanceId: "${iB}") { id } }`, {}, { 'x-instance-id': iB });
    expect(code(notes)).toBe('CORTEX.FOREIGN_INSTANCE');
    // What A stores while its session is open belongs to it.
    expect((await storeAs(tok.mindA, { content: 'in my session' })).sessionId).toBe(session.id);
  });

  it("a token without an instance cannot act on another store's open session", async () => {
    await okAs(tok.mindB, `mutation { startSession(input: { instanceId: "${iB}", mindType: "test" }) { id } }`);
    await refusedWritingNothing(
      () => as(tok.unboundA, `mutation { logDecision(instanceId: "${iB}", text: "hijack") { id } }`),
      'CORTEX.NO_OPEN_SESSION',
    );
    await refusedWritingNothing(
      () => as(tok.unboundA, `mutation { transition(instanceId: "${iB}", mode: TASK, task: "t") { id } }`),
      'CORTEX.NO_OPEN_SESSION',
    );
    await refusedWritingNothing(
      () => as(tok.unboundA, `mutation { endSession(instanceId: "${iB}") { prompt } }`),
      'CORTEX.NO_OPEN_SESSION',
    );
    await refusedWritingNothing(
      () => as(tok.unboundA, `mutation { startSession(input: { instanceId: "${iB}", mindType: "m" }) { id } }`),
      // Refused without naming the other store or its session (an instance has one open session service-wide).
      'CORTEX.INSTANCE_IN_USE',
    );
    expect(
      (await okAs<{ notifications: unknown[] }>(tok.unboundA, `{ notifications(instanceId: "${iB}") { id } }`))
        .notifications,
    ).toEqual([]);
  });

  it('a reader reads its store and writes nothing', async () => {
    const mine = await storeAs(tok.mindA, { content: 'for the reader' });
    expect(
      (await okAs<{ memory: { id: string } | null }>(tok.readerA, `{ memory(id: "${mine.id}") { id } }`)).memory?.id,
    ).toBe(mine.id);
    await okAs(tok.readerA, '{ search(input: { query: "reader" }) { id } }');
    await refusedWritingNothing(() => as(tok.readerA, STORE, { in: { content: 'reader write' } }), 'FORBIDDEN');
    await refusedWritingNothing(() => as(tok.readerA, `mutation { claim(id: "${mine.id}") { id } }`), 'FORBIDDEN');
    await refusedWritingNothing(
      () => as(tok.readerA, 'mutation { startSession(input: { instanceId: "r", mindType: "m" }) { id } }'),
      'FORBIDDEN',
    );
  });

  it("a reader's search and contextFor record nothing (no Recall node, no event, no access); a mind's do", async () => {
    const mine = await storeAs(tok.mindA, {
      content: 'The lighthouse keeper on Skerry Island rings the bell at dusk.',
    });
    await t.app.settle();
    const recalls = async () =>
      (await t.cypher<{ n: number }>('MATCH (r:Recall {store: $store}) RETURN count(r) AS n', { store: A }))[0]?.n ?? 0;
    const accesses = async () =>
      (await t.cypher<{ n: number }>('MATCH (m:Memory {id: $id}) RETURN m.accessCount AS n', { id: mine.id }))[0]?.n;
    const [nodesBefore, recallsBefore, accessBefore] = [await t.countNodes(A), await recalls(), await accesses()];
    const SEARCH = '{ search(input: { query: "lighthouse keeper bell" }) { id hits { memory { id } } } }';
    const CONTEXT = '{ contextFor(input: { query: "lighthouse keeper bell", maxTokens: 200 }) { recallId text } }';

    const found = await okAs<{ search: { id: string; hits: { memory: { id: string } }[] } }>(tok.readerA, SEARCH);
    expect(found.search.hits.map((h) => h.memory.id)).toContain(mine.id);
    expect(found.search.id).toBe('unrecorded');
    const packed = await okAs<{ contextFor: { recallId: string; text: string } }>(tok.readerA, CONTEXT);
    expect(packed.contextFor.recallId).toBe('unrecorded');
    expect(packed.contextFor.text).toContain('lighthouse keeper');
    expect(
      code(await as(tok.readerA, '{ contextFor(input: { query: "lighthouse", maxTokens: 3 }) { recallId } }')),
    ).toBe('RECALL.INVALID_BUDGET');
    await refusedWritingNothing(
      () => as(tok.readerA, 'mutation { markUsed(recallId: "unrecorded") { id } }'),
      'FORBIDDEN',
    );
    await t.app.settle();
    expect([await t.countNodes(A), await recalls(), await accesses()]).toEqual([
      nodesBefore,
      recallsBefore,
      accessBefore,
    ]);

    // The same calls by a mind are recorded (so the counts above could have moved).
    const recorded = await okAs<{ search: { id: string } }>(tok.mindA, SEARCH);
    await okAs(tok.mindA, CONTEXT);
    await t.app.settle();
    expect(recorded.search.id).not.toBe('unrecorded');
    expect(await recalls()).toBe(recallsBefore + 2);
  });

  it("health counts the memories of the caller's stores; an operator's count is every store's", async () => {
    await storeAs(tok.mindA, { content: 'counted in A' });
    await storeAs(tok.mindB, { content: 'counted in B' });
    await t.app.settle();
    const inStore = async (stores: string[]) =>
      (await t.cypher<{ n: number }>('MATCH (m:Memory) WHERE m.store IN $stores RETURN count(m) AS n', { stores }))[0]
        ?.n ?? 0;
    const count = async (token: string) =>
      (await okAs<{ health: { memories: number } }>(token, '{ health { memories } }')).health.memories;
    const [inA, inB] = [await inStore([A]), await inStore([B])];
    expect(inB).toBeGreaterThan(0);
    expect(await count(tok.mindA)).toBe(inA);
    expect(await count(tok.readerA)).toBe(inA);
    expect(await count(tok.mindB)).toBe(inB);
    // The operator's counts every store of the database (other tests' too): at least A's and B's.
    expect(await count(tok.operator)).toBeGreaterThanOrEqual(inA + inB);
  });

  it('shutdown is for operators only and takes no client-chosen path; exports are mode 0600', async () => {
    await refusedWritingNothing(() => as(tok.mindA, 'mutation { shutdown { ready } }'), 'FORBIDDEN');
    await refusedWritingNothing(() => as(tok.readerA, 'mutation { shutdown { ready } }'), 'FORBIDDEN');
    for (const dir of ['/tmp', '../..', join(coldDir, '..')]) {
      await refusedWritingNothing(
        () => as(tok.operator, 'mutation ($d: String) { shutdown(coldStorageDir: $d) { ready } }', { d: dir }),
        'ADMIN.PATH_NOT_ALLOWED',
      );
    }
    expect(t.app.accepting).toBe(true);
    const written = await t.app.coldStorage.write(join(coldDir, 'export'));
    expect((await stat(written.path)).mode & 0o777).toBe(0o600);
    expect((await readdir(join(coldDir, 'export'))).length).toBe(1);
  });

  it('an operator reaches every store', async () => {
    const a = await storeAs(tok.mindA, { content: 'operator sees A' });
    const b = await storeAs(tok.mindB, { content: 'operator sees B' });
    for (const id of [a.id, b.id])
      expect((await okAs<{ memory: { id: string } }>(tok.operator, `{ memory(id: "${id}") { id } }`)).memory.id).toBe(
        id,
      );
    expect((await storeAs(tok.operator, { store: B, content: 'operator writes B' })).store).toBe(B);
  });
});

describe('isolation', () => {
  it("by-id reads of another store's memory, neighbourhood and session see nothing and record nothing", async () => {
    const a1 = await storeAs(tok.mindA, { content: 'secret of A, first', tags: ['secret'] });
    const a2 = await storeAs(tok.mindA, { content: 'secret of A, second', tags: ['secret'] });
    await okAs(tok.mindA, `mutation { associate(input: { a: "${a1.id}", b: "${a2.id}", type: CAUSAL }) { strength } }`);
    const session = (await okAs<{ sessions: { id: string }[] }>(tok.mindA, '{ sessions { id } }')).sessions[0]
      ?.id as string;
    const before = await nodes();
    expect((await okAs<{ memory: unknown }>(tok.mindB, `{ memory(id: "${a1.id}") { id content } }`)).memory).toBeNull();
    expect(
      (await okAs<{ neighbourhood: unknown[] }>(tok.mindB, `{ neighbourhood(id: "${a1.id}") { strength } }`))
        .neighbourhood,
    ).toEqual([]);
    expect((await okAs<{ session: unknown }>(tok.mindB, `{ session(id: "${session}") { id } }`)).session).toBeNull();
    expect(await nodes()).toBe(before);
    const [row] = await t.cypher<{ n: number }>('MATCH (m:Memory {id: $id}) RETURN m.accessCount AS n', { id: a1.id });
    expect(row?.n).toBe(0);
    // Changes by id are refused as if the memory did not exist (with the code its owner gives an unknown id).
    for (const [mutation, expected] of [
      [`claim(id: "${a1.id}") { id }`, 'HIPPOCAMPUS.MEMORY_NOT_FOUND'],
      [`reclassify(id: "${a1.id}", tier: ARCHIVE, reason: "x") { id }`, 'HIPPOCAMPUS.MEMORY_NOT_FOUND'],
      [
        `forget(input: { id: "${a1.id}", confirmId: "${a1.id}", reason: "x" }) { forgotten }`,
        'HIPPOCAMPUS.MEMORY_NOT_FOUND',
      ],
      [`consolidate(ids: ["${a1.id}", "${a2.id}"], strategy: COMBINE) { id }`, 'HIPPOCAMPUS.MEMORY_NOT_FOUND'],
      [
        `associate(input: { a: "${a1.id}", b: "${a2.id}", type: CAUSAL, direction: WEAKEN }) { strength }`,
        'SYNAPSE.MEMORY_NOT_FOUND',
      ],
    ]) {
      await refusedWritingNothing(() => as(tok.mindB, `mutation { ${mutation} }`), expected as string);
    }
  });

  it(
    "a memory cannot join another store's session, and an id conflict tells nothing " + 'about the other store',
    async () => {
      const sessionA = (await okAs<{ sessions: { id: string }[] }>(tok.mindA, '{ sessions { id } }')).sessions[0]
        ?.id as string;
      await refusedWritingNothing(
        () => as(tok.mindB, STORE, { in: { content: 'into A session', sessionId: sessionA } }),
        'CORTEX.FOREIGN_SESSION',
      );
      await refusedWritingNothing(
        () => as(tok.mindB, STORE, { in: { content: 'by header' } }, { 'x-session-id': sessionA }),
        'CORTEX.FOREIGN_SESSION',
      );
      // A batch's sessions are read at once: one that does not exist yet is fine, one of A's refuses the batch.
      const batch = [
        { content: 'in a session B names first', sessionId: `sec-new-${A.slice(-8)}` },
        { content: 'into A session in a batch', sessionId: sessionA },
      ];
      await refusedWritingNothing(
        () => as(tok.mindB, 'mutation ($in: [StoreInput!]!) { storeMany(inputs: $in) { id } }', { in: batch }),
        'CORTEX.FOREIGN_SESSION',
      );
      const id = `sec-id-${A.slice(-8)}`;
      await storeAs(tok.mindA, { id, content: 'the content only A knows' });
      const res = await as(tok.mindB, STORE, { in: { id, content: 'B guesses' } });
      expect(code(res)).toBe('HIPPOCAMPUS.ID_CONFLICT');
      const told = JSON.stringify(res.errors);
      expect(told).not.toContain(A);
      expect(told).not.toContain('only A knows');
    },
  );

  it('recalls and uses of another store are unknown to a mind', async () => {
    await storeAs(tok.mindA, { content: 'lisbon in may', tags: ['travel'] });
    const recall = (await okAs<{ search: { id: string } }>(tok.mindA, '{ search(input: { query: "lisbon" }) { id } }'))
      .search.id;
    // A recall is written behind the answer: wait for it, so the counts below see only the refused calls.
    await expect
      .poll(
        async () =>
          (await t.cypher<{ n: number }>('MATCH (r:Recall {id: $id}) RETURN count(r) AS n', { id: recall }))[0]?.n,
        { timeout: 30_000 },
      )
      .toBe(1);
    await refusedWritingNothing(
      () => as(tok.mindB, `mutation { markUsed(recallId: "${recall}") { id } }`),
      'RECALL.RECALL_NOT_FOUND',
    );
    const use = (
      await okAs<{ markUsed: { id: string } }>(tok.mindA, `mutation { markUsed(recallId: "${recall}") { id } }`)
    ).markUsed.id;
    await refusedWritingNothing(
      () => as(tok.mindB, `mutation { reportOutcome(useId: "${use}", outcome: SUCCEEDED) { id } }`),
      'RECALL.USE_NOT_FOUND',
    );
  });

  it('graphql-ws needs a token and binds the subscriber to its instance', async () => {
    const url = t.server.url.replace(/^http/, 'ws');
    const subscribeOnce = (connectionParams: Record<string, unknown>, instanceId: string) =>
      new Promise<{ error?: unknown; closed?: number; reason?: string; next?: unknown }>((resolve) => {
        const client = createClient({
          url,
          webSocketImpl: WebSocket,
          connectionParams,
          retryAttempts: 0,
          lazy: true,
          on: {
            closed: (e) => resolve({ closed: (e as { code: number }).code, reason: (e as { reason: string }).reason }),
          },
        });
        client.subscribe(
          { query: `subscription { notifications(instanceId: "${instanceId}", after: "0") { id } }` },
          {
            next: (value) => {
              if (value.errors) {
                resolve({ next: value });
                void client.dispose();
              }
            },
            error: (error) => {
              resolve({ error });
              void client.dispose();
            },
            complete: () => resolve({}),
          },
        );
      });
    // Refused at connect with the code HTTP gives, in the close reason (4403 is graphql-ws's refused connection).
    expect(await subscribeOnce({}, iB)).toMatchObject({
      closed: 4403,
      reason: expect.stringMatching(/^UNAUTHENTICATED: /),
    });
    expect(await subscribeOnce({ token: 'tr_0000000000_bad' }, iB)).toMatchObject({
      closed: 4403,
      reason: expect.stringMatching(/^UNAUTHENTICATED: /),
    });
    const foreign = await subscribeOnce({ token: tok.mindA, instanceId: iB }, iB);
    expect(JSON.stringify(foreign)).toContain('CORTEX.FOREIGN_INSTANCE');
  });
});
