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
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
} from 'graphql';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';
import { buildGraphQLSchema } from '../src/adapters/graphql/index.js';
import { deleteKeysWithPrefix } from '../src/adapters/redis.js';
import { loadavg } from 'node:os';
import { markdownTable, rng, serveApiOnly, summarise, writeResults } from './lib.js';
import { startBench } from './conditions.js';

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
  // The fuzzer is one token sending as fast as it can: the rate limit would answer most of it 429 (typed, but nothing else tested).
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
    'MATCH (m:Memory {store: $store}) RETURN m.id AS id, m.accessCount AS a, m.tier AS t, m.claimed AS c, m.content AS content ORDER BY id',
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

// ── hostile values from the schema ──────────────────────────────────────────
const random = rng(22);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const chance = (p: number) => random() < p;
const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { d: nested(depth - 1) });

const HOSTILE_STRINGS = [
  '',
  ' ',
  'x'.repeat(70_000),
  'a\u0000b',
  'line\nbreak',
  "' OR 1=1 //",
  '"}) MATCH (n) DETACH DELETE n //',
  'content:* OR storeKey:*',
  '*:*',
  '\\',
  '${jndi:ldap://x}',
  '🧠'.repeat(5000),
  '../../etc/passwd',
  '/tmp',
  '0',
  '-1',
  'null',
  '2026-02-30',
  victim,
  attacker,
  'default',
];

/** While set, values stay small (the elements of a long list). */
let compact = false;
function smallValue(value: unknown): unknown {
  if (!compact) return value;
  if (typeof value === 'string') return value.length > 200 ? 'small' : value;
  return value !== null && typeof value === 'object' ? 'small' : value;
}

function hostileScalar(name: string): unknown {
  return smallValue(anyScalar(name));
}

function anyScalar(name: string): unknown {
  switch (name) {
    case 'String':
      return chance(0.3) ? `fuzz ${Math.floor(random() * 1e6)}` : pick(HOSTILE_STRINGS);
    case 'ID':
      return chance(0.5)
        ? pick([...ids.victim, ...ids.attacker, ...ids.sessions, ...ids.recalls])
        : pick(HOSTILE_STRINGS);
    case 'Int':
      return pick([0, -1, 1, 3, 1000, 2 ** 31, -(2 ** 53), 1e20, 1.5, '7', null]);
    case 'Float':
      return pick([0, -0, 1, 0.5, -1, 1e308, -1e308, 1e-320, 'NaN', null]);
    case 'Boolean':
      return pick([true, false, 'true', 0, null]);
    case 'DateTime':
      return pick([
        '2026-05-01T12:00:00Z',
        '2026-02-30',
        '2026-13-01',
        1e20,
        1700000000000,
        -1,
        '',
        'yesterday',
        '9999-12-31T23:59:59Z',
        '0000-01-01',
        null,
      ]);
    case 'JSON':
      return pick([
        { a: 1 },
        nested(50),
        nested(19),
        { big: 'x'.repeat(300_000) },
        [1, 2, 3],
        'text',
        42,
        null,
        Array.from({ length: 5000 }, (_, i) => i),
      ]);
    default:
      return pick(HOSTILE_STRINGS);
  }
}

