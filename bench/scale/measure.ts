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
