/**
 * The background's checkpoints on the real Neo4j: an export written and
 * checked while the service keeps writing. What changed after the export read
 * the graph is left to the next delta; anything else that differs fails the
 * check. A verified checkpoint becomes the head, so a shutdown writes only
 * what changed since, and the chain still restores the graph exactly.
 */
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { graphOf, populate } from '../cold-storage-fixture.js';
import { eventually, scopedApps } from '../background.js';
import { COMMIT_OVERLAP_MS } from '../../src/adapters/cold-storage/delta.js';
import type { TestApp } from '../helpers.js';

const { scopedApp } = scopedApps();

const STORE_ONE = 'mutation ($in: StoreInput!) { store(input: $in) { id } }';

/** Stamps aged past the commit overlap: as if written long before the export. */
const age = (t: TestApp, store: string) =>
  t.cypher('MATCH (n) WHERE n.store = $store SET n.changedAt = n.changedAt - $ms', {
    store,
    ms: 2 * COMMIT_OVERLAP_MS,
  });

/** What a mind does meanwhile: a new memory, a claim, a link, a forgotten memory. */
async function changes(t: TestApp, store: string, ids: string[], note: string): Promise<string> {
  const { store: added } = await t.ok<{ store: { id: string } }>(STORE_ONE, { in: { store, content: note } });
  await t.ok('mutation ($id: ID!) { claim(id: $id) { id } }', { id: ids[2] });
  await t.ok('mutation ($in: AssociateInput!) { associate(input: $in) { strength } }', {
    in: { a: ids[2], b: added.id, type: 'CAUSAL', strength: 0.7 },
  });
  await t.app.bus.idle();
  return added.id;
}

describe('cold storage checkpoints', () => {
  it('checks an export against a graph that moved after it was read: the moved records left to the next delta, ' +
    'a record changed without a stamp refused', async () => {
    const { t, store, dir } = await scopedApp('live');
    const { ids } = await populate(t, store);
    await t.app.bus.idle();
    await age(t, store);
    const full = await t.app.coldStorage.write(dir);
    await changes(t, store, ids, 'Written while the export was checked.');
    await t.ok('mutation ($in: ForgetInput!) { forget(input: $in) { forgotten } }', {
      in: { id: ids[1], confirmId: ids[1], reason: 'test' },
    });
    await t.app.bus.idle();

    // The graph moved: the check that assumes nothing writes refuses the export, as it should.
    expect((await t.app.coldStorage.verify(full.path)).verified).toBe(false);
    // The check for a running service compares what did not move, and leaves what moved to the next delta.
    const live = await t.app.coldStorage.verify(full.path, { writersRunning: true });
    expect(live).toMatchObject({ verified: true, problems: [] });
    expect(live.live?.compared).toBeGreaterThan(0);
    expect(live.live?.left).toBeGreaterThan(0);
    expect((live.live?.compared ?? 0) + (live.live?.left ?? 0)).toBe(full.nodes + full.relationships);

    // A record changed without a stamp (Cypher typed by hand) is not a change a delta would carry: refused.
    // Background work settled and every stamp aged first, so that the hand edit is the only thing that moved (a link
    // Synapse wrote to the edited memory just before the export would leave its group to the next delta instead).
    await t.app.bus.idle();
    await t.app.embeddings?.idle();
    await age(t, store);
    const again = await t.app.coldStorage.write(join(dir, 'again'), { full: true });
    await t.cypher('MATCH (m:Memory {id: $id}) SET m.content = $content', { id: ids[0], content: 'edited by hand' });
    const check = await t.app.coldStorage.verify(again.path, { writersRunning: true });
    expect(check.verified).toBe(false);
    expect(check.problems.join()).toMatch(/groups of records no change touched differ from the export/);
  }, 120_000);

  it('writes the first full export in the background, then deltas; a shutdown writes only what changed since the ' +
    'last checkpoint, and the chain restores the graph exactly', async () => {
    const { t, store, dir } = await scopedApp('checkpoint');
    const { ids } = await populate(t, store);
    await t.app.bus.idle();
    await age(t, store);

    const first = await t.app.coldStorage.checkpoint(dir);
    expect(first).toMatchObject({ checkpointed: true, kind: 'full' });
    expect(await t.app.coldStorage.checkpoint(dir)).toEqual({
      checkpointed: false,
      reason: 'nothing changed since the last verified export',
    });
    await changes(t, store, ids, 'After the first checkpoint.');
    const second = await t.app.coldStorage.checkpoint(dir);
    expect(second).toMatchObject({ checkpointed: true, kind: 'delta' });
    const afterSecond = await changes(t, store, ids, 'After the second checkpoint.');

    const { shutdown } = await t.ok<{ shutdown: { ready: boolean; coldStoragePath: string; steps: string[] } }>(
      'mutation { shutdown { ready coldStoragePath steps } }',
    );
    expect(shutdown.ready, shutdown.steps.join('\n')).toBe(true);
    expect(shutdown.steps[3]).toMatch(/^4\. write cold storage: delta /);
    // The shutdown's delta follows the checkpoint's file.
    expect((await graphOf(shutdown.coldStoragePath)).join('\n')).toContain(afterSecond);
    expect(await readdir(dir)).toHaveLength(3);

    const now = await t.app.coldStorage.write(join(dir, 'now'), { full: true });
    await t.dropStore(store);
    const report = await t.app.coldStorage.import(dir, { allowNonEmpty: true });
    expect(report).toMatchObject({ verified: true, problems: [] });
    expect(report.files).toHaveLength(3);
    const restored = await t.app.coldStorage.write(join(dir, 'restored'), { full: true });
    expect(restored.digest).toBe(now.digest);
  }, 120_000);

  it('runs as a scheduled job from the start, so a database without a verified export gets one in the ' +
    'background', async () => {
    const { t, store, dir } = await scopedApp('scheduled', { TOTAL_RECALL_COLD_STORAGE_CHECKPOINT_MS: '3600000' });
    await populate(t, store);
    await t.app.bus.idle();
    const head = () =>
      t.cypher<{ path: string }>('MATCH (h:ColdStorageHead {scope: $store}) RETURN h.path AS path', { store });
    const { path } = await eventually(async () => (await head())[0], 60_000);
    expect(await readdir(dir)).toEqual([basename(path)]);
  }, 120_000);

  it('stops an export when shutdown says so, leaving no file behind', async () => {
    const { t, store, dir } = await scopedApp('stopped');
    await populate(t, store);
    await t.app.bus.idle();
    const stop = new AbortController();
    stop.abort(new Error('shutting down'));
    await expect(t.app.coldStorage.write(dir, { signal: stop.signal })).rejects.toThrow(/shutting down/);
    expect(await readdir(dir)).toEqual([]);
  }, 60_000);
});
