/**
 * On a Neo4j and a Redis of the test's own, started by the project's scripts
 * (never the servers the rest of the suite shares), with their generated
 * passwords (anonymous Bolt and Redis are refused): `npm run import` restores
 * an export of the shared database into a second, truly empty Neo4j exactly,
 * and `services:down` stops both servers it started; a store first run
 * without passwords gets them at its next start; `npm start` after kill -9
 * of everything comes back by itself, with what was acknowledged.
 *
 * Slow by nature: it starts a Neo4j (a JVM) and a Redis. Their files live in
 * <TOTAL_RECALL_DATA>/own-instance (the Neo4j jars are kept there between
 * runs; the databases are wiped first), on ports the system says are free.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import neo4j from 'neo4j-driver';
import { afterAll, describe, expect, it } from 'vitest';
import { randomStore } from '../helpers.js';
import { eventually, queuePrefix, startBackgroundApp, stopBackgroundApp } from '../background.js';
import { graphOf, populate } from '../cold-storage-fixture.js';
import { alive, freePort, instanceDir, ownInstance } from '../own-instance.js';
import { ColdStorage } from '../../src/adapters/cold-storage/index.js';
import { pingRedis } from '../../src/adapters/redis.js';
import { loadConfig } from '../../src/config.js';

const run = promisify(execFile);
const DATA = instanceDir('own-instance');
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean().catch((error) => console.error(error));
});

describe('a second Neo4j and Redis of the test’s own', () => {
  it('restores an export into the truly empty second Neo4j exactly, and ' +
    '`services:down` stops both servers', async () => {
    const { own, bolt, redisPort, services } = await ownInstance(DATA);
    // Truly empty: no database files and no Redis data from an earlier run (the jars stay).
    await rm(join(DATA, 'neo4j', 'data'), { recursive: true, force: true });
    await rm(join(DATA, 'redis'), { recursive: true, force: true });

    // An export of one store of the shared database, made by the service.
    const store = randomStore('own-instance');
    const prefix = queuePrefix();
    const dir = await mkdtemp(join(tmpdir(), 'total-recall-cold-'));
    const shared = await startBackgroundApp(store, prefix, { TOTAL_RECALL_COLD_STORAGE_DIR: dir });
    cleanups.push(async () => {
      await stopBackgroundApp(shared, store, prefix);
      await rm(dir, { recursive: true, force: true });
    });
    await populate(shared, store);
    await shared.app.jobs.close(); // nothing writes to the store from here on
    await shared.app.bus.idle();
    const exported = await shared.app.coldStorage.write(dir);

    // also after a failed or timed-out up
    cleanups.push(async () => void (await services('down').catch(() => undefined)));
    const up = await services('up');
    // With passwords, as every local server the project starts (secrets never in the output).
    expect(up).toMatchObject({
      ok: true,
      neo4j: { started: true, uri: `bolt://127.0.0.1:${bolt}`, auth: true, password: '***' },
      redis: { started: true, url: `redis://:***@127.0.0.1:${redisPort}` },
    });
    // The credentials the project's own config loading finds in the instance's data folder.
    const ownConfig = loadConfig(own);
    const uri = ownConfig.neo4j.uri;
    expect(uri).toBe(`bolt://127.0.0.1:${bolt}`);
    for (const file of [join(DATA, 'neo4j', 'password'), join(DATA, 'redis', 'password')])
      expect((statSync(file).mode & 0o777).toString(8), file).toBe('600');
    const anonymous = neo4j.driver(uri, undefined);
    await expect(anonymous.executeQuery('RETURN 1')).rejects.toMatchObject({
      code: 'Neo.ClientError.Security.Unauthorized',
    });
    await anonymous.close();
    expect(await pingRedis(`redis://127.0.0.1:${redisPort}`), 'anonymous redis').toBe(false);
    expect(await pingRedis(ownConfig.redisUrl)).toBe(true);
    const driver = neo4j.driver(uri, neo4j.auth.basic(ownConfig.neo4j.user, ownConfig.neo4j.password));
    cleanups.push(() => driver.close());
    const count = async () =>
      (await driver.executeQuery('MATCH (n) RETURN count(n) AS n')).records[0]!.get('n').toNumber() as number;
    expect(await count()).toBe(0);

    // `npm run import -- FILE`, without --allow-non-empty: the database is empty.
    const restored = await run(process.execPath, ['--import', 'tsx', 'scripts/import.ts', exported.path], {
      env: own,
      timeout: 120_000,
    });
    expect(restored.stdout).toMatch(/verified: the database matches the export/);
    // Every node of the second database came from the export, and the graph is the same.
    expect(await count()).toBe(exported.nodes);
    const second = new ColdStorage({ neo4j: ownConfig.neo4j, stores: null, service: 'total-recall test' });
    cleanups.push(() => second.close());
    const again = await second.write(join(dir, 'from-the-second'));
    expect(again.counts).toEqual(exported.counts);
    expect(await graphOf(again.path)).toEqual(await graphOf(exported.path));
    await driver.close();
    await second.close();

    // `services:down` stops what `up` started (by its pid files): the processes are gone and
    // the ports answer no more. Another Redis, on the port the environment names by then, is
    // left alone (down used to send SHUTDOWN to that port, stopping a server it never started).
    const decoyPort = await freePort();
    const decoy = spawn(
      'redis-server',
      ['--port', String(decoyPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    cleanups.push(async () => void decoy.kill('SIGKILL'));
    const decoyUrl = `redis://127.0.0.1:${decoyPort}`;
    await eventually(async () => ((await pingRedis(decoyUrl)) ? true : undefined), 30_000);
    const down = JSON.parse(
      (
        await run(process.execPath, ['scripts/services/cli.mjs', 'down', '--json', '--quiet'], {
          env: { ...own, TOTAL_RECALL_REDIS_PORT: String(decoyPort) },
          timeout: 240_000,
        })
      ).stdout,
    );
    expect(down).toEqual({ ok: true, neo4j: true, redis: true });
    expect(await pingRedis(decoyUrl), 'the other Redis').toBe(true);
    expect(alive(up.neo4j.pid), 'neo4j process').toBe(false);
    expect(alive(up.redis.pid), 'redis process').toBe(false);
    expect(await pingRedis(ownConfig.redisUrl)).toBe(false);
    const status = await services('status');
    expect([status.neo4j.state, status.redis.state]).toEqual(['stopped', 'stopped']);
  }, 600_000);

  it('a store first run without passwords (TOTAL_RECALL_LOCAL_AUTH=off) gets them at its next ' +
    'start, its data kept', async () => {
    const { own, bolt, redisPort, services } = await ownInstance(DATA);
    // A machine from before passwords were the default: a store made without one.
    await rm(join(DATA, 'neo4j', 'data'), { recursive: true, force: true });
    await rm(join(DATA, 'neo4j', 'password'), { force: true });
    await rm(join(DATA, 'redis'), { recursive: true, force: true });
    cleanups.push(async () => void (await services('down').catch(() => undefined)));
    const off = { TOTAL_RECALL_LOCAL_AUTH: 'off' };
    expect(await services('up', off)).toMatchObject({
      ok: true,
      neo4j: { started: true, auth: false },
      redis: { started: true, url: `redis://127.0.0.1:${redisPort}` },
    });
    const uri = `bolt://127.0.0.1:${bolt}`;
    const before = neo4j.driver(uri, undefined);
    await before.executeQuery('CREATE (:OwnInstanceProbe {kept: true})');
    await before.close();
    expect(await pingRedis(`redis://127.0.0.1:${redisPort}`)).toBe(true);
    expect(await services('down', off)).toEqual({ ok: true, neo4j: true, redis: true });

    // The next start, with the defaults: both get passwords, and what was stored is still there.
    expect(await services('up')).toMatchObject({
      ok: true,
      neo4j: { started: true, auth: true },
      redis: { started: true, url: `redis://:***@127.0.0.1:${redisPort}` },
    });
    const config = loadConfig(own);
    const anonymous = neo4j.driver(uri, undefined);
    await expect(anonymous.executeQuery('RETURN 1')).rejects.toMatchObject({
      code: 'Neo.ClientError.Security.Unauthorized',
    });
    await anonymous.close();
    const signedIn = neo4j.driver(uri, neo4j.auth.basic(config.neo4j.user, config.neo4j.password));
    cleanups.push(() => signedIn.close());
    const kept = await signedIn.executeQuery('MATCH (p:OwnInstanceProbe {kept: true}) RETURN count(p) AS n');
    expect(kept.records[0]!.get('n').toNumber()).toBe(1);
    await signedIn.close();
    expect(await pingRedis(`redis://127.0.0.1:${redisPort}`), 'anonymous redis').toBe(false);
    expect(await pingRedis(config.redisUrl)).toBe(true);
    expect(await services('down')).toEqual({ ok: true, neo4j: true, redis: true });
  }, 600_000);

  it('`npm start` after kill -9 of everything comes back by itself, with every acknowledged store', async () => {
    const { own, services } = await ownInstance(DATA);
    cleanups.push(async () => void (await services('down').catch(() => undefined)));
    // The model the rest of the suite uses (the own data folder has none); the crash is what is tested.
    const modelDir = resolve(
      process.env.TOTAL_RECALL_MODEL_DIR || join(process.env.TOTAL_RECALL_DATA || '.data', 'models', 'e5-small-v2-q'),
    );
    const env: NodeJS.ProcessEnv = {
      ...own,
      PORT: '0',
      TOTAL_RECALL_QUEUE_PREFIX: queuePrefix(),
      TOTAL_RECALL_MODEL_DIR: modelDir,
    };
    delete env.TOTAL_RECALL_AUTH; // the default: a token is needed once the operator's exists
    const children: ReturnType<typeof spawn>[] = [];
    cleanups.push(async () => {
      for (const child of children) if (child.pid && alive(child.pid)) child.kill('SIGKILL');
    });
    /** `npm start` (scripts/start.mjs) as a user runs it; resolves with its GraphQL URL once it is up. */
    const start = () =>
      new Promise<{ url: string; child: ReturnType<typeof spawn> }>((resolveUp, reject) => {
        const child = spawn(process.execPath, ['scripts/start.mjs'], {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        });
        children.push(child);
        let out = '';
        const timer = setTimeout(() => reject(new Error(`npm start was not up in 400 s:\n${out}`)), 400_000);
        const onData = (chunk: Buffer) => {
          out += String(chunk);
          const up = /GraphQL\s+(http:\/\/\S+\/graphql)/.exec(out.split('Total Recall is up')[1] ?? '');
          if (up) {
            clearTimeout(timer);
            resolveUp({ url: up[1]!, child });
          }
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', (chunk: Buffer) => void (out += String(chunk)));
        child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${out}`)));
      });
    const graphql = async (url: string, query: string, variables: Record<string, unknown> = {}) => {
      const token = readFileSync(join(DATA, 'operator.token'), 'utf8').trim();
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as { data?: Record<string, any>; errors?: unknown[] };
    };

    const first = await start();
    const store = randomStore('unclean');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const stored = await graphql(first.url, 'mutation ($input: StoreInput!) { store(input: $input) { id } }', {
        input: { store, content: `acknowledged before the crash ${i}` },
      });
      expect(stored.errors).toBeUndefined();
      ids.push(stored.data!.store.id);
    }
    // kill -9 of everything: npm start and the service it runs (its process group), Neo4j and Redis.
    const status = await services('status');
    process.kill(-first.child.pid!, 'SIGKILL');
    for (const pid of [status.neo4j.pid, status.redis.pid]) process.kill(pid, 'SIGKILL');
    await eventually(
      async () => (![first.child.pid!, status.neo4j.pid, status.redis.pid].some(alive) ? true : undefined),
      30_000,
    );

    // The same command again, nothing cleaned by hand (pid files, locks and store files are as the kill left them).
    const second = await start();
    // Up by itself: Neo4j may still be finishing its recovery when the service answers, so health may take a moment.
    const health = await eventually(async () => {
      const h = (await graphql(second.url, '{ health { neo4j redis } }')).data?.health;
      return h?.neo4j && h?.redis ? h : undefined;
    }, 120_000);
    expect(health).toMatchObject({ neo4j: true, redis: true });
    for (const id of ids) {
      const found = await graphql(second.url, 'query ($id: ID!) { memory(id: $id) { id content } }', { id });
      expect(found.data?.memory?.id, id).toBe(id);
    }
    process.kill(-second.child.pid!, 'SIGKILL');
    expect(await services('down')).toEqual({ ok: true, neo4j: true, redis: true });
  }, 900_000);
});
