/**
 * The shutdown protocol and cold storage on the real Neo4j and Redis:
 * shutdown stops accepting, drains, flushes, writes an export and verifies it
 * against Neo4j; verification catches a damaged file and a store that moved
 * on; `npm run import` restores an export exactly (the round trip compares
 * the two graphs) and refuses a non-empty database.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { randomStore, startTestApp } from '../helpers.js';
import { graphOf, populate, readExport } from '../cold-storage-fixture.js';
import { backgroundEnv, dropQueues, eventually, queuePrefix, scopedApps } from '../background.js';

const { scopedApp, cleanups } = scopedApps();

/** A child process whose stdout and stderr are read line by line (a line split across chunks stays one line). */
interface Served {
  readonly child: ChildProcess;
  readonly lines: string[];
  readonly exited: Promise<number | null>;
  /** The first line matching, waiting up to `timeoutMs` for it. */
  line(match: RegExp, timeoutMs?: number): Promise<string>;
}

function serve(command: string, args: string[], env: NodeJS.ProcessEnv): Served {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const lines: string[] = [];
  for (const stream of [child.stdout!, child.stderr!])
    createInterface({ input: stream }).on('line', (l) => lines.push(l));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  });
  return {
    child,
    lines,
    exited,
    line: (match, timeoutMs = 120_000) => eventually(async () => lines.find((l) => match.test(l)), timeoutMs, 50),
  };
}

const STEPS = [
  '1. stop accepting',
  '2. drain queues and workers',
  '3. flush',
  '4. write cold storage',
  '5. verify against Neo4j',
  '6. ready',
];

/**
 * Starts the server with `command` in a process group of its own on a port
 * the system picks, stores a memory through it, stops it with `stop` and
 * checks the protocol ran: exit 0, every step printed, the memory in a
 * verified export.
 */
async function serveStoreAndStop(
  label: string,
  command: string,
  args: string[],
  stop: (child: ChildProcess) => void,
): Promise<void> {
  const { store, dir } = await scopedApp(label);
  const prefix = queuePrefix();
  cleanups.push(() => dropQueues(prefix));
  const env = { ...backgroundEnv(store, prefix), PORT: '0', TOTAL_RECALL_COLD_STORAGE_DIR: join(dir, 'serve') };
  const server = serve(command, args, env);
  const url = /GraphQL ready at (\S+)/.exec(await server.line(/GraphQL ready at /))![1]!;
  await server.line(/Background worker ready/);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation ($in: StoreInput!) { store(input: $in) { id } }',
      variables: { in: { store, content: `kept through ${label}` } },
    }),
  });
  expect(((await res.json()) as { data: { store: { id: string } } }).data.store.id).toBeTruthy();

  stop(server.child);
  expect(await server.exited, server.lines.join('\n')).toBe(0);
  for (const step of STEPS)
    expect(
      server.lines.some((l) => l.includes(step)),
      step,
    ).toBe(true);
  expect(server.lines.join('\n')).not.toContain('exiting without finishing');
  const [file] = await readdir(join(dir, 'serve'));
  const lines = await readExport(join(dir, 'serve', file as string));
  expect(lines.some((l) => l.type === 'node' && l.props.content === `kept through ${label}`)).toBe(true);
}

// Each of these starts a server process (tsx compiles the service first): minutes on a busy 2-core machine.
const SERVER_TEST_MS = 240_000;

