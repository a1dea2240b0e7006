/**
 * Reconciliation on the real Neo4j, Redis and model: a serving process is
 * killed (SIGKILL) while its linking thread holds a batch of stored memories
 * and before their embedding jobs ever reached Redis. Neo4j has the memories
 * (acknowledged), the links and vectors were lost with the process; a worker's
 * scheduled reconciliation finds them in Neo4j and gets them linked and
 * embedded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { randomStore, type TestApp } from '../helpers.js';
import { backgroundEnv, eventually, queuePrefix, startBackgroundApp, stopBackgroundApp } from '../background.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean().catch(() => undefined);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const STORE_MANY = `mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }`;

interface State {
  id: string;
  pending: boolean;
  status: string;
  links: number;
}

async function states(t: TestApp, store: string): Promise<State[]> {
  return t.cypher<State>(
    `MATCH (m:Memory {store: $store})
     RETURN m.id AS id, m.linkPendingAt IS NOT NULL AS pending, m.embeddingStatus AS status,
            COUNT { (m)-[r:TEMPORAL|THEMATIC|PERSON|EMOTIONAL]-() WHERE r.origin = 'MECHANICAL' } AS links
     ORDER BY id`,
    { store },
  );
}

describe('reconciliation', () => {
  it('links and embeds the memories a killed process acknowledged but never linked or queued', async () => {
    const store = randomStore('reconcile');
    const prefix = queuePrefix();
    // The worker that survives: model ready, reconciling every second.
    const worker = await startBackgroundApp(store, prefix, {
      TOTAL_RECALL_EMBEDDINGS: 'on',
      TOTAL_RECALL_RECONCILE_MS: '1000',
      TOTAL_RECALL_RECONCILE_GRACE_MS: '1',
    });
    cleanups.push(() => stopBackgroundApp(worker, store, prefix));
    await eventually(async () => (worker.app.embedder.status().state === 'ready' ? true : undefined), 60_000, 200);

    // Normal path first: a memory it stores itself gets linked (mark cleared) and embedded.
    await worker.ok(STORE_MANY, {
      inputs: [
        { id: `${store}-own`, store, content: 'The lighthouse keeper painted the door blue.', tags: ['lighthouse'] },
      ],
    });
    await eventually(
      async () => {
        const [own] = await states(worker, store);
        return own && !own.pending && own.status === 'DONE' ? own : undefined;
      },
      60_000,
      200,
    );

    // The doomed process: API only, links written only after 10 minutes, and a Redis it cannot reach.
    const dead = await freePort();
    const port = await freePort();
    const noModel = mkdtempSync(join(tmpdir(), 'no-model-'));
    cleanups.push(async () => rmSync(noModel, { recursive: true, force: true }));
    const env = backgroundEnv(store, prefix, {
      PORT: String(port),
      REDIS_URL: `redis://127.0.0.1:${dead}`,
      TOTAL_RECALL_EMBEDDINGS: 'on',
      TOTAL_RECALL_MODEL_DIR: noModel,
      TOTAL_RECALL_SYNAPSE_LINK_WRITE_MS: '600000',
    });
    let child: ChildProcess | null = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--api-only'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(async () => void child?.kill('SIGKILL'));
    const output: string[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(String(chunk)));
    child.stderr?.on('data', (chunk: Buffer) => output.push(String(chunk)));
    await eventually(async () => (output.join('').includes('GraphQL ready') ? true : undefined), 60_000, 100);

    const inputs = ['harbour at dawn', 'harbour at noon', 'harbour at dusk', 'harbour at night'].map((what, i) => ({
      id: `${store}-lost-${i}`,
      store,
      content: `Ana and I watched the fishing boats leave the harbour, ${what}.`,
      tags: ['harbour', 'boats'],
      people: ['Ana'],
    }));
    const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: STORE_MANY, variables: { inputs } }),
    });
    const body = (await res.json()) as { data?: { storeMany: { id: string }[] }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    const acknowledged = body.data?.storeMany.map((m) => m.id) ?? [];
    expect(acknowledged).toHaveLength(4);
    // Its linking thread holds the batch (the write waits 10 minutes) and its jobs wait for a Redis that is not there.
    await new Promise((resolve) => setTimeout(resolve, 500));
    child.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));
    child = null;

    // What the crash left: the four acknowledged memories. Their store was
    // published on the dead process's bus only and its Redis was unreachable,
    // so from here nothing but the surviving worker's reconciliation (every
    // second, already running) can link or embed them; it may have begun.
    const lost = (await states(worker, store)).filter((s) => acknowledged.includes(s.id));
    expect(lost).toHaveLength(4);

    // The surviving worker's schedule finds them in Neo4j and queues the work again.
    const healed = await eventually(
      async () => {
        const now = (await states(worker, store)).filter((s) => acknowledged.includes(s.id));
        return now.every((s) => !s.pending && s.status === 'DONE') ? now : undefined;
      },
      60_000,
      250,
    );
    // Four memories sharing tags, a person and a harbour: linking gives each at least one link.
    for (const s of healed) expect(s.links).toBeGreaterThan(0);
    const last = await eventually(async () => {
      const status = (await worker.app.jobs.status()).find((q) => q.name === 'reconcile');
      return status?.lastRun?.ok ? status : undefined;
    });
    expect(last.everyMs).toBe(1000);
    // Nothing is left to do: a further run queues nothing.
    expect(await worker.app.subconscious.reconcile()).toEqual({ links: 0, embeddings: 0 });
  }, 180_000);
});