function hostileValue(type: GraphQLInputType, depth = 0): unknown {
  if (chance(0.03)) return pick([null, 'wrong type', 12, [], {}]);
  if (isNonNullType(type)) return hostileValue(type.ofType as GraphQLInputType, depth);
  if (isListType(type)) {
    const n = pick([0, 1, 2, 5, chance(0.05) ? 1500 : 3]);
    // A long list holds small values: 1,500 elements of 300 kB each would be a 450 MB body the fuzzer spends
    // seconds building (the body limit is tested by the single large values).
    const wasCompact = compact;
    compact ||= n > 100;
    const items = Array.from({ length: n }, () => hostileValue(type.ofType as GraphQLInputType, depth + 1));
    compact = wasCompact;
    return items;
  }
  if (isEnumType(type)) return chance(0.9) ? pick(type.getValues()).name : 'NOT_A_VALUE';
  if (isInputObjectType(type)) {
    const out: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) {
      if (isNonNullType(field.type) || chance(0.6)) out[field.name] = hostileValue(field.type, depth + 1);
    }
    if (chance(0.05)) out.unknownField = 'x';
    if (type.name === 'StoreInput' && chance(0.3))
      out.embedding = pick([Array(384).fill(0), Array(384).fill(1e308), Array(10).fill(0.1), Array(384).fill(0.05)]);
    return out;
  }
  if (isScalarType(type)) return hostileScalar(type.name);
  return null;
}

function selection(type: GraphQLObjectType, depth: number, maxDepth: number): string {
  const fields = Object.values(type.getFields());
  const chosen = fields.filter(() => chance(0.5));
  if (chosen.length === 0) chosen.push(fields[0] as GraphQLField<unknown, unknown>);
  return (
    chosen
      .map((f) => {
        const named = getNamedType(f.type);
        const args = f.args.filter((a) => isNonNullType(a.type) || chance(0.3));
        const argText = args.length ? `(${args.map((a) => `${a.name}: ${literal(a)}`).join(', ')})` : '';
        if (isObjectType(named))
          return depth >= maxDepth ? null : `${f.name}${argText} { ${selection(named, depth + 1, maxDepth)} }`;
        return `${f.name}${argText}`;
      })
      .filter((s): s is string => s !== null)
      .join(' ') || '__typename'
  );
}

/** A nested field's argument as a literal (no variables below the root). */
function literal(arg: GraphQLArgument): string {
  const v = hostileValue(arg.type);
  if (isEnumType(getNamedType(arg.type)) && typeof v === 'string') return v;
  return JSON.stringify(
    typeof v === 'string' ? v.slice(0, 200) : typeof v === 'number' || typeof v === 'boolean' ? v : 1,
  );
}

const roots = [schema.getQueryType(), schema.getMutationType()].filter((t): t is GraphQLObjectType => Boolean(t));
const rootFields = roots.flatMap((root) => Object.values(root.getFields()).map((field) => ({ root, field })));

function generate(): { token: string | null; body: string; mutation: boolean; refusedCheck: boolean } {
  const { root, field } = pick(rootFields);
  const op = root === schema.getMutationType() ? 'mutation' : 'query';
  const vars: Record<string, unknown> = {};
  const decls: string[] = [];
  const args: string[] = [];
  for (const arg of field.args) {
    if (!isNonNullType(arg.type) && chance(0.4)) continue;
    vars[arg.name] = hostileValue(arg.type);
    decls.push(`$${arg.name}: ${arg.type.toString()}`);
    args.push(`${arg.name}: $${arg.name}`);
  }
  const named = getNamedType(field.type);
  const maxDepth = chance(0.1) ? 12 : 3;
  const sel = isObjectType(named) ? ` { ${selection(named, 1, maxDepth)} }` : '';
  const aliases = chance(0.1) ? pick([2, 5, 16, 50]) : 1;
  const body = Array.from(
    { length: aliases },
    (_, i) => `${aliases > 1 ? `a${i}: ` : ''}${field.name}${args.length ? `(${args.join(', ')})` : ''}${sel}`,
  ).join(' ');
  const query = `${op}${decls.length ? ` (${decls.join(', ')})` : ''} { ${body} }`;
  const token = chance(0.9)
    ? tokens.attacker
    : pick([tokens.attackerReader, null, 'tr_0000000000_forged', `${tokens.attacker.slice(0, -2)}zz`]);
  const shape = random();
  const text =
    shape < 0.02
      ? '{ not json'
      : shape < 0.03
        ? JSON.stringify([{ query }, { query }])
        : shape < 0.035
          ? JSON.stringify({ query: 'x'.repeat(100) })
          : JSON.stringify({ query, variables: vars });
  return { token, body: text, mutation: op === 'mutation', refusedCheck: op === 'mutation' };
}

