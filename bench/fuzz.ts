/**
 * Hostile requests generated from the schema (issue 22): every Query and
 * Mutation field with arguments of hostile shapes, sizes and values, random
 * selections (deep, aliased), wrong types, broken bodies and bad tokens, sent
 * by an attacker holding a mind token for its own store. Counted: crashes
 * (the server stops answering), untyped errors (no extensions.code, or
 * INTERNAL_SERVER_ERROR), writes to a victim store the attacker cannot reach,
 * writes from refused calls (sampled: one request alone, node counts before
 * and after), and a well-behaved client's p95 while the fuzzer runs against
 * its idle p95, the service and the well-behaved client each in a process of
 * their own. Run: npm run bench:fuzz (FUZZ_REQUESTS, FUZZ_CONCURRENCY).
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';
import { buildGraphQLSchema } from '../src/adapters/graphql/index.js';
import { deleteKeysWithPrefix } from '../src/adapters/redis.js';
import { loadavg } from 'node:os';
import { serveApiOnly, summarise } from './lib.js';
import { startBench } from './conditions.js';
import { startBystander } from './fuzz/bystander.js';
import { classify, noteSlow, tally, untypedSamples } from './fuzz/classify.js';
import { requestGenerator } from './fuzz/hostile.js';
import { report } from './fuzz/report.js';

// The machine must be quiet (or BENCH_BUSY_OK=1); the results file records how it was.
await startBench();

process.env.TOTAL_RECALL_EMBEDDINGS ??= 'off';
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 100_000);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 8);
const SAMPLE_EVERY = Number(process.env.FUZZ_SAMPLE_EVERY ?? 200);

const victim = `fuzz-victim-${randomUUID()}`;
const attacker = `fuzz-attacker-${randomUUID()}`;
const bystander = `fuzz-bystander-${randomUUID()}`;
const prefix = `fuzz-${randomUUID().slice(0, 8)}`;
// The service under attack runs in a process of its own, as `npm run serve -- --api-only` (admission as npm start
// runs it), so the fuzzer's own work (generating and sending) does not share the service's event loop.
const serverEnv: NodeJS.ProcessEnv = {
  ...process.env,
  TOTAL_RECALL_AUTH: 'on',
  TOTAL_RECALL_QUEUE_PREFIX: prefix,
  TOTAL_RECALL_SCOPE_STORES: [victim, attacker, bystander].join(','),
  // The fuzzer is one token sending as fast as it can: the rate limit would answer most of it 429 (typed, but nothing
  // else tested).
  TOTAL_RECALL_RATE_LIMIT_PER_MINUTE: '100000000',
};
const config = loadConfig(serverEnv);
// This process: tokens, and the driver for counting what the requests wrote.
const app = await createApp(config, { log: () => undefined });
const schema = await buildGraphQLSchema();
const server = await serveApiOnly(serverEnv);

/**
 * Waits until the store's node count holds still for half a second (the service's own after-work, in its own
 * process, has landed), at most 10 s; returns the count.
 */
async function quiet(store: string): Promise<number> {
  let last = await cypherCount(store);
  for (const end = Date.now() + 10_000; Date.now() < end; ) {
    await new Promise((r) => setTimeout(r, 500));
    const now = await cypherCount(store);
    if (now === last) return now;
    last = now;
  }
  return last;
}

const tokens = {
  attacker: (await app.tokens.create({ scope: 'mind', stores: [attacker], instanceId: `fuzz-i-${attacker.slice(-6)}` }))
    .token,
  attackerReader: (await app.tokens.create({ scope: 'reader', stores: [attacker] })).token,
  victim: (await app.tokens.create({ scope: 'mind', stores: [victim], instanceId: `fuzz-i-${victim.slice(-6)}` }))
    .token,
  bystander: (await app.tokens.create({ scope: 'reader', stores: [bystander] })).token,
  bystanderMind: (await app.tokens.create({ scope: 'mind', stores: [bystander] })).token,
};
const tokenIds = (await app.tokens.list())
  .filter((k) => Object.values(tokens).some((t) => t.startsWith(`tr_${k.id}_`)))
  .map((k) => k.id);

async function call(
  token: string | null,
  body: string,
  extra: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const res = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra },
    body,
  });
  return { status: res.status, text: await res.text() };
}
const gql = (token: string, query: string, variables: Record<string, unknown> = {}) =>
  call(token, JSON.stringify({ query, variables }));

async function cypherCount(store: string): Promise<number> {
  const r = await app.driver.executeQuery(
    'MATCH (n) WHERE n.store = $store RETURN count(n) AS n',
    { store },
    { database: config.neo4j.database },
  );
  return Number(r.records[0]?.get('n') ?? 0);
}
async function victimState(): Promise<string> {
  const r = await app.driver.executeQuery(
    'MATCH (m:Memory {store: $store}) RETURN m.id AS id, m.accessCount AS a, m.tier AS t, m.claimed AS c, m.content ' +
      'AS content ORDER BY id',
    { store: victim },
    { database: config.neo4j.database },
  );
  return `${JSON.stringify(r.records.map((x) => x.toObject()))}|${await cypherCount(victim)}`;
}

