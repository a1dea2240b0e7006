/**
 * The `total-recall` command, each call its own process, against the real
 * service: the seed's resume example across two worktrees of one repository,
 * and the exit codes (0 ok, 1 nothing found, 2 usage, 3 unreachable or try
 * again), also while the service's Neo4j is gone.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { dropQueues, queuePrefix } from '../background.js';
import { startFaultProxy, type FaultProxy } from '../fault-proxy.js';
import { gitStoreName, MARKER, PIN } from '../../src/cli/store-by-directory.js';
import type { ThreadedEmbedder } from '../../src/adapters/embeddings/index.js';
import { loadConfig } from '../../src/config.js';
import { generateToken } from '../../src/adapters/auth/testing.js';

const BIN = resolve(import.meta.dirname, '../../bin/total-recall.mjs');
let t: TestApp;
let base: string;
let root: string;
let repo: string;
let worktree: string;
const stores: string[] = [];
/** A test that runs the command several times: each run is a process start (seconds on a busy machine). */
const MANY_PROCESSES = 240_000;
const prefix = queuePrefix();

/** The service embeds a new memory within moments; a test waits for it rather than racing it. */
async function settle(): Promise<void> {
  await t.app.bus.idle();
  await t.app.embeddings!.idle();
  await t.app.bus.idle();
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, TOTAL_RECALL_URL: base, TOTAL_RECALL_STORE: '', TOTAL_RECALL_INSTANCE_ID: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.email=t@example.org', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args],
    { cwd, stdio: 'pipe' },
  );

/**
 * `total-recall mcp` as a client starts it: one JSON-RPC request on stdin, its answer read from stdout, then stdin
 * closed (the bridge ends).
 */
function bridge(cwd: string, request: object, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, 'mcp'], {
      cwd,
      env: { ...process.env, TOTAL_RECALL_URL: base, TOTAL_RECALL_STORE: '', TOTAL_RECALL_INSTANCE_ID: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('\n')) child.stdin.end();
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.write(`${JSON.stringify(request)}\n`);
  });
}

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tr-cli-')));
  repo = join(root, 'project');
  mkdirSync(repo);
  git(repo, 'init', '-q');
  writeFileSync(join(repo, 'README'), 'x');
  git(repo, 'add', 'README');
  git(repo, 'commit', '-qm', 'first');
  worktree = join(root, 'project-other');
  git(repo, 'worktree', 'add', '-q', worktree, '-b', 'other');
  stores.push(gitStoreName(join(repo, '.git')));
  // As `npm start` runs it: with the embedding model (and its worker) on.
  t = await startTestApp(
    { embeddingWorker: true, log: () => undefined },
    {
      ...process.env,
      TOTAL_RECALL_EMBEDDINGS: 'on',
      TOTAL_RECALL_QUEUE_PREFIX: prefix,
      TOTAL_RECALL_SCOPE_STORES: stores[0],
    },
  );
  expect((await (t.app.embedder as ThreadedEmbedder).start()).state).toBe('ready');
  base = t.server.url.replace(/\/graphql$/, '');
});

afterAll(async () => {
  for (const store of stores) await t?.dropStore(store);
  await t?.stop();
  await dropQueues(prefix);
  rmSync(root, { recursive: true, force: true });
});