// ── classification ──────────────────────────────────────────────────────────
const tally = {
  sent: 0,
  ok: 0,
  typedErrors: 0,
  untyped: 0,
  crashes: 0,
  byCode: new Map<string, number>(),
  byStatus: new Map<number, number>(),
};
const untypedSamples: string[] = [];
function classify(status: number, text: string): { refused: boolean } {
  tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
  let parsed: { data?: unknown; errors?: { message?: string; extensions?: { code?: unknown } }[] } | null = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (!parsed || (status >= 500 && status !== 503)) {
    tally.untyped += 1;
    if (untypedSamples.length < 10) untypedSamples.push(`${status} ${text.slice(0, 300)}`);
    return { refused: true };
  }
  const errors = parsed.errors ?? [];
  if (errors.length === 0) {
    tally.ok += 1;
    return { refused: false };
  }
  for (const e of errors) {
    const code = e.extensions?.code;
    if (typeof code !== 'string' || code === 'INTERNAL_SERVER_ERROR') {
      tally.untyped += 1;
      if (untypedSamples.length < 10) untypedSamples.push(`${status} ${JSON.stringify(e).slice(0, 300)}`);
    } else {
      tally.typedErrors += 1;
      tally.byCode.set(code, (tally.byCode.get(code) ?? 0) + 1);
    }
  }
  // A response with errors and no data for any root field: the call was refused.
  const data = parsed.data as Record<string, unknown> | null | undefined;
  return { refused: !data || Object.values(data).every((v) => v === null) };
}

/** The slowest requests, so a request shape that stalls the service can be found. */
const slowest: { ms: number; status: number; body: string }[] = [];
function noteSlow(ms: number, body: string, status: number): void {
  if (slowest.length >= 8 && ms <= (slowest[slowest.length - 1]?.ms ?? 0)) return;
  slowest.push({
    ms: Math.round(ms),
    status,
    body: body.length > 400 ? `${body.slice(0, 400)}… (${body.length} chars)` : body,
  });
  slowest.sort((a, b) => b.ms - a.ms);
  slowest.length = Math.min(slowest.length, 8);
}

// ── the well-behaved client ─────────────────────────────────────────────────
/**
 * The bystander, in a process of its own so that the fuzzer's own work (generating and sending) cannot delay its
 * clock: one search at a time by a reader token of its own store; each line it prints is "startEpochMs durationMs".
 */
const BYSTANDER = `
const [url, token] = process.argv.slice(1);
const queries = ['lisbon', 'porto coast', 'trip', 'memory about the coast'];
let stop = false;
process.stdin.on('end', () => (stop = true)).resume();
for (let i = 0; !stop; i++) {
  const at = Date.now();
  const started = performance.now();
  const query = '{ search(input: { query: ' + JSON.stringify(queries[i % queries.length]) + ', limit: 5 }) { hits { memory { id } } } }';
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token }, body: JSON.stringify({ query }) });
  const text = await res.text();
  if (res.status !== 200 || JSON.parse(text).errors) {
    console.error('well-behaved client refused: ' + text.slice(0, 300));
    process.exit(3);
  }
  process.stdout.write(at + ' ' + (performance.now() - started) + '\\n');
}
`;

interface Sample {
  readonly at: number;
  readonly ms: number;
}

function startBystander(): { samples: Sample[]; stop: () => Promise<void> } {
  const samples: Sample[] = [];
  const child = spawn(process.execPath, ['--input-type=module', '-e', BYSTANDER, server.url, tokens.bystander], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + String(chunk)).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const [at, ms] = line.split(' ').map(Number);
      if (Number.isFinite(at) && Number.isFinite(ms)) samples.push({ at: at as number, ms: ms as number });
    }
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return {
    samples,
    async stop() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`the well-behaved client stopped with exit code ${code}`);
    },
  };
}

