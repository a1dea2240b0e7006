/**
 * Temporary exports a killed process left behind. An export writes `.<name>.tmp` and renames it when done
 * (export.ts); a process killed meanwhile (SIGKILL, OOM, power loss) runs no cleanup, and a file up to the size of
 * a full export stays. Before an export writes into a folder, the temporary exports there whose writer is gone are
 * removed: never one a running process may still be writing (another worker may export into the same folder), a
 * finished export, or any file not named as a temporary export. A writer in another container or on another host
 * shares the folder but not the pids, so a file must also have lain unwritten for an hour: a live export writes all
 * the time.
 */
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../domain/index.js';

/** exportFileName's name (its time with `:` and `.` made `-`, then the writer's pid) as a temporary file. */
const TEMPORARY = /^\.total-recall-(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z)-([1-9]\d*)(?:-delta)?\.ndjson\.tmp$/;

/** How long a temporary export must have lain unwritten to be an orphan, whatever its pid says. */
export const ORPHAN_IDLE_MS = 3_600_000;

export interface TemporaryExport {
  readonly pid: number;
  /** When its export started (epoch ms). */
  readonly at: number;
}

/** The writer's pid and start of a temporary export's file name; null for any other name. */
export function temporaryExport(name: string): TemporaryExport | null {
  const match = TEMPORARY.exec(name);
  if (!match) return null;
  const [, time = '', pid = ''] = match;
  const at = Date.parse(time.replace(/T(\d\d)-(\d\d)-(\d\d)-/, 'T$1:$2:$3.'));
  return Number.isNaN(at) || !Number.isSafeInteger(Number(pid)) ? null : { pid: Number(pid), at };
}

/** Whether the process named in a temporary export's name has gone (the idle hour guards other hosts' pids). */
function writerGone(file: TemporaryExport): boolean {
  // Our own pid: a restarted container gets the killed one's, and an export of ours writes all the time.
  if (file.pid === process.pid) return true;
  try {
    process.kill(file.pid, 0);
    return false;
  } catch (error) {
    // EPERM: a process of another user holds the pid, alive.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Removes the temporary exports in `dir` whose writer is gone; says what it removed and what it could not.
 * Never fails: the export that follows matters more than the space.
 */
export async function removeOrphans(dir: string, logger: Logger): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    logger.warn(`cold storage: could not look for orphaned temporary exports in ${dir}: ${(error as Error).message}`);
    return { files, bytes };
  }
  for (const name of names) {
    const file = temporaryExport(name);
    const path = join(dir, name);
    if (!file || !writerGone(file)) continue;
    try {
      const stat = await lstat(path);
      if (!stat.isFile() || Date.now() - stat.mtimeMs < ORPHAN_IDLE_MS) continue;
      await rm(path);
      files++;
      bytes += stat.size;
    } catch (error) {
      // Another process's export removed it first.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      logger.warn(`cold storage: could not remove the orphaned temporary export ${path}: ${(error as Error).message}`);
    }
  }
  if (files > 0)
    logger.info(`cold storage: removed ${files} temporary exports killed processes left in ${dir} (${bytes} bytes)`);
  return { files, bytes };
}