describe('total-recall CLI', () => {
  it(
    'runs the resume example: remember in one worktree, resume and context in another, each its own process',
    async () => {
      const remembered = await cli(repo, ['remember', 'the number 8231']);
      expect(remembered.stderr).toBe('');
      expect(remembered.code).toBe(0);
      expect(remembered.stdout).toMatch(/^remembered mem_/);
      await settle();

      const resumed = await cli(worktree, ['resume']);
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain(`store "${stores[0]}"`);
      expect(resumed.stdout).toMatch(/latest memories \(1\):\n\s+\d{4}-\d{2}-\d{2}\s+mem_\S+\s+the number 8231/);

      // The seed's resume example with default floors: the frame line comes first and says how sure the
      // recall is, then the memory, labelled as recalled, with its date and confidence.
      const context = await cli(worktree, ['context', 'what number did I ask you to remember?']);
      expect(context.stderr).toBe('');
      expect(context.code).toBe(0);
      const [frame, ...lines] = context.stdout.trim().split('\n');
      expect(frame).toMatch(/^(Recalled 1 memory|Only weak matches for)/);
      expect(frame).not.toContain('8231');
      expect(lines.join('\n')).toMatch(/\[Recalled memory, \d{4}-\d{2}-\d{2}, confidence \d+%\] the number 8231/);
      // A floor no memory reaches leaves the frame line alone, which says what fell below it; exit code 1.
      const floored = await cli(worktree, ['context', 'what number did I ask you to remember?', '--floor', '1']);
      expect(floored.code).toBe(1);
      expect(floored.stdout.trim()).toMatch(
        /^Nothing remembered about "what number did I ask you to remember\?". 1 more fell below the floor/,
      );

      const json = await cli(worktree, ['recall', 'the number 8231', '--json']);
      expect(json.code).toBe(0);
      const data = JSON.parse(json.stdout);
      expect(data.hits[0].memory.content).toBe('the number 8231');
      expect(data.hits[0].memory.store).toBe(stores[0]);
      expect(data.hits[0].confidence).toBeGreaterThan(0);
    },
    MANY_PROCESSES,
  );

  it(
    'prints the frame line, then each hit with its confidence and date',
    async () => {
      const run = await cli(worktree, ['recall', 'which number?']);
      expect(run.code).toBe(0);
      const [frame, hit] = run.stdout.trim().split('\n');
      expect(frame).toMatch(/\S/);
      expect(hit).toMatch(/^\s+\d+%\s+\d{4}-\d{2}-\d{2}\s+mem_\S+\s+the number 8231$/);
    },
    MANY_PROCESSES,
  );

  it(
    'exits 1 when recall finds nothing, and says which store the fallback was',
    async () => {
      const empty = randomStore('cli-empty');
      const run = await cli(root, ['recall', 'anything at all', '--store', empty]);
      expect(run.code).toBe(1);
      const outside = await cli(mkdtempSync(join(tmpdir(), 'tr-cli-plain-')), ['status']);
      expect(outside.code).toBe(0);
      const defaultStore = new RegExp(
        String.raw`this directory: the service's default store \(no \.total-recall marker and no git checkout ` +
          String.raw`above .*\): "default"`,
      );
      expect(outside.stdout).toMatch(defaultStore);
    },
    MANY_PROCESSES,
  );

  it(
    'exits 2 on a usage error and on input the service refuses, changing nothing',
    async () => {
      expect((await cli(repo, [])).code).toBe(2);
      expect((await cli(repo, ['frobnicate'])).code).toBe(2);
      expect((await cli(repo, ['recall'])).code).toBe(2);
      expect((await cli(repo, ['context', 'x', '--max-tokens', 'many'])).code).toBe(2);
      const noConsent = await cli(repo, ['forget', 'mem-x', '--reason', 'r']);
      expect(noConsent.code).toBe(2);
      expect(noConsent.stderr).toMatch(/--confirm/);
      const refused = await cli(repo, ['forget', 'mem-x', '--confirm', 'mem-y', '--reason', 'r']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/HIPPOCAMPUS\.FORGET_NOT_CONFIRMED/);
    },
    MANY_PROCESSES,
  );

  it(
    'exits 3 with one line saying how to start the service when it cannot be reached',
    async () => {
      const run = await cli(repo, ['recall', 'anything'], { TOTAL_RECALL_URL: 'http://127.0.0.1:9' });
      expect(run.code).toBe(3);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/not reachable at http:\/\/127\.0\.0\.1:9.*npm start/);
    },
    MANY_PROCESSES,
  );

  it(
    'init writes a marker that then chooses the store',
    async () => {
      const dir = join(repo, 'notes');
      mkdirSync(dir);
      const store = randomStore('cli-init');
      stores.push(store);
      const run = await cli(dir, ['init', '--store', store]);
      expect(run.code).toBe(0);
      expect(readFileSync(join(dir, MARKER), 'utf8')).toContain(store);
      expect((await cli(dir, ['init'])).code).toBe(2); // exists already
      const stored = await cli(dir, ['remember', 'a note under the marker', '--json']);
      expect(JSON.parse(stored.stdout).memory.store).toBe(store);
      const id = JSON.parse(stored.stdout).memory.id as string;
      expect((await cli(dir, ['claim', id])).stdout).toMatch(/^claimed /);
      expect((await cli(dir, ['sessions'])).code).toBe(0);
      expect((await cli(dir, ['forget', id, '--confirm', id, '--reason', 'test over'])).stdout).toBe(`forgot ${id}\n`);
    },
    MANY_PROCESSES,
  );

  it(
    'follows a checkout under $HOME: its own store despite a marker at $HOME, kept when it is moved and renamed',
    async () => {
      const home = join(root, 'home');
      mkdirSync(join(home, 'code', 'projA'), { recursive: true });
      const asUser = { HOME: home };
      // Once, `total-recall init` in ~: a marker there.
      const homeStore = randomStore('cli-home');
      stores.push(homeStore);
      expect((await cli(home, ['init', '--store', homeStore], asUser)).code).toBe(0);
      const projA = join(home, 'code', 'projA');
      git(projA, 'init', '-q');
      writeFileSync(join(projA, 'README'), 'x');
      git(projA, 'add', 'README');
      git(projA, 'commit', '-qm', 'first');
      const store = gitStoreName(join(projA, '.git'));
      stores.push(store);

      const remembered = await cli(projA, ['remember', 'projA serves on port 8123', '--json'], asUser);
      expect(remembered.code).toBe(0);
      expect(JSON.parse(remembered.stdout).memory.store).toBe(store);
      expect(readFileSync(join(projA, '.git', PIN), 'utf8')).toContain(`\n${store}\n`);
      await settle();

      // Moved and renamed: the memory comes along.
      const moved = join(home, 'work', 'renamed');
      mkdirSync(join(home, 'work'));
      renameSync(projA, moved);
      const recalled = await cli(moved, ['recall', 'which port does projA serve on?', '--json'], asUser);
      expect(recalled.code).toBe(0);
      const hits = JSON.parse(recalled.stdout).hits as { memory: { content: string; store: string } }[];
      expect(hits.map((h) => h.memory.content)).toContain('projA serves on port 8123');
      expect(hits.every((h) => h.memory.store === store)).toBe(true);

      // status says which store the directory gets, and why: the checkout, a marker, or the default.
      const status = await cli(moved, ['status'], asUser);
      expect(status.code).toBe(0);
      expect(status.stdout).toContain(
        `this directory: store "${store}" (the git checkout, common git dir ${join(moved, '.git')}, ` +
          `store pinned in ${join(moved, '.git', PIN)})`,
      );
      const json = JSON.parse((await cli(moved, ['status', '--json'], asUser)).stdout);
      expect(json).toMatchObject({
        store,
        directory: { store, source: 'git', path: join(moved, '.git'), pinned: true },
      });
      mkdirSync(join(home, 'letters'));
      const marked = await cli(join(home, 'letters'), ['status', '--json'], asUser);
      expect(JSON.parse(marked.stdout)).toMatchObject({
        store: homeStore,
        directory: { store: homeStore, source: 'marker', path: join(home, MARKER) },
      });
      expect((await cli(join(home, 'letters'), ['status'], asUser)).stdout).toContain(
        `this directory: store "${homeStore}" (the marker ${join(home, MARKER)})`,
      );
      const plain = JSON.parse((await cli(root, ['status', '--json'], asUser)).stdout);
      expect(plain).toMatchObject({ store: 'default', directory: { store: null, source: 'default', path: null } });

      // The stdio bridge says on stderr which store it resolved; stdout carries JSON-RPC only.
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
      };
      const relayed = await bridge(moved, initialize, asUser);
      expect(relayed.code).toBe(0);
      expect(relayed.stderr).toContain(
        `total-recall mcp: store "${store}" (the git checkout, common git dir ${join(moved, '.git')}`,
      );
      const lines = relayed.stdout.trim().split('\n');
      expect(lines.map((l) => JSON.parse(l))).toMatchObject([{ jsonrpc: '2.0', id: 1, result: { serverInfo: {} } }]);
      const outside = await bridge(mkdtempSync(join(tmpdir(), 'tr-cli-plain-')), initialize, asUser);
      expect(outside.stderr).toMatch(/^total-recall mcp: the service's default store \(no \.total-recall marker/m);
      expect(existsSync(join(home, MARKER))).toBe(true);
    },
    MANY_PROCESSES,
  );

  it(
    'takes the URL the server prints (…/graphql) or the MCP endpoint (…/mcp); a URL without MCP is unreachable',
    async () => {
      for (const url of [t.server.url, `${base}/mcp`, `${base}/mcp/`]) {
        const run = await cli(repo, ['status'], { TOTAL_RECALL_URL: url });
        expect({ url, code: run.code, stderr: run.stderr }).toEqual({ url, code: 0, stderr: '' });
      }
      const elsewhere = await cli(repo, ['status'], { TOTAL_RECALL_URL: `${base}/nothing` });
      expect(elsewhere.code).toBe(3);
      expect(elsewhere.stderr).toMatch(/^Total Recall is not reachable at .*serves no MCP endpoint/);
    },
    MANY_PROCESSES,
  );

  it(
    'exports the store --store names, and only it',
    async () => {
      const store = randomStore('cli-export');
      stores.push(store);
      expect((await cli(root, ['remember', 'exported alone', '--store', store])).code).toBe(0);
      await settle();
      const dir = join(root, 'export');
      const run = await cli(root, ['export', dir, '--store', store]);
      expect(run.code).toBe(0);
      const [file] = readdirSync(dir);
      const lines = readFileSync(join(dir, file!), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines[0]).toMatchObject({ type: 'header', scope: { stores: [store] } });
      const nodes = lines.filter((l) => l.type === 'node');
      expect(nodes.length).toBeGreaterThan(0);
      expect(nodes.every((n) => n.props?.store === store)).toBe(true);
    },
    MANY_PROCESSES,
  );

  it(
    'gives a checkout named in any script a store name a header can carry; refuses such a name in a marker',
    async () => {
      const japanese = join(root, '日本語');
      mkdirSync(japanese);
      git(japanese, 'init', '-q');
      stores.push(gitStoreName(join(japanese, '.git')));
      const run = await cli(japanese, ['remember', 'from a Japanese checkout', '--json']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).memory.store).toMatch(/^store-[0-9a-f]{8}$/);

      const marked = join(root, 'marked');
      mkdirSync(marked);
      writeFileSync(join(marked, MARKER), '日本語\n');
      const refused = await cli(marked, ['recall', 'anything']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`"日本語" (the marker ${join(marked, MARKER)}) has characters beyond Latin-1`);
    },
    MANY_PROCESSES,
  );

  it(
    'shows control characters of stored text instead of sending them to the terminal',
    async () => {
      const store = randomStore('cli-escapes');
      stores.push(store);
      const content = 'escape \x1b[2J\x1b]0;pwned\x07 bell';
      expect((await cli(root, ['remember', content, '--store', store])).code).toBe(0);
      await settle();
      for (const command of ['recall', 'context']) {
        const run = await cli(root, [command, 'escape bell', '--store', store]);
        expect(run.code).toBe(0);
        expect(run.stdout).not.toMatch(/(?!\n)\p{Cc}/u);
        expect(run.stdout).toContain(String.raw`escape \x1b[2J\x1b]0;pwned\x07 bell`);
      }
    },
    MANY_PROCESSES,
  );
});

