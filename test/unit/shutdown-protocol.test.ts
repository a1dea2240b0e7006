/** The shutdown protocol's order, its once-only report, and a failed step, with in-memory ports. */
import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/domain/index.js';
import { ShutdownProtocol, type ColdStoragePort, type JobPort } from '../../src/contexts/subconscious/index.js';

function setup(verified = true) {
  const calls: string[] = [];
  const bus = new Bus();
  bus.handle('hippocampus', 'ShutdownCommand', async (m) => {
    calls.push(`flush ${m.data.coldStorageDir}`);
    return { inFlight: 2, memories: 7 };
  });
  const jobs = {
    drain: async (timeoutMs: number) => {
      calls.push(`drain ${timeoutMs}`);
      return { worked: true, ran: 3, left: 0, delayed: 4, timedOut: false };
    },
  } as unknown as JobPort;
  const cold: ColdStoragePort = {
    write: async (dir) => {
      calls.push(`write ${dir}`);
      return { path: `${dir}/x.ndjson`, kind: 'full', bytes: 10, nodes: 9, relationships: 8, deleted: 0, memories: 7 };
    },
    verify: async (path) => {
      calls.push(`verify ${path}`);
      return verified
        ? { verified: true, problems: [] }
        : { verified: false, problems: ['Neo4j: nodes Memory: expected 7, found 8'] };
    },
  };
  const protocol = new ShutdownProtocol({
    bus,
    jobs,
    coldStorage: cold,
    stopAccepting: () => calls.push('stop accepting'),
    defaultDir: '/cold',
    drainTimeoutMs: 500,
    drains: [{ name: 'embeddings worker', run: async () => void calls.push('stop embeddings') }],
    flushes: [{ name: 'Recall', run: async () => void calls.push('flush recall') }],
  });
  return { protocol, calls };
}

describe('the shutdown protocol', () => {
  it('runs the seeds’ steps in order and reports each', async () => {
    const { protocol, calls } = setup();
    const report = await protocol.run(null);
    expect(calls).toEqual([
      'stop accepting',
      'drain 500',
      'stop embeddings',
      'flush recall',
      'flush /cold',
      'write /cold',
      'verify /cold/x.ndjson',
    ]);
    expect(report).toMatchObject({ ready: true, verified: true, memories: 7, coldStoragePath: '/cold/x.ndjson' });
    expect(report.steps.map((s) => s.replace(/:.*/, ''))).toEqual([
      '1. stop accepting',
      '2. drain queues and workers',
      '3. flush',
      '4. write cold storage',
      '5. verify against Neo4j',
      '6. ready',
    ]);
    expect(report.steps[1]).toMatch(
      /3 due jobs ran, workers stopped, embeddings worker stopped, 4 timers stay scheduled/,
    );
  });

  it('runs once: a second request gets the same report', async () => {
    const { protocol, calls } = setup();
    const [a, b] = await Promise.all([protocol.run('/x'), protocol.run('/y')]);
    expect(b).toBe(a);
    expect(calls.filter((c) => c.startsWith('write'))).toEqual(['write /x']);
  });

  it('is not ready when verification fails, and says why', async () => {
    const { protocol } = setup(false);
    const report = await protocol.run(null);
    expect(report).toMatchObject({ ready: false, verified: false, coldStoragePath: '/cold/x.ndjson' });
    expect(report.steps).toHaveLength(5);
    expect(report.steps.at(-1)).toMatch(
      /^5\. verify against Neo4j: FAILED: verification failed: Neo4j: nodes Memory: expected 7, found 8/,
    );
  });
});
