/**
 * The `total-recall` command, each call its own process, against the real
 * service: the seed's resume example across two worktrees of one repository,
 * and the exit codes (0 ok, 1 nothing found, 2 usage, 3 unreachable).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { dropQueues, queuePrefix } from '../background.js';
import { gitStoreName, MARKER } from '../../src/cli/store-by-directory.js';
import type { ThreadedEmbedder } from '../../src/adapters/embeddings/index.js';

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
});
