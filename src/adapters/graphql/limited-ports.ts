/**
 * One request's view of the ports: its calls run at most `concurrency` at a
 * time, so aliases and nesting cannot take more than that share of the Neo4j
 * pool from other callers. Calls inside a port are not limited again.
 */
import pLimit from 'p-limit';
import { failingFast } from '../../domain/index.js';
import type { Ports } from './context.js';

/** Plain reads of a value already loaded: not worth a slot. */
const UNLIMITED = new Set<keyof Ports>(['salienceOf']);

function limitedObject<T extends object>(target: T, run: <R>(work: () => R | Promise<R>) => Promise<R>): T {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      return typeof value === 'function'
        ? (...args: unknown[]) => run(() => (value as (...a: unknown[]) => unknown).apply(obj, args))
        : value;
    },
  });
}

/**
 * `admit`, when given, runs before each limited call with the port's name (the
 * MCP endpoint's rate limit and admission slot, taken on a request's first
 * call); what it throws is that call's error.
 */
export function limitedPorts(ports: Ports, concurrency: number, admit?: (port: keyof Ports) => Promise<void>): Ports {
  const limit = pLimit(concurrency);
  // Inside a request a full pool is answered at once (UNAVAILABLE), not waited out.
  const runAs =
    (port: keyof Ports) =>
    <R>(work: () => R | Promise<R>): Promise<R> =>
      limit(async () => {
        await admit?.(port);
        return failingFast(work);
      });
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(ports) as [keyof Ports, unknown][]) {
    const run = runAs(key);
    if (UNLIMITED.has(key)) out[key] = value;
    else if (typeof value === 'function')
      out[key] = (...args: unknown[]) => run(() => (value as (...a: unknown[]) => unknown)(...args));
    else out[key] = limitedObject(value as object, run);
  }
  return out as unknown as Ports;
}
