/**
 * An import that does not finish on the real Neo4j: one that fails partway removes what it wrote (the database is as
 * it was), the next run removes what a killed one left (only its marked nodes), and `npm run import` / `npm run
 * export` answer a damaged file, an unreachable Neo4j and a bad setting with one line and their exit codes.
 */
import { execFile, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { randomStore } from '../helpers.js';
import { populate, readExport } from '../cold-storage-fixture.js';
import { scopedApps } from '../background.js';
import { ImportFailed } from '../../src/adapters/cold-storage/index.js';

const { scopedApp, cleanups } = scopedApps();

/** A store's nodes and relationships, as they are. */
const CONTENT =
  'MATCH (n) WHERE n.store = $store OPTIONAL MATCH (n)-[r]->() ' +
  'WITH n, collect(type(r) + "->" + coalesce(endNode(r).id, "")) AS out ' +
  'RETURN labels(n) AS labels, properties(n) AS props, out ORDER BY elementId(n)';

/** A store with the complete graph, exported, then emptied (nothing of its app writes meanwhile). */
async function exportedAndEmptied(label: string) {
  const { t, store, dir } = await scopedApp(label);
  await populate(t, store);
  const written = await t.app.coldStorage.write(dir);
  await t.app.jobs.close();
  await t.app.bus.idle();
  await t.dropStore(store);
  return { t, store, dir, path: written.path };
}

describe('an import that does not finish', () => {
  it('fails in a later batch and deletes what it wrote: the database is exactly as before', async () => {
    const { t, store, path } = await exportedAndEmptied('import-fails');
    // A node of the file already in the database, late in it: the import collides with it after batches committed.
    const nodes = (await readExport(path)).filter((l) => l.type === 'node');
    const late = nodes.flatMap((l, i) => (['Memory', 'Event'].some((x) => l.labels.includes(x)) ? [i] : [])).at(-1)!;
    expect(late).toBeGreaterThan(4);
    const collider = nodes[late]!;
    await t.cypher('CREATE (n:$($label) {id: $id, store: $store, note: "here before the import"})', {
      label: collider.labels.find((x) => x === 'Memory' || x === 'Event'),
      id: collider.props.id,
      store,
    });
    const before = await t.cypher(CONTENT, { store });

    const failed = t.app.coldStorage.import(path, { allowNonEmpty: true, batchSize: 2 });
    await expect(failed).rejects.toThrow(ImportFailed);
    await expect(failed).rejects.toThrow(/what it wrote was removed; the database is as it was/);
    expect(await t.cypher(CONTENT, { store })).toEqual(before);
  }, 120_000);

  it("the next run removes what a killed import left (only its marked nodes), not a running one's", async () => {
    const { t, store, path } = await exportedAndEmptied('import-killed');
    const elsewhere = randomStore('import-running');
    cleanups.push(() => t.dropStore(elsewhere));
    // Marks as imports write them: this machine, the import's process, its own id.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const killed = `${hostname()}/${gone}/${randomUUID()}:`;
    const running = `${hostname()}/${process.pid}/${randomUUID()}:`;
    await t.cypher(
      'CREATE (:ColdImport:Memory {coldImportKey: $killed, id: $killedId, store: $store})' +
        '-[:THEMATIC]->(:ColdImport {coldImportKey: $killed2, store: $store}), ' +
        '(:ColdImport {coldImportKey: $running, store: $elsewhere})',
      {
        killed: `${killed}#a`,
        killedId: `mem-killed-${randomUUID()}`,
        killed2: `${killed}#b`,
        running: `${running}#a`,
        store,
        elsewhere,
      },
    );

    // One killed while taking its marks off had written everything: the next run finishes it, deleting nothing.
    const finished = `${hostname()}/${gone}/${randomUUID()}:`;
    const restored = `mem-restored-${randomUUID()}`;
    await t.cypher(
      'CREATE (:ColdImport:Memory {coldImportKey: $key, id: $restored, store: $elsewhere})' +
        '-[:THEMATIC]->(:Memory {id: $other, store: $elsewhere}), (:ColdImportWritten {mark: $finished})',
      { key: `${finished}#a`, restored, other: `mem-other-${randomUUID()}`, elsewhere, finished },
    );

    const lines: string[] = [];
    const report = await t.app.coldStorage.import(path, { allowNonEmpty: true, log: (l) => lines.push(l) });
    expect(report).toMatchObject({ verified: true, problems: [] });
    expect(lines).toContain(`removed 2 nodes an unfinished import left (${killed.slice(0, -1)})`);
    expect(lines).toContain(`finished what an import stopped while finishing had restored (${finished.slice(0, -1)})`);
    const kept = await t.cypher<{ labels: string[]; links: number; records: number }>(
      'MATCH (m:Memory {id: $restored}) RETURN labels(m) AS labels, COUNT { (m)-[:THEMATIC]->() } AS links, ' +
        'COUNT { MATCH (w:ColdImportWritten {mark: $finished}) } AS records',
      { restored, finished },
    );
    expect(kept).toEqual([{ labels: ['Memory'], links: 1, records: 0 }]);
    const marked = await t.cypher<{ key: string }>(
      'MATCH (n:ColdImport) WHERE n.store IN [$store, $elsewhere] RETURN n.coldImportKey AS key',
      { store, elsewhere },
    );
    expect(marked).toEqual([{ key: `${running}#a` }]);
  }, 120_000);
});

describe('npm run import and npm run export, failing', () => {
  const run = promisify(execFile);
  const script = (name: string, args: string[], env: Record<string, string>) =>
    run(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], { env: { ...process.env, ...env } }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  const UNREACHABLE = { NEO4J_URI: 'bolt://127.0.0.1:1' };
  const oneLine = (stderr: string) => stderr.trim().split('\n');

  it('checks the file before Neo4j, and says an unreachable Neo4j or a bad setting in one line', async () => {
    const { dir, path } = await exportedAndEmptied('import-cli');
    const damaged = join(dir, 'damaged.ndjson');
    await writeFile(damaged, (await readFile(path, 'utf8')).replace('"book the train"', '"book a flight"'));

    // The file is refused before Neo4j is asked anything (its schema is not touched).
    const bad = await script('import', [damaged], UNREACHABLE);
    expect(bad.code).toBe(2);
    expect(oneLine(bad.stderr)).toEqual([expect.stringMatching(/^error: .*not a complete, intact export: sha256/)]);

    const down = await script('import', [path], UNREACHABLE);
    expect(down.code).toBe(3);
    expect(oneLine(down.stderr)).toEqual([
      expect.stringMatching(/^error: Neo4j is not reachable at bolt:\/\/127\.0\.0\.1:1 .*; nothing was restored$/),
    ]);

    for (const name of ['import', 'export']) {
      const setting = await script(name, name === 'import' ? [path] : [dir], { NEO4J_URI: 'ftp://nowhere' });
      expect(setting.code, name).toBe(2);
      expect(oneLine(setting.stderr), name).toEqual([expect.stringMatching(/^error: NEO4J_URI must be <scheme>/)]);
    }
  }, 120_000);
});
