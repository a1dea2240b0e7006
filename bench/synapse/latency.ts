// Store latency with mechanical linking on and off, back to back, paced and until the links exist; CPU per store.
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { App } from '../../src/app.js';
import { summarise, timed } from '../lib.js';
import type { Timeline } from './timeline.js';

// The two apps (linking on, off) take turns on the same store, in blocks of
// BLOCK stores, three ways:
//   back to back: the next store as soon as the last returned (closed loop: the
//     client saturates the machine, and linking's work competes with the next
//     store for the two cores);
//   paced: at each rate of RATES, a store every 1000/rate ms whatever the last
//     took (open loop: below what the machine takes back to back, so the
//     stores leave linking idle CPU to use; the rates show up to which load
//     linking stays out of the stores' way);
//   store then wait until the bus is idle, i.e. until its links exist.
// After each block the app's bus goes idle (its links written) before the
// other's block starts, so linking of one block never spills into the other's.
// Process CPU per store (Neo4j's from /proc, this process's from cpuUsage) is
// summed over the back-to-back blocks, idle wait included.
const BLOCK = 50;
const RATES = (process.env.BENCH_RATES ?? '20,30,40,50')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
export type Mode = 'on' | 'off';

export type StoreLatency = Awaited<ReturnType<typeof measureStoreLatency>>;

export async function measureStoreLatency(
  modes: [Mode, App][],
  timeline: Timeline,
  caller: { instanceId: string; sessionId: null },
  storeSamples: number,
) {
  const calls: Record<Mode, number[]> = { on: [], off: [] };
  const paced = new Map<number, Record<Mode, number[]>>(RATES.map((rate) => [rate, { on: [], off: [] }]));
  const linked: Record<Mode, number[]> = { on: [], off: [] };
  const cpu: Record<Mode, { neo4j: number; node: number }> = { on: { neo4j: 0, node: 0 }, off: { neo4j: 0, node: 0 } };
  const neo4jPid = (() => {
    const file = join(process.env.TOTAL_RECALL_DATA || '.data', 'neo4j', 'run', 'neo4j.pid');
    return process.env.NEO4J_URI || !existsSync(file) ? null : readFileSync(file, 'utf8').trim();
  })();
  /** Neo4j's user + system CPU so far (ms), when this machine runs it. */
  function neo4jCpuMs(): number {
    if (!neo4jPid) return 0;
    const fields = (readFileSync(`/proc/${neo4jPid}/stat`, 'utf8').split(') ')[1] as string).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 1/100 s
  }
  const nodeCpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const loadBefore = loadavg()[0] as number;
  for (let done = 0; done < storeSamples; done += BLOCK) {
    for (const [mode, app] of modes) {
      const [neo4j0, node0] = [neo4jCpuMs(), nodeCpuMs()];
      for (const memory of timeline.next(BLOCK)) {
        const [, ms] = await timed(() => app.ports.memory.store([memory], caller));
        calls[mode].push(ms);
      }
      await app.bus.idle();
      cpu[mode].neo4j += neo4jCpuMs() - neo4j0;
      cpu[mode].node += nodeCpuMs() - node0;
    }
    for (const rate of RATES) {
      for (const [mode, app] of modes) {
        const samples = paced.get(rate)![mode];
        let due = performance.now();
        const pending: Promise<unknown>[] = [];
        for (const memory of timeline.next(BLOCK)) {
          due += 1000 / rate;
          await sleep(Math.max(0, due - performance.now()));
          pending.push(timed(() => app.ports.memory.store([memory], caller)).then(([, ms]) => samples.push(ms)));
        }
        await Promise.all(pending);
        await app.bus.idle();
      }
    }
    // Store then wait: the modes alternate sample by sample, so both see the same load.
    for (let i = 0; i < BLOCK / 5; i++) {
      for (const [mode, app] of modes) {
        const [memory] = timeline.next(1);
        const start = performance.now();
        await app.ports.memory.store([memory!], caller);
        await app.bus.idle();
        linked[mode].push(performance.now() - start);
      }
    }
  }
  const store95 = {
    on: summarise(calls.on),
    off: summarise(calls.off),
    onLinked: summarise(linked.on),
    offLinked: summarise(linked.off),
  };
  const cpuPerStore = Object.fromEntries(
    modes.map(([mode]) => [
      mode,
      {
        neo4jMs: Math.round((cpu[mode].neo4j / calls[mode].length) * 100) / 100,
        nodeMs: Math.round((cpu[mode].node / calls[mode].length) * 100) / 100,
      },
    ]),
  ) as Record<Mode, { neo4jMs: number; nodeMs: number }>;
  const pacedStores = RATES.map((rate) => {
    const samples = paced.get(rate)!;
    return { rate, on: summarise(samples.on), off: summarise(samples.off) };
  });
  console.log(
    'store',
    JSON.stringify(store95),
    'paced',
    JSON.stringify(pacedStores),
    'cpu per store',
    JSON.stringify(cpuPerStore),
  );
  return { store95, cpuPerStore, pacedStores, neo4jPid, loadBefore };
}
