/**
 * What a killed export leaves on the real Neo4j: an export writes to a temporary file and renames it when done, so a
 * process killed meanwhile (SIGKILL, OOM) leaves that file behind. The next export into the folder removes the
 * temporary files of processes that are gone, and nothing else: not those of running processes (another worker may
 * be exporting into the same folder), not a finished export, not a file of anyone else.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { populate } from '../cold-storage-fixture.js';
import { queuePrefix, startBackgroundApp, stopBackgroundApp } from '../background.js';
import { randomStore } from '../helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean().catch((error) => console.error(error));
});

/** The name an export gives its temporary file, as if process `pid` had started one at `at`. */
const temporary = (pid: number, at: Date, delta = false) =>
  `.total-recall-${at.toISOString().replace(/[:.]/g, '-')}-${pid}${delta ? '-delta' : ''}.ndjson.tmp`;

/** The pid of a process that has exited (nothing runs under it now). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  const pid = child.pid as number;
  expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  return pid;
}

/** A process that keeps running until the test ends. */
function liveProcess(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
  cleanups.push(async () => {
    if (child.exitCode === null && child.kill()) await once(child, 'exit');
  });
  return child;
}

describe('cold storage after a killed export', () => {
  it('removes the temporary exports of processes that are gone before the next export writes, and nothing ' +
    'else', async () => {
    const store = randomStore('orphans');
    const prefix = queuePrefix();
    const dir = await mkdtemp(join(tmpdir(), 'total-recall-cold-'));
    const lines: string[] = [];
    const env = { TOTAL_RECALL_COLD_STORAGE_DIR: dir };
    const t = await startBackgroundApp(store, prefix, env, { log: (line) => lines.push(line) });
    cleanups.push(async () => {
      await stopBackgroundApp(t, store, prefix);
      await rm(dir, { recursive: true, force: true });
    });
    await populate(t, store);
    await t.app.bus.idle();

    const dead = await deadPid();
    const other = liveProcess().pid as number;
    const now = new Date();
    const orphans = {
      // A killed full export and a killed delta, some of their records written.
      [temporary(dead, new Date(now.getTime() - 60_000))]: 'x'.repeat(1000),
      [temporary(dead, new Date(now.getTime() - 30_000), true)]: 'y'.repeat(234),
      // Killed before it wrote anything.
      [temporary(dead, now)]: '',
      // This process's pid, from before it started: a restarted container's process often gets its old pid back.
      [temporary(process.pid, new Date('2020-01-01T00:00:00.000Z'))]: 'z'.repeat(10),
    };
    const kept = {
      // Exports under way: one of another running process, one of this process.
      [temporary(other, now)]: 'another worker exporting',
      [temporary(process.pid, now)]: 'this process exporting',
      // A dead pid here, but written a minute ago: a writer in another container or on another host shares the folder
      // and not the pids, and a live export writes all the time.
      [temporary(dead, new Date(now.getTime() - 45_000))]: 'written lately',
      // Not temporary exports: a finished export's name, a name close to a temporary one, someone else's file.
      [`total-recall-${now.toISOString().replace(/[:.]/g, '-')}-${dead}.ndjson`]: 'finished',
      [`${temporary(dead, now)}.bak`]: 'a copy',
      'notes.txt': 'an operator note',
    };
    for (const [name, text] of Object.entries({ ...orphans, ...kept })) await writeFile(join(dir, name), text);
    // What a killed export left has lain unwritten since; everything else was written just now.
    const idle = new Date(now.getTime() - 2 * 3_600_000);
    for (const name of Object.keys(orphans)) await utimes(join(dir, name), idle, idle);
    // A folder under a temporary export's name is not a file an export left.
    const folder = temporary(dead, new Date(now.getTime() - 90_000));
    await mkdir(join(dir, folder));

    const checkpoint = await t.app.coldStorage.checkpoint(dir);
    expect(checkpoint).toMatchObject({ checkpointed: true, kind: 'full' });
    if (!checkpoint.checkpointed) throw new Error(checkpoint.reason);

    expect((await readdir(dir)).sort()).toEqual([...Object.keys(kept), folder, basename(checkpoint.path)].sort());
    expect(lines).toContain(`cold storage: removed 4 temporary exports killed processes left in ${dir} (1244 bytes)`);
    // The export is whole: it restores the store.
    await t.dropStore(store);
    const report = await t.app.coldStorage.import(checkpoint.path, { allowNonEmpty: true });
    expect(report).toMatchObject({ verified: true, problems: [] });
  }, 120_000);
});