describe('stopping the server by signal', () => {
  it(
    'SIGTERM on `npm run serve` runs the shutdown protocol, prints its steps, leaves a verified export and exits 0',
    async () => {
      await serveStoreAndStop('sigterm', process.execPath, ['--import', 'tsx', 'src/main.ts'], (child) =>
        child.kill('SIGTERM'),
      );
    },
    SERVER_TEST_MS,
  );

  it(
    'Ctrl-C on `npm start` (SIGINT reaching the server again through the start script, a moment later) ' +
      'runs the protocol once',
    async () => {
      // A terminal sends SIGINT to every process of its foreground group. npm,
      // the start script (and `timeout`, when it wraps them) pass it on to their
      // children, so the server gets it again, later when the machine is busy.
      // Here: the group gets it, then the start script alone a moment later.
      await serveStoreAndStop('ctrl-c', process.execPath, ['scripts/start.mjs'], (child) => {
        process.kill(-child.pid!, 'SIGINT');
        setTimeout(() => child.kill('SIGINT'), 200);
      });
    },
    SERVER_TEST_MS,
  );

  it(
    'a second Ctrl-C a second or more after the first exits at once, without finishing the protocol',
    async () => {
      const store = randomStore('ctrl-c-twice');
      const prefix = queuePrefix();
      const dir = await mkdtemp(join(tmpdir(), 'total-recall-cold-'));
      // A worker in another process holds a session audit and never finishes it:
      // the server's drain waits for it (up to its timeout), so the protocol is
      // still running when the second Ctrl-C comes.
      const hanging = serve(
        process.execPath,
        ['--import', 'tsx', 'test/fixtures/hanging-worker.ts', prefix],
        process.env,
      );
      await hanging.line(/^READY$/);
      const api = await startTestApp({ log: () => undefined }, backgroundEnv(store, prefix));
      cleanups.push(async () => {
        if (hanging.child.exitCode === null && hanging.child.signalCode === null)
          process.kill(-hanging.child.pid!, 'SIGKILL');
        await hanging.exited;
        await api.dropStore(store);
        await api.stop();
        await dropQueues(prefix);
        await rm(dir, { recursive: true, force: true });
      });
      const i = `twice-${prefix}`;
      await api.ok('mutation ($in: StartSessionInput!) { startSession(input: $in) { id } }', {
        in: { instanceId: i, mindType: 'claude', store },
      });
      await api.ok('mutation ($i: String!) { endSession(instanceId: $i) { prompt } }', { i });
      await hanging.line(/^ACTIVE session-audit /, 30_000);

      const out = join(dir, 'serve');
      const server = serve(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        ...backgroundEnv(store, prefix),
        PORT: '0',
        TOTAL_RECALL_COLD_STORAGE_DIR: out,
        TOTAL_RECALL_DRAIN_TIMEOUT_MS: '120000',
      });
      const url = /GraphQL ready at (\S+)/.exec(await server.line(/GraphQL ready at /))![1]!;
      await server.line(/Background worker ready/);
      // Serving (so its signal handlers are in place: they are installed after the ready lines).
      const health = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ health { accepting } }' }),
      });
      expect(await health.json()).toEqual({ data: { health: { accepting: true } } });
      server.child.kill('SIGINT');
      const said = (match: RegExp) =>
        server
          .line(match, 60_000)
          .catch((error: Error) =>
            Promise.reject(new Error(`${error.message}; the server said:\n${server.lines.join('\n')}`)),
          );
      await said(/^SIGINT: shutdown protocol/);
      await said(/^1\. stop accepting/);
      await new Promise((resolve) => setTimeout(resolve, 1_200)); // the user waits a moment, then presses Ctrl-C again
      expect(
        server.lines.some((l) => l.startsWith('2. drain')),
        'the drain is still waiting',
      ).toBe(false);
      server.child.kill('SIGINT');
      expect(await server.exited, server.lines.join('\n')).toBe(130);
      expect(server.lines).toContain('SIGINT again: exiting without finishing the shutdown protocol');
      for (const step of STEPS.slice(1))
        expect(
          server.lines.some((l) => l.includes(step)),
          step,
        ).toBe(false);
      await expect(readdir(out)).rejects.toThrow(/ENOENT/); // no export was written
    },
    SERVER_TEST_MS,
  );
});

describe('verification', () => {
  it('catches a damaged file and a live store that no longer matches', async () => {
    const { t, store, dir } = await scopedApp('verify');
    const { ids } = await populate(t, store);
    const written = await t.app.coldStorage.write(dir);
    expect(await t.app.coldStorage.verify(written.path)).toEqual({ verified: true, problems: [] });

    const damaged = join(dir, 'damaged.ndjson');
    await writeFile(
      damaged,
      (await readFile(written.path, 'utf8')).replace('two weeks in Lisbon', 'two weeks in Porto'),
    );
    const file = await t.app.coldStorage.verify(damaged);
    expect(file.verified).toBe(false);
    expect(file.problems).toContain('sha256 of the file does not match its trailer');

    const cut = join(dir, 'cut.ndjson');
    const text = await readFile(written.path, 'utf8');
    await writeFile(cut, text.slice(0, text.lastIndexOf('{"type":"trailer"')));
    expect((await t.app.coldStorage.verify(cut)).problems).toEqual(['no trailer: the export is incomplete']);

    await t.ok('mutation ($id: ID!) { claim(id: $id) { id } }', { id: ids[1] });
    const moved = await t.app.coldStorage.verify(written.path);
    expect(moved.verified).toBe(false);
    expect(moved.problems.join('; ')).toMatch(/Neo4j: .*(content digest differs|expected)/);
  });
});