const loadBefore = loadavg();
const idleClient = startBystander();
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
const client = startBystander();
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
        `${n} sent, ${Math.round((n / (performance.now() - t0)) * 1000)}/s, untyped ${tally.untyped}, crashes ${tally.crashes}`,
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

const idleSummary = summarise(idle);
const duringSummary = summarise(during);
const ratio = Math.round((duringSummary.p95 / idleSummary.p95) * 100) / 100;
const result = {
  requests: tally.sent,
  concurrency: CONCURRENCY,
  seconds: Math.round(seconds),
  crashes: tally.crashes,
  untypedErrors: tally.untyped,
  victimChanged: victimBefore !== victimAfter,
  refusedSampled,
  refusedWrites,
  okResponses: tally.ok,
  typedErrors: tally.typedErrors,
  healthAfter: healthAfter.status === 200 && JSON.parse(healthAfter.text).data?.health?.neo4j === true,
  wellBehaved: { idle: idleSummary, during: duringSummary, p95Ratio: ratio },
  codes: Object.fromEntries([...tally.byCode.entries()].sort((a, b) => b[1] - a[1])),
  statuses: Object.fromEntries(tally.byStatus),
  untypedSamples,
  slowest,
};
console.log(JSON.stringify(result, null, 2));
const md = [
  `${tally.sent} requests generated from the schema (every Query and Mutation field; hostile argument values, sizes and types; random selections up to 12 deep; up to 50 aliases; broken bodies, batches, forged and missing tokens), ${CONCURRENCY} at a time, sent by a mind token of its own store. A victim store the attacker names by its ids and name; a bystander (a reader token of a third store) searches throughout. The service runs in its own process (\`npm run serve -- --api-only\`), with admission as \`npm start\` runs it (${config.admission.maxConcurrent} at once, ${config.admission.maxPerCaller} per token, ${config.admission.maxQueued} waiting); the rate limit is lifted, so that every request reaches the resolvers. Load average before: ${loadBefore.map((x) => x.toFixed(2)).join(' ')}; after: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}.`,
  '',
  markdownTable(
    ['measure', 'target', 'result'],
    [
      ['crashes (server stopped answering, transport errors, health failing)', '0', tally.crashes],
      ['untyped errors (no extensions.code, INTERNAL_SERVER_ERROR, non-JSON answers)', '0', tally.untyped],
      ['writes to the victim store', '0', victimBefore === victimAfter ? 0 : 'changed'],
      [`writes from refused calls (sampled: ${refusedSampled} refused calls run alone)`, '0', refusedWrites],
      ['bystander search p95 while fuzzing / idle', '≤ 2×', `${duringSummary.p95} / ${idleSummary.p95} ms = ${ratio}×`],
      ['health after', 'answers', result.healthAfter ? 'answers' : 'failed'],
    ],
  ),
  '',
  `Throughput: ${Math.round(tally.sent / seconds)} requests/s over ${Math.round(seconds)} s; ${tally.ok} answered without error, ${tally.typedErrors} typed errors.`,
  '',
  'Error codes seen:',
  '',
  markdownTable(
    ['code', 'count'],
    [...tally.byCode.entries()].sort((a, b) => b[1] - a[1]).map(([c, n]) => [c, n]),
  ),
  '',
  `HTTP statuses: ${[...tally.byStatus.entries()].map(([s, n]) => `${s}: ${n}`).join(', ')}.`,
  untypedSamples.length
    ? `\nUntyped samples:\n\n${untypedSamples.map((s) => `- \`${s.replace(/`/g, "'")}\``).join('\n')}`
    : '',
].join('\n');
writeResults('fuzz', { ...result, loadAverage: { before: loadBefore, after: loadavg() } }, md);

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
