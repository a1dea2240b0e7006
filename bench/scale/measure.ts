/**
 * What bench/scale.ts measures at each size of the store: request latencies as a client sees them, the
 * resident memory of the service and of Neo4j, and timed decay sweeps (through the bus, as the scheduler
 * sends them).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Driver } from 'neo4j-driver';
import { type LatencySummary, summarise } from '../lib.js';

/** `run` sequentially `samples` times after 20 warm-up calls; latencies in ms. */
export async function latency(samples: number, run: (i: number) => Promise<unknown>): Promise<LatencySummary> {
  for (let i = 0; i < 20; i++) await run(-1 - i);
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await run(i);
    ms.push(performance.now() - start);
  }
  return summarise(ms);
}

/** `run` at `perSecond`, started on a fixed schedule (a slow call delays the next), `samples` times. */
export async function paced(
  samples: number,
  perSecond: number,
  run: (i: number) => Promise<unknown>,
): Promise<LatencySummary> {
  const ms: number[] = [];
  const start = performance.now();
  for (let i = 0; i < samples; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t = performance.now();
    await run(i);
    ms.push(performance.now() - t);
  }
  return summarise(ms);
}

/** The idle Neo4j round trip right now (`RETURN 1`, 200 in a row after 20). */
export async function roundTrip(driver: Driver, database: string): Promise<LatencySummary> {
  return latency(200, () => driver.executeQuery('RETURN 1', {}, { database }));
}

/** A process's resident set in MiB (null when it is gone). */
export function residentOf(pid: number | string): number | null {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

/** Resident set sizes in MiB: the service's own process (bench/scale/service.ts) and Neo4j's. */
export function residentMiB(
  service: number | null,
  neo4jPidFile: string,
): { service: number | null; neo4j: number | null } {
  const neo4j = existsSync(neo4jPidFile) ? residentOf(readFileSync(neo4jPidFile, 'utf8').trim()) : null;
  return { service, neo4j };
}

export interface SweepReport {
  readonly scanned: number;
  readonly updated: number;
  readonly promoted: number;
  readonly demoted: number;
  readonly ms: number;
}

/** Sequential calls of `probe` until `until` settles: what a client sees while it runs. */
export async function during(until: Promise<unknown>, probe: (i: number) => Promise<unknown>) {
  let running = true;
  void until.finally(() => (running = false));
  const ms: number[] = [];
  for (let i = 0; running; i++) {
    const start = performance.now();
    await probe(i);
    ms.push(performance.now() - start);
  }
  return summarise(ms);
}

/** A process's CPU time so far in ms (user + system), from /proc; null when it is gone. */
function cpuMs(pid: string): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms (USER_HZ is 100 on Linux)
  } catch {
    return null;
  }
}

export interface Settled {
  /** Seconds waited for Neo4j to fall quiet. */
  readonly seconds: number;
  /** Neo4j's CPU use, in cores, over the last window waited. */
  readonly cores: number;
  /** Whether it fell below the threshold (false: gave up after maxSeconds). */
  readonly quiet: boolean;
}

/**
 * Waits until Neo4j's own CPU use over a 5-second window falls below `cores` (at most `maxSeconds`): after a
 * bulk load it goes on for a while with work of its own (index merges, a checkpoint), and latencies measured
 * beside it say more about that load than about the store's size.
 */
export async function settle(neo4jPidFile: string, cores = 0.15, maxSeconds = 180): Promise<Settled> {
  const pid = existsSync(neo4jPidFile) ? readFileSync(neo4jPidFile, 'utf8').trim() : null;
  const start = performance.now();
  const WINDOW_MS = 5000;
  for (;;) {
    const before = pid ? cpuMs(pid) : null;
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    const after = pid ? cpuMs(pid) : null;
    const seconds = Math.round((performance.now() - start) / 1000);
    // Neo4j's process not found: nothing can be said of its work.
    if (before === null || after === null) return { seconds, cores: Number.NaN, quiet: false };
    const used = (after - before) / WINDOW_MS;
    if (used < cores || seconds >= maxSeconds) return { seconds, cores: Number(used.toFixed(2)), quiet: used < cores };
  }
}