describe('import', () => {
  const run = promisify(execFile);
  const importCli = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'scripts/import.ts', ...args], { env: process.env }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it('restores an export exactly: the round trip gives the same graph', async () => {
    const { t, store, dir } = await scopedApp('roundtrip');
    await populate(t, store);
    const before = await t.app.coldStorage.write(dir);
    const nodesBefore = await t.countNodes(store);
    await t.dropStore(store);
    expect(await t.countNodes(store)).toBe(0);

    const report = await t.app.coldStorage.import(before.path, { allowNonEmpty: true });
    expect(report).toMatchObject({ verified: true, problems: [] });
    expect(await t.countNodes(store)).toBe(nodesBefore);
    // This store's: an import in another test file may have its own marks meanwhile.
    const leftovers = await t.cypher<{ n: number }>(
      'MATCH (n:ColdImport) WHERE n.store = $store RETURN count(n) AS n',
      {
        store,
      },
    );
    expect(leftovers[0]?.n).toBe(0);

    const after = await t.app.coldStorage.write(join(dir, 'after'));
    expect(after.digest).toBe(before.digest);
    expect(after.counts).toEqual(before.counts);
    expect(await graphOf(after.path)).toEqual(await graphOf(before.path));
    // Typed values survived: integers, times and the float vector, as Neo4j types.
    const [m] = await t.cypher<{ types: string[] }>(
      'MATCH (m:Memory {store: $store}) WHERE m.embedding IS NOT NULL RETURN [valueType(m.accessCount), ' +
        'valueType(m.createdAt), valueType(m.embedding)] AS types',
      { store },
    );
    expect(m?.types).toEqual(['INTEGER NOT NULL', 'ZONED DATETIME NOT NULL', 'LIST<FLOAT NOT NULL> NOT NULL']);
    // The restored graph works: the claimed original (not the consolidated memory made from it) reads through the API.
    const { memory } = await t.ok<{ memory: { content: string; claimed: boolean } }>(
      'query ($id: ID!) { memory(id: $id) { content claimed } }',
      {
        id: (await readExport(before.path)).flatMap((l) =>
          l.type === 'node' &&
          l.labels.includes('Memory') &&
          l.props.claimed === true &&
          !String(l.props.content).includes('\n')
            ? [l.props.id as string]
            : [],
        )[0],
      },
    );
    expect(memory).toEqual({ content: 'We spent two weeks in Lisbon in May.', claimed: true });
  }, 120_000);

  it('`npm run export` writes a verified export; `npm run import` refuses a non-empty database and a damaged file, ' +
    'writing nothing, and with --allow-non-empty restores it', async () => {
    const { t, store, dir } = await scopedApp('refuse');
    await populate(t, store);
    // The README's command, scoped to this test's store.
    const exported = await run('npm', ['run', '--silent', 'export', '--', join(dir, 'cli')], {
      env: { ...process.env, TOTAL_RECALL_SCOPE_STORES: store },
    });
    expect(exported.stdout).toMatch(
      /^wrote .*\.ndjson: \d+ nodes, \d+ relationships, \d+ bytes\nverified against Neo4j$/m,
    );
    const [file] = await readdir(join(dir, 'cli'));
    const path = join(dir, 'cli', file as string);
    expect((await readExport(path))[0]).toMatchObject({ type: 'header', scope: { stores: [store] } });
    const reference = await t.app.coldStorage.write(join(dir, 'reference'));
    expect(await graphOf(path)).toEqual(await graphOf(reference.path));

    // Other tests write (and import) to this database meanwhile: count what this test owns (import's marks too).
    const total = async () =>
      (
        await t.cypher<{ n: number }>('MATCH (n) WHERE n.store = $store RETURN count(n) AS n', {
          store,
        })
      )[0]?.n;
    const before = await total();
    const refused = await importCli(path);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/the database holds \d+ nodes; import restores into an empty database/);
    const damaged = join(dir, 'damaged.ndjson');
    await writeFile(damaged, (await readFile(path, 'utf8')).replace('"book the train"', '"book a flight"'));
    const bad = await importCli(damaged, '--allow-non-empty');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a complete, intact export: sha256 of the file does not match/);
    expect(await total()).toBe(before);
    const usage = await importCli();
    expect(usage.code).toBe(2);
    const missing = await importCli(join(dir, 'no-such.ndjson'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no-such\.ndjson does not exist/);

    // Restored beside the other stores of this shared database, exactly.
    await t.app.jobs.close(); // nothing of this test's writes meanwhile
    await t.app.bus.idle();
    await t.dropStore(store);
    expect(await t.countNodes(store)).toBe(0);
    const restored = await importCli(path, '--allow-non-empty');
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/verified: the database matches the export/);
    expect(await total()).toBe(before);
    const again = await t.app.coldStorage.write(join(dir, 'again'));
    expect(again.digest).toBe(reference.digest);
    expect(await graphOf(again.path)).toEqual(await graphOf(path));
  }, 240_000);
});
