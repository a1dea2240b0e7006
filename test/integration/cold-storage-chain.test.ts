/**
 * Cold storage's chain on the real Neo4j: after a verified full export, the
 * shutdown protocol writes only a delta (what store, claim, link and forget
 * changed, the forgotten memory as a deleted key); the chain restores the
 * graph exactly, a compaction rewrites it as one full export, a broken chain
 * is refused, version 1 files still import, vectors come back bit for bit,
 * and a decay sweep's rescoring (derived, left out of every file) adds nothing to a delta.
 */
import { cp, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { graphOf, populate, readExport } from '../cold-storage-fixture.js';
import { scopedApps } from '../background.js';
import { FORMAT_VERSION, nodeKey, type Header, type Line } from '../../src/adapters/cold-storage/testing.js';
import { ColdStorageHeadMovedError, ImportRefused } from '../../src/adapters/cold-storage/index.js';
import type { LosslessGraph } from '../../src/adapters/cold-storage/lossless-graph.js';
import { COMMIT_OVERLAP_MS } from '../../src/adapters/cold-storage/delta.js';
import { asVersion1 } from '../cold-storage-v1.js';
import { message } from '../../src/domain/index.js';

const DAY = 86_400_000;

const { scopedApp } = scopedApps();

const STORE_ONE = 'mutation ($in: StoreInput!) { store(input: $in) { id } }';

/**
 * Node keys whose record or outgoing relationships differ between two exports
 * (a relationship to a node gone with it aside: the deleted key covers it), and the keys gone.
 */
async function changedBetween(before: string, after: string): Promise<{ changed: Set<string>; gone: Set<string> }> {
  const keyed = async (path: string) => {
    const records = new Map<string, [string, string | null]>();
    const keys = new Set<string>();
    for (const line of await readExport(path)) {
      if (line.type === 'node') {
        keys.add(nodeKey(line.ref));
        records.set(`n ${JSON.stringify(line)}`, [nodeKey(line.ref), null]);
      } else if (line.type === 'relationship')
        records.set(`r ${JSON.stringify(line)}`, [nodeKey(line.start), nodeKey(line.end)]);
    }
    return { records, keys };
  };
  const [a, b] = [await keyed(before), await keyed(after)];
  const gone = new Set([...a.keys].filter((k) => !b.keys.has(k)));
  const changed = new Set<string>();
  for (const [record, [key]] of b.records) if (!a.records.has(record)) changed.add(key);
  for (const [record, [key, end]] of a.records)
    if (!b.records.has(record) && !gone.has(key) && !(end && gone.has(end))) changed.add(key);
  return { changed, gone };
}

describe('cold storage chain', () => {
  it('shutdown writes only the delta since the last verified export; the chain restores the graph exactly, and ' +
    'a compaction rewrites it as one full export', async () => {
    const { t, store, dir } = await scopedApp('chain');
    const { ids } = await populate(t, store);
    // Written long before the export (a delta reaches COMMIT_OVERLAP_MS back before the export it follows).
    await t.cypher('MATCH (n) WHERE n.store = $store SET n.changedAt = n.changedAt - $ms', {
      store,
      ms: 2 * COMMIT_OVERLAP_MS,
    });
    const full = await t.app.coldStorage.write(dir);
    expect(full.kind).toBe('full');
    expect(await t.app.coldStorage.verify(full.path)).toEqual({ verified: true, problems: [] });

    // The changes: a new memory, a claim, a link of the mind's, a forgotten memory.
    const { store: added } = await t.ok<{ store: { id: string } }>(STORE_ONE, {
      in: { store, content: 'A new memory after the full export.', tags: ['delta'] },
    });
    await t.ok('mutation ($id: ID!) { claim(id: $id) { id } }', { id: ids[2] });
    await t.ok('mutation ($in: AssociateInput!) { associate(input: $in) { strength } }', {
      in: { a: ids[2], b: added.id, type: 'CAUSAL', strength: 0.7 },
    });
    await t.ok('mutation ($in: ForgetInput!) { forget(input: $in) { forgotten } }', {
      in: { id: ids[1], confirmId: ids[1], reason: 'test' },
    });
    const { shutdown } = await t.ok<{ shutdown: { ready: boolean; coldStoragePath: string; steps: string[] } }>(
      'mutation { shutdown { ready coldStoragePath steps } }',
    );
    expect(shutdown.ready, shutdown.steps.join('\n')).toBe(true);
    expect(shutdown.steps[3]).toMatch(
      /^4\. write cold storage: delta .*-delta\.ndjson \(\d+ nodes, \d+ relationships, 1 deleted/,
    );

    const lines = await readExport(shutdown.coldStoragePath);
    const header = lines[0] as Header;
    expect(header).toMatchObject({
      version: FORMAT_VERSION,
      kind: 'delta',
      previous: full.sha256,
      scope: { stores: [store] },
    });
    const deleted = lines.flatMap((l) => (l.type === 'deleted' ? [l.key] : []));
    const nodes = new Set(lines.flatMap((l) => (l.type === 'node' ? [nodeKey(l.ref)] : [])));
    expect(deleted).toEqual([`#${ids[1]}`]);
    for (const id of [added.id, ids[2]]) expect(nodes.has(`#${id}`), id).toBe(true);
    // Only what changed: nothing of the session's decision, far fewer nodes than the store holds.
    expect(lines.some((l) => l.type === 'node' && l.labels.includes('Decision'))).toBe(false);
    expect(nodes.size).toBeLessThan(full.nodes);

    // Everything that differs between the full export and the graph now is in the delta.
    const now = await t.app.coldStorage.write(join(dir, 'now'), { full: true });
    const { changed, gone } = await changedBetween(full.path, now.path);
    expect([...gone].map((k) => k)).toEqual([`#${ids[1]}`]);
    for (const key of changed) expect(nodes.has(key), key).toBe(true);

    // The chain (the folder's newest file and the one before) restores the graph exactly.
    await t.dropStore(store);
    const report = await t.app.coldStorage.import(dir, { allowNonEmpty: true });
    expect(report).toMatchObject({ verified: true, problems: [], files: [full.path, shutdown.coldStoragePath] });
    const again = await t.app.coldStorage.write(join(dir, 'again'), { full: true });
    expect(again.digest).toBe(now.digest);
    expect(await graphOf(again.path)).toEqual(await graphOf(now.path));

    // Compaction: the chain as one full export (made the head again: import cleared it).
    await t.app.coldStorage.verify(full.path).catch(() => undefined);
    const chainDir = join(dir, 'compact');
    await mkdir(chainDir);
    await cp(full.path, join(chainDir, 'a.ndjson'));
    await cp(shutdown.coldStoragePath, join(chainDir, 'b-delta.ndjson'));
    await t.cypher('MERGE (h:ColdStorageHead {scope: $scope}) SET h.path = $path, h.sha256 = $sha, h.until = $until', {
      scope: store,
      path: join(chainDir, 'b-delta.ndjson'),
      sha: lineTrailerSha(lines),
      until: header.until,
    });
    const compacted = await t.app.coldStorage.compact();
    expect(compacted).toMatchObject({ compacted: true, files: 2 });
    expect(await readdir(chainDir)).toHaveLength(1);
    if (!compacted.compacted) throw new Error('not compacted');
    expect(compacted.digest).toBe(now.digest);
    expect(await graphOf(compacted.path)).toEqual(await graphOf(now.path));
  }, 120_000);

  it('fails typed, keeping the file, when another export moved the head while a delta was verified', async () => {
    const { t, store, dir } = await scopedApp('head-moved');
    await t.ok(STORE_ONE, { in: { store, content: 'Before the full export.' } });
    await t.app.bus.idle();
    await t.cypher('MATCH (n) WHERE n.store = $store SET n.changedAt = n.changedAt - $ms', {
      store,
      ms: 2 * COMMIT_OVERLAP_MS,
    });
    const cold = t.app.coldStorage;
    expect((await cold.verify((await cold.write(dir)).path)).verified).toBe(true);
    await t.ok(STORE_ONE, { in: { store, content: 'After the full export.' } });
    await t.app.bus.idle();
    const delta = await cold.write(dir);
    expect(delta.kind).toBe('delta');
    // Another worker's compaction commits its head after this verify read the head and before it moves it.
    const graph = (cold as unknown as { lossless(): LosslessGraph }).lossless();
    const run = graph.run.bind(graph);
    graph.run = async (statement, params) => {
      if (statement.file.endsWith('write-head.cypher'))
        await t.cypher('MATCH (h:ColdStorageHead {scope: $store}) SET h.sha256 = "compacted", h.path = "elsewhere"', {
          store,
        });
      return run(statement, params);
    };
    try {
      await expect(cold.verify(delta.path)).rejects.toBeInstanceOf(ColdStorageHeadMovedError);
    } finally {
      graph.run = run;
    }
    const heads = await t.cypher<{ sha256: string }>(
      'MATCH (h:ColdStorageHead {scope: $store}) RETURN h.sha256 AS sha256',
      { store },
    );
    expect(heads).toEqual([{ sha256: 'compacted' }]);
    expect((await stat(delta.path)).size).toBe(delta.bytes);
    await t.cypher('MATCH (h:ColdStorageHead {scope: $store}) DELETE h', { store });
  }, 60_000);

  it("leaves a day's decay sweep out of the next delta (the score is derived) and restores without the score, " +
    'which the next sweep writes again', async () => {
    const { t, store, dir } = await scopedApp('sweep');
    const { ids } = await populate(t, store);
    await t.app.bus.idle();
    await t.cypher('MATCH (n) WHERE n.store = $store SET n.changedAt = n.changedAt - $ms', {
      store,
      ms: 2 * COMMIT_OVERLAP_MS,
    });
    const full = await t.app.coldStorage.write(dir);
    expect((await t.app.coldStorage.verify(full.path)).verified).toBe(true);
    const scores = async () =>
      new Map(
        (
          await t.cypher<{ id: string; tier: string; anchor: number | null; salience: number | null }>(
            'MATCH (m:Memory {store: $store}) RETURN m.id AS id, m.tier AS tier, m.salience AS salience, ' +
              'm.salienceAnchorAt.epochMillis AS anchor',
            { store },
          )
        ).map((r) => [r.id, r]),
      );
    const before = await scores();
    const sweep = (now: number) => t.app.bus.ask(message('SweepDecay', { store, now }, 'subconscious'));
    expect((await sweep(Date.now() + DAY)).updated).toBeGreaterThan(0);
    const after = await scores();
    // Rescored only: a tier change, or a use or claim folded into a new anchor, is a change a delta carries.
    const same = (id: string, key: 'tier' | 'anchor' | 'salience') => after.get(id)?.[key] === before.get(id)?.[key];
    const rescored = ids.filter((id) => same(id, 'tier') && same(id, 'anchor') && !same(id, 'salience'));
    expect(rescored.length).toBeGreaterThan(0);

    const delta = await t.app.coldStorage.write(dir);
    expect(delta.kind).toBe('delta');
    expect(await t.app.coldStorage.verify(delta.path)).toEqual({ verified: true, problems: [] });
    const lines = await readExport(delta.path);
    const inDelta = new Set(lines.flatMap((l) => (l.type === 'node' ? [nodeKey(l.ref)] : [])));
    for (const id of rescored) expect(inDelta.has(`#${id}`), id).toBe(false);
    for (const line of [...(await readExport(full.path)), ...lines])
      if (line.type === 'node' && line.labels.includes('Memory')) expect(line.props).not.toHaveProperty('salience');

    await t.app.jobs.close();
    await t.app.bus.idle();
    await t.dropStore(store);
    expect(await t.app.coldStorage.import(dir, { allowNonEmpty: true })).toMatchObject({ verified: true });
    expect([...(await scores()).values()].filter((m) => m.salience !== null)).toEqual([]);
    await sweep(Date.now() + DAY);
    const again = await scores();
    for (const id of rescored) expect(again.get(id)?.salience, id).toBeCloseTo(after.get(id)?.salience ?? -1, 2);
  }, 120_000);

  it('refuses a broken chain and a damaged delta, writing nothing; imports a version 1 file; keeps vectors bit for ' +
    'bit', async () => {
    const { t, store, dir } = await scopedApp('broken');
    await populate(t, store);
    const float32 = Array.from({ length: t.config.embeddingDimensions }, (_, k) => Math.fround(Math.cos(k) / 7));
    const float64 = Array.from({ length: t.config.embeddingDimensions }, (_, k) => Math.cos(k) / 7);
    for (const [content, embedding] of [
      ['float32 vector', float32],
      ['float64 vector', float64],
    ] as const)
      await t.ok(STORE_ONE, { in: { store, content, embedding } });
    await t.app.bus.idle();
    const full = await t.app.coldStorage.write(dir);
    expect((await t.app.coldStorage.verify(full.path)).verified).toBe(true);
    await t.ok(STORE_ONE, { in: { store, content: 'one more' } });
    await t.app.bus.idle();
    const delta = await t.app.coldStorage.write(dir);
    expect(delta.kind).toBe('delta');

    // Vectors: base64 of float32 when every value is one, else of float64.
    const exported = await readExport(full.path);
    const typeOf = (content: string) =>
      exported.flatMap((l) => (l.type === 'node' && l.props.content === content ? [l.types.embedding] : []))[0];
    expect([typeOf('float32 vector'), typeOf('float64 vector')]).toEqual(['Vector<Float32>', 'Vector<Float64>']);

    const count = async () =>
      (await t.cypher<{ n: number }>('MATCH (n) WHERE n.store = $store RETURN count(n) AS n', { store }))[0]?.n;
    const before = await count();
    const broken = join(dir, 'broken');
    await mkdir(broken);
    await cp(delta.path, join(broken, 'only-delta.ndjson'));
    await expect(t.app.coldStorage.import(broken, { allowNonEmpty: true })).rejects.toThrow(
      /broken chain: .*only-delta\.ndjson follows the file with sha256 [0-9a-f]{64}, which is not in/,
    );
    await expect(t.app.coldStorage.import(broken, { allowNonEmpty: true })).rejects.toBeInstanceOf(ImportRefused);
    const damaged = join(dir, 'damaged');
    await mkdir(damaged);
    await cp(full.path, join(damaged, 'a.ndjson'));
    await writeFile(
      join(damaged, 'b-delta.ndjson'),
      (await readFile(delta.path, 'utf8')).replace('one more', 'one less'),
    );
    await expect(t.app.coldStorage.import(join(damaged, 'b-delta.ndjson'), { allowNonEmpty: true })).rejects.toThrow(
      /b-delta\.ndjson is not a complete, intact export: sha256 of the file does not match/,
    );
    expect(await count()).toBe(before);

    // A version 1 file (float lists as JSON numbers) of the same graph still imports, exactly.
    const v1 = join(dir, 'v1', 'old.ndjson');
    await mkdir(join(dir, 'v1'));
    await writeFile(v1, asVersion1(await readFile(full.path, 'utf8')));
    expect((JSON.parse((await readFile(v1, 'utf8')).split('\n')[0] as string) as Header).version).toBe(1);
    await t.app.jobs.close();
    await t.app.bus.idle();
    await t.dropStore(store);
    const report = await t.app.coldStorage.import(v1, { allowNonEmpty: true });
    expect(report).toMatchObject({ verified: true, problems: [] });
    const after = await t.app.coldStorage.write(join(dir, 'after'), { full: true });
    expect(after.digest).toBe(full.digest);
    expect(await graphOf(after.path)).toEqual(await graphOf(full.path));
    const rows = await t.cypher<{ content: string; embedding: number[] }>(
      'MATCH (m:Memory {store: $store}) WHERE m.content ENDS WITH " vector" RETURN m.content AS content, ' +
        'm.embedding AS embedding',
      { store },
    );
    const back = new Map(rows.map((r) => [r.content, r.embedding]));
    const same = (a: readonly number[] | undefined, b: readonly number[]) =>
      a?.length === b.length && a.every((v, i) => Object.is(v, b[i]));
    expect(same(back.get('float32 vector'), float32)).toBe(true);
    expect(same(back.get('float64 vector'), float64)).toBe(true);
  }, 120_000);
});

function lineTrailerSha(lines: Line[]): string {
  const last = lines[lines.length - 1];
  if (last?.type !== 'trailer') throw new Error('no trailer');
  return last.sha256;
}
