/** The Subconscious's timer rules, clustering and job ids, without Redis or Neo4j. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  auditJobId,
  auditNotificationId,
  breakCheckApplies,
  breakDueAt,
  breakJobId,
  breakNotificationId,
  clusters,
  idleBefore,
  isQuiet,
  minutesInTask,
  nextBreakCheck,
} from '../../src/contexts/subconscious/testing.js';
import { CYPHER_ROOT } from '../../src/adapters/neo4j/testing.js';

const MIN = 60_000;
const check = { sessionId: 'ses_1', instanceId: 'i', modeSince: 1_000_000, n: 1 };

describe('break checks', () => {
  it('fall due one threshold after TASK mode began, then every threshold', () => {
    expect(breakDueAt(1_000_000, 1, 90 * MIN)).toBe(1_000_000 + 90 * MIN);
    expect(breakDueAt(1_000_000, 3, 90 * MIN)).toBe(1_000_000 + 270 * MIN);
    expect(minutesInTask({ ...check, n: 2 }, 90 * MIN)).toBe(180);
  });

  it('re-arm with the first check not yet due', () => {
    const at = (now: number) => nextBreakCheck({ sessionId: 's', instanceId: 'i', modeSince: 0 }, now, 10 * MIN).n;
    expect(at(0)).toBe(1);
    expect(at(10 * MIN - 1)).toBe(1);
    expect(at(10 * MIN)).toBe(2);
    expect(at(25 * MIN)).toBe(3);
  });

  it('notify only while the same stretch of TASK mode holds in an open session', () => {
    const open = { open: true, mode: 'TASK' as const, modeSince: check.modeSince };
    expect(breakCheckApplies(open, check)).toBe(true);
    expect(breakCheckApplies(null, check)).toBe(false);
    expect(breakCheckApplies({ ...open, open: false }, check)).toBe(false);
    expect(breakCheckApplies({ ...open, mode: 'CONVERSATION' }, check)).toBe(false);
    // A ModeChanged since (TASK → CONVERSATION → TASK) reset the clock.
    expect(breakCheckApplies({ ...open, modeSince: check.modeSince + 5 }, check)).toBe(false);
  });
});

describe('idle and quiet', () => {
  it('times out sessions whose last activity is older than the idle time', () => {
    expect(idleBefore(100 * MIN, 60 * MIN)).toBe(40 * MIN);
  });

  it('calls a store quiet after quietMs without recorded activity', () => {
    expect(isQuiet(null, 0, MIN)).toBe(true);
    expect(isQuiet(0, MIN - 1, MIN)).toBe(false);
    expect(isQuiet(0, MIN, MIN)).toBe(true);
  });
});

describe('consolidation clusters', () => {
  it('joins the strongest pairs first and caps a cluster’s size', () => {
    const pairs = [
      { a: 'a', b: 'b', strength: 0.99 },
      { a: 'b', b: 'c', strength: 0.95 },
      { a: 'c', b: 'd', strength: 0.9 },
      { a: 'x', b: 'y', strength: 0.86 },
    ];
    expect(clusters(pairs, 8)).toEqual([
      ['a', 'b', 'c', 'd'],
      ['x', 'y'],
    ]);
    expect(clusters(pairs, 3)).toEqual([
      ['a', 'b', 'c'],
      ['x', 'y'],
    ]);
    expect(clusters(pairs, 2)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['x', 'y'],
    ]);
    expect(clusters([], 8)).toEqual([]);
  });

  it('is deterministic whatever order the pairs come in', () => {
    const pairs = [
      { a: 'm1', b: 'm2', strength: 0.9 },
      { a: 'm3', b: 'm4', strength: 0.9 },
      { a: 'm2', b: 'm3', strength: 0.9 },
    ];
    expect(clusters([...pairs].reverse(), 3)).toEqual(clusters(pairs, 3));
  });
});

describe('job ids', () => {
  it('are deterministic, so a repeated add or a retried job does the work once', () => {
    expect(breakJobId(check)).toBe('break-ses_1-1000000-1');
    expect(breakJobId({ ...check, n: 2 })).not.toBe(breakJobId(check));
    expect(auditJobId('ses_1')).toBe('audit-ses_1');
    expect(breakNotificationId(check)).toBe('ntf-break-ses_1-1000000-1');
    expect(auditNotificationId('ses_1')).toBe('ntf-audit-ses_1');
  });

  it('never carry characters BullMQ or Redis keys would choke on', () => {
    const id = auditJobId('weird:id with spaces');
    expect(id).toMatch(/^audit-[0-9a-f]{32}$/);
    expect(id).toBe(auditJobId('weird:id with spaces'));
  });
});

describe('ownership (invariant 1)', () => {
  const bodies = (context: string) =>
    readdirSync(join(CYPHER_ROOT, context))
      .filter((f) => f.endsWith('.cypher'))
      .map(
        (f) =>
          [
            f,
            readFileSync(join(CYPHER_ROOT, context, f), 'utf8')
              .split('\n')
              .filter((l) => !l.trimStart().startsWith('//'))
              .join('\n'),
          ] as const,
      );

  it('keeps the Subconscious read-only: it decides, the owners write', () => {
    const statements = bodies('subconscious');
    expect(statements.length).toBeGreaterThan(4);
    for (const [file, body] of statements)
      expect(body, file).not.toMatch(/\b(CREATE|MERGE|SET|DELETE|REMOVE|FOREACH)\b/);
  });

  it('never lets Cortex write a Memory node', () => {
    for (const [file, body] of bodies('cortex')) {
      expect(body, file).not.toMatch(/(MERGE|CREATE)\s*\(\w*:Memory/);
      for (const v of [...body.matchAll(/\((\w+):Memory\b/g)].map((m) => m[1]))
        expect(body, file).not.toMatch(new RegExp(`SET[^\\n]*\\b${v}\\.`));
    }
  });
});