/** In front of the service: passes every request on but a tool call, whose connection it drops (the service gone). */
async function droppingToolCalls(target: string): Promise<Server> {
  const body = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    return text;
  };
  const server = createServer(async (req, res) => {
    const text = await body(req);
    if (text.includes('"tools/call"')) return req.socket.destroy();
    const headers = Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k));
    const answer = await fetch(new URL(req.url!, target), {
      method: req.method,
      headers: headers as [string, string][],
      body: req.method === 'POST' ? text : undefined,
    });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return server;
}

describe('total-recall CLI while the service cannot answer', () => {
  let down: TestApp;
  let proxy: FaultProxy;
  let url: string;
  const store = randomStore('cli-down');
  const downPrefix = queuePrefix();
  /** Well-formed, so the service looks it up. */
  const unknownToken = generateToken().token;
  /** No token from the checkout: this app runs without authentication, a token is only checked when sent. */
  const noToken = { TOTAL_RECALL_DATA: '' };

  beforeAll(async () => {
    const config = loadConfig();
    proxy = await startFaultProxy(Number(new URL(config.neo4j.uri.replace(/^bolt:/, 'http:')).port));
    down = await startTestApp(
      { log: () => undefined },
      {
        ...process.env,
        TOTAL_RECALL_AUTH: 'off',
        TOTAL_RECALL_QUEUE_PREFIX: downPrefix,
        TOTAL_RECALL_SCOPE_STORES: store,
        NEO4J_URI: `bolt://127.0.0.1:${proxy.port}`,
        NEO4J_USER: config.neo4j.user,
        NEO4J_PASSWORD: config.neo4j.password,
      },
    );
    url = down.server.url.replace(/\/graphql$/, '');
    noToken.TOTAL_RECALL_DATA = join(root, 'no-data');
    mkdirSync(noToken.TOTAL_RECALL_DATA);
  });

  afterAll(async () => {
    await proxy?.restore();
    await down?.dropStore(store);
    await down?.stop();
    await proxy?.close();
    await dropQueues(downPrefix);
  });

  it(
    'exits 2 and prints the code for a token the service does not know',
    async () => {
      const run = await cli(root, ['status', '--store', store], {
        TOTAL_RECALL_URL: url,
        TOTAL_RECALL_TOKEN: unknownToken,
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('total-recall: UNAUTHENTICATED: the token is unknown or revoked\n');
    },
    MANY_PROCESSES,
  );

  it(
    'exits 3 when the connection drops after connecting',
    async () => {
      const front = await droppingToolCalls(url);
      try {
        const { port } = front.address() as { port: number };
        const run = await cli(root, ['recall', 'anything', '--store', store], {
          ...noToken,
          TOTAL_RECALL_URL: `http://127.0.0.1:${port}`,
        });
        expect(run.code).toBe(3);
        expect(run.stderr).toMatch(/^Total Recall is not reachable at /);
      } finally {
        front.close();
      }
    },
    MANY_PROCESSES,
  );

  /** Runs `check` with this app's Neo4j gone, and brings it back. */
  async function whileNeo4jDown(check: () => Promise<void>): Promise<void> {
    await proxy.cut();
    try {
      await check();
    } finally {
      await proxy.restore();
    }
  }

  it(
    'status exits 3 when Neo4j is down, and says so',
    () =>
      whileNeo4jDown(async () => {
        const status = await cli(root, ['status', '--store', store], { ...noToken, TOTAL_RECALL_URL: url });
        expect(status.stdout).toMatch(/neo4j DOWN, redis up/);
        expect(status.code).toBe(3);
      }),
    MANY_PROCESSES,
  );

  it(
    'exits 3 (try again) on a retryable code: a call while Neo4j is down, and a token checked then',
    () =>
      whileNeo4jDown(async () => {
        const recall = await cli(root, ['recall', 'anything', '--store', store], { ...noToken, TOTAL_RECALL_URL: url });
        expect(recall.stderr).toMatch(/^total-recall: UNAVAILABLE: neo4j is unavailable/);
        expect(recall.code).toBe(3);
        // Refused before any tool runs: the HTTP layer's 503.
        const checked = await cli(root, ['status', '--store', store], {
          TOTAL_RECALL_URL: url,
          TOTAL_RECALL_TOKEN: unknownToken,
        });
        expect(checked.stderr).toMatch(/^total-recall: UNAVAILABLE: neo4j is unavailable/);
        expect(checked.code).toBe(3);
      }),
    MANY_PROCESSES,
  );
});
