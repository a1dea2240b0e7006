import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { randomStore, startTestApp } from '../helpers.js';
import { populate, readExport } from '../cold-storage-fixture.js';
import { backgroundEnv, dropQueues, queuePrefix, scopedApps } from '../background.js';
import { FORMAT_VERSION, labelKey } from '../../src/adapters/cold-storage/testing.js';
import type { GraphPort } from '../../src/domain/index.js';
import { JOB_KINDS } from '../../src/contexts/subconscious/index.js';

const { scopedApp, cleanups } = scopedApps();

describe('shutdown', () => {
  it('stops accepting, drains, flushes, writes cold storage and verifies it, reporting each step', async () => {
    const { t, store, dir } = await scopedApp('shutdown');
    await populate(t, store);
    // Counted by label combination, as the export counts (a memory's includes its tier label).
    const rows = await t.cypher<{ labels: string[] }>('MATCH (n) WHERE n.store = $store RETURN labels(n) AS labels', {
      store,
    });
    const byKey = new Map<string, number>();
    for (const r of rows) byKey.set(labelKey(r.labels), (byKey.get(labelKey(r.labels)) ?? 0) + 1);
    const labels = [...byKey].map(([label, n]) => ({ label, n }));

    const SHUTDOWN =
      'mutation ($dir: String) { shutdown(coldStorageDir: $dir) { ready memories coldStoragePath verified steps } }';
    const { shutdown } = await t.ok<{ shutdown: any }>(SHUTDOWN, { dir });
    expect(shutdown).toMatchObject({ ready: true, verified: true, memories: 4 });
    expect(shutdown.steps.map((s: string) => s.replace(/:.*$/, ''))).toEqual([
      '1. stop accepting',
      '2. drain queues and workers',
      '3. flush',
      '4. write cold storage',
      '5. verify against Neo4j',
      '6. ready',
    ]);
    expect(shutdown.coldStoragePath.startsWith(dir)).toBe(true);
    expect(await readdir(dir)).toEqual([shutdown.coldStoragePath.slice(dir.length + 1)]);

    const lines = await readExport(shutdown.coldStoragePath);
    const [header, trailer] = [lines[0], lines[lines.length - 1]];
    expect(header).toMatchObject({
      type: 'header',
      format: 'total-recall-cold-storage',
      version: FORMAT_VERSION,
      kind: 'full',
      scope: { stores: [store] },
    });
    expect(trailer?.type).toBe('trailer');
    if (trailer?.type !== 'trailer') throw new Error('no trailer');
    for (const { label, n } of labels) expect(trailer.counts.nodes[label], label).toBe(n);
    expect(Object.keys(trailer.counts.nodes)).toEqual(
      expect.arrayContaining(['Decision', 'Event', 'Notification', 'Recall', 'Session', 'Use']),
    );
    expect(Object.keys(trailer.counts.nodes).filter((k) => k.split(':').includes('Memory')).length).toBeGreaterThan(0);
    expect(Object.keys(trailer.counts.relationships)).toEqual(
      expect.arrayContaining(['ABOUT', 'CONSOLIDATED_FROM', 'DECIDED_IN', 'RETRIEVED', 'STORED_IN', 'THEMATIC']),
    );

    // New work is refused with a typed error; health still answers.
    const refused = await t.gql('mutation ($in: StoreInput!) { store(input: $in) { id } }', {
      in: { store, content: 'too late' },
    });
    expect(refused.errors?.[0]?.extensions?.code).toBe('SHUTTING_DOWN');
    const late = await t.gql('mutation { startSession(input: {instanceId: "late", mindType: "claude"}) { id } }');
    expect(late.errors?.[0]?.extensions?.code).toBe('SHUTTING_DOWN');
    expect((await t.ok<{ health: { accepting: boolean } }>('{ health { accepting } }')).health.accepting).toBe(false);
    // A second request (a SIGTERM after the mutation, say) gets the same report.
    expect((await t.ok<{ shutdown: any }>(SHUTDOWN, { dir })).shutdown).toEqual(shutdown);
  });
});

