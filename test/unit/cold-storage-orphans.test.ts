/**
 * The names of temporary exports, read back for their writer's pid and start: only the exact name an export
 * gives its temporary file (a full export's or a delta's) counts, so that nothing else in a folder is ever removed.
 */
import { describe, expect, it } from 'vitest';
import { exportFileName } from '../../src/adapters/cold-storage/export.js';
import { temporaryExport } from '../../src/adapters/cold-storage/orphans.js';

describe('temporary export names', () => {
  it("give the writer's pid and the export's start, for a full export and a delta", () => {
    expect(temporaryExport('.total-recall-2026-12-05T15-26-23-149Z-10342.ndjson.tmp')).toEqual({
      pid: 10342,
      at: Date.parse('2026-12-05T15:26:23.149Z'),
    });
    expect(temporaryExport('.total-recall-2026-12-05T18-00-12-179Z-14506-delta.ndjson.tmp')).toEqual({
      pid: 14506,
      at: Date.parse('2026-12-05T18:00:12.179Z'),
    });
  });

  it('are the names an export gives its temporary file', () => {
    const now = new Date('2026-12-06T04:59:44.675Z');
    for (const kind of ['full', 'delta'] as const)
      expect(temporaryExport(`.${exportFileName(kind, now)}.tmp`)).toEqual({ pid: process.pid, at: now.getTime() });
  });

  it('are nothing else: a finished export, another dot file, a changed or padded name', () => {
    for (const name of [
      'total-recall-2026-12-05T21-58-37-334Z-7283.ndjson',
      'total-recall-2026-12-05T22-01-24-292Z-7283-delta.ndjson',
      '.total-recall-2026-12-05T21-58-37-334Z-7283.ndjson',
      'total-recall-2026-12-05T21-58-37-334Z-7283.ndjson.tmp',
      '.total-recall-2026-12-05T21-58-37-334Z-7283.ndjson.tmp.bak',
      '.total-recall-2026-12-05T21-58-37-334Z-7283.ndjson.tmp ',
      '.total-recall-2026-12-05T21-58-37-334Z-7283-full.ndjson.tmp',
      '.total-recall-2026-12-05T21-58-37-334Z-.ndjson.tmp',
      '.total-recall-2026-12-05T21-58-37-334Z-0.ndjson.tmp',
      '.total-recall-2026-12-05T21-58-37-334Z-07283.ndjson.tmp',
      '.total-recall-2026-12-05T21-58-37-334Z--7283.ndjson.tmp',
      '.total-recall-2026-12-05T21-58-37Z-7283.ndjson.tmp',
      '.total-recall-2026-13-05T21-58-37-334Z-7283.ndjson.tmp',
      '.total-recall-2026-12-05T21:58:37.334Z-7283.ndjson.tmp',
      '.other-2026-12-05T21-58-37-334Z-7283.ndjson.tmp',
      '.total-recall-head.json.tmp',
      '.ndjson.tmp',
      '',
    ])
      expect(temporaryExport(name), name).toBeNull();
  });
});