// ── the world the fuzzer attacks ────────────────────────────────────────────
const STORE = 'mutation ($in: StoreInput!) { store(input: $in) { id } }';
const ids = { victim: [] as string[], attacker: [] as string[], sessions: [] as string[], recalls: [] as string[] };
for (let i = 0; i < 5; i++) {
  ids.victim.push(
    JSON.parse(
      (await gql(tokens.victim, STORE, { in: { content: `victim secret ${i} about lisbon`, tags: ['secret'] } })).text,
    ).data.store.id,
  );
  ids.attacker.push(
    JSON.parse((await gql(tokens.attacker, STORE, { in: { content: `attacker note ${i} about lisbon` } })).text).data
      .store.id,
  );
}
for (let i = 0; i < 200; i++)
  await gql(tokens.bystanderMind, STORE, {
    in: { content: `bystander memory ${i}: a trip to lisbon, porto and the coast` },
  });
ids.sessions.push(
  JSON.parse(
    (
      await gql(
        tokens.victim,
        `mutation { startSession(input: { instanceId: "fuzz-i-${victim.slice(-6)}", mindType: "fuzz" }) { id } }`,
      )
    ).text,
  ).data.startSession.id,
);
ids.recalls.push(
  JSON.parse((await gql(tokens.victim, '{ search(input: { query: "lisbon" }) { id } }')).text).data.search.id,
);
await new Promise((r) => setTimeout(r, 2000));
await quiet(bystander);

const generate = requestGenerator(schema, { victim, attacker, tokens, ids });

const loadBefore = loadavg();
const idleClient = startBystander(server.url, tokens.bystander);
while (idleClient.samples.length < 300) await new Promise((r) => setTimeout(r, 50));
await idleClient.stop();
const idle = idleClient.samples.map((x) => x.ms);
console.log(`idle p95 ${summarise(idle).p95} ms over ${idle.length} searches`);

const victimBefore = await victimState();
let refusedSampled = 0;
let refusedWrites = 0;
let gate: Promise<void> | null = null;
/** When the fuzzer paused while a sampled request ran alone: the bystander's searches then are not counted. */
const pauses: { from: number; to: number }[] = [];
const client = startBystander(server.url, tokens.bystander);
const t0 = performance.now();
let next = 0;
let inFlight = 0;
async function worker(): Promise<void> {
  while (next < REQUESTS) {
    while (gate) await gate;
    const n = next++;
    const req = generate();
    // Sampled: one request alone (the other workers wait), to see whether a refused call wrote anything.
    const sampled = n % SAMPLE_EVERY === 0;
    let open: () => void = () => undefined;
    if (sampled) {
      gate = new Promise<void>((resolve) => (open = resolve));
      pauses.push({ from: Date.now(), to: Number.POSITIVE_INFINITY });
      while (inFlight > 0) await new Promise((r) => setTimeout(r, 5));
    }
    inFlight += 1;
    const before = sampled ? await quiet(attacker) : 0;
    try {
      const started = performance.now();
      const res = await call(req.token, req.body);
      noteSlow(performance.now() - started, req.body, res.status);
      tally.sent += 1;
      const { refused } = classify(res.status, res.text);
      if (sampled && refused) {
        refusedSampled += 1;
        if ((await quiet(attacker)) !== before) refusedWrites += 1;
      }
    } catch (error) {
      tally.sent += 1;
      tally.crashes += 1;
      if (untypedSamples.length < 10) untypedSamples.push(`transport: ${(error as Error).message}`);
    } finally {
      inFlight -= 1;
      if (sampled) {
        (pauses[pauses.length - 1] as { to: number }).to = Date.now();
        gate = null;
        open();
      }
    }
    if (n % 5000 === 0) {
      const health = await gql(tokens.bystander, '{ health { neo4j redis } }').catch(() => null);
      if (health?.status !== 200) tally.crashes += 1;
      console.log(
        `${n} sent, ${Math.round((n / (performance.now() - t0)) * 1000)}/s, untyped ${tally.untyped}, ` +
          `crashes ${tally.crashes}`,
      );
    }
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, () => worker()));
await client.stop();
const during = client.samples.filter((x) => !pauses.some((p) => x.at < p.to && x.at + x.ms > p.from)).map((x) => x.ms);
const seconds = (performance.now() - t0) / 1000;
await quiet(attacker);
await quiet(victim);
const victimAfter = await victimState();
const healthAfter = await gql(tokens.bystander, '{ health { neo4j redis } }');

report({
  concurrency: CONCURRENCY,
  admission: config.admission,
  seconds,
  victimBefore,
  victimAfter,
  refusedSampled,
  refusedWrites,
  healthAfter,
  idle,
  during,
  loadBefore,
});

await app.driver.executeQuery(
  'MATCH (k:ApiToken) WHERE k.id IN $ids DETACH DELETE k',
  { ids: tokenIds },
  { database: config.neo4j.database },
);
for (const store of [victim, attacker, bystander]) {
  const session = app.driver.session({ database: config.neo4j.database });
  await session.run('MATCH (n) WHERE n.store = $store CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS', {
    store,
  });
  await session.close();
}
await server.stop();
await app.close();
await deleteKeysWithPrefix(config.redisUrl, prefix);
process.exit(0);