describe('shutdown steps at work', () => {
  it('drains: the due jobs run and no worker is left; flushes: a recall still being ' +
    'written is in the export', async () => {
    const store = randomStore('drain');
    const prefix = queuePrefix();
    const dir = await mkdtemp(join(tmpdir(), 'total-recall-cold-'));
    const t = await startTestApp(
      { log: () => undefined },
      backgroundEnv(store, prefix, { TOTAL_RECALL_COLD_STORAGE_DIR: dir }),
    );
    cleanups.push(async () => {
      await t.dropStore(store);
      await t.stop();
      await dropQueues(prefix);
      await rm(dir, { recursive: true, force: true });
    });
    // Six session audits wait in Redis; this process has no worker yet.
    const audits = t.app.jobs.queue('session-audit');
    const sessions: string[] = [];
    for (let n = 0; n < 6; n++) {
      const i = `drain-${prefix}-${n}`;
      const { startSession } = await t.ok<{ startSession: { id: string } }>(
        'mutation ($in: StartSessionInput!) { startSession(input: $in) { id } }',
        { in: { instanceId: i, mindType: 'claude', store } },
      );
      sessions.push(startSession.id);
      await t.ok('mutation ($i: String!) { endSession(instanceId: $i) { prompt } }', { i });
    }
    await t.app.bus.idle(); // every audit job is in Redis
    expect(await audits.getJobCounts('waiting', 'active', 'completed')).toMatchObject({
      waiting: 6,
      active: 0,
      completed: 0,
    });

    // A recall whose record is still on its way to Neo4j (the port is slowed for it) when shutdown starts.
    await t.ok('mutation ($in: StoreInput!) { store(input: $in) { id } }', {
      in: { store, content: 'The recall in flight finds this.' },
    });
    const graph = t.app.graph as unknown as { write: GraphPort['write'] };
    const write = graph.write.bind(graph);
    graph.write = async (statement, params) => {
      if (statement.file.endsWith('record-recall.cypher')) await new Promise((resolve) => setTimeout(resolve, 2_000));
      return write(statement, params);
    };
    const { search } = await t.ok<{ search: { id: string; hits: unknown[] } }>(
      'query ($in: SearchInput!) { search(input: $in) { id hits { confidence } } }',
      {
        in: { store, query: 'recall in flight', includeAssociations: false },
      },
    );
    expect(search.hits.length).toBeGreaterThan(0);

    // Workers that take two seconds a job, four at a time: when shutdown starts,
    // four audits are running and two are still waiting for a free worker.
    await t.app.jobs.work(async (job) => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      return t.app.subconscious.run(job);
    });
    expect((await audits.getWorkers()).length).toBeGreaterThan(0);
    expect(await audits.getJobCounts('completed')).toMatchObject({ completed: 0 });
    const { shutdown } = await t.ok<{ shutdown: { ready: boolean; coldStoragePath: string; steps: string[] } }>(
      'mutation { shutdown { ready coldStoragePath steps } }',
    );
    expect(shutdown.ready, shutdown.steps.join('\n')).toBe(true);
    expect(shutdown.steps[1]).toMatch(
      /^2\. drain queues and workers: [2-6] due jobs ran, workers stopped, \d+ timers stay scheduled/,
    );
    expect(shutdown.steps[1]).not.toMatch(/left waiting/);
    // Drained: every audit ran to the end (its notification is kept), nothing waits, no worker is connected.
    const after = await audits.getJobCounts('waiting', 'active', 'completed');
    expect(after).toMatchObject({ waiting: 0, active: 0, completed: 6 });
    const kept = await t.cypher<{ n: number }>(
      'MATCH (n:Notification) WHERE n.sessionId IN $ids RETURN count(n) AS n',
      { ids: sessions },
    );
    expect(kept[0]?.n).toBe(6);
    for (const kind of JOB_KINDS) expect(await t.app.jobs.queue(kind).getWorkers(), kind).toEqual([]);
    // Flushed before the export was written: the recall is in it.
    const exported = await readExport(shutdown.coldStoragePath);
    expect(exported.some((l) => l.type === 'node' && l.labels.includes('Recall') && l.props.id === search.id)).toBe(
      true,
    );
  }, 120_000);
});
