/**
 * Admission control for one process: at most `maxConcurrent` operations run at
 * once, at most `maxQueued` wait for a slot, and none waits longer than
 * `maxWaitMs`. Work beyond that is refused at once with a typed BUSY and a
 * retry-after hint, so the latency of the work that is admitted stays bounded
 * instead of every caller slowing down together. One caller (one token) holds
 * at most `maxPerCaller` slots and half the queue, and a freed slot goes to the
 * first waiter whose caller is under its share: a client hammering the service
 * waits behind itself, not in front of everyone else.
 *
 * A share alone still lets a hammering caller's running requests interleave
 * with everyone else's on the one event loop, slowing each of theirs by as
 * much again. So while another caller has had a request here within the last
 * second, a caller holds one slot at most, not its whole share; and a caller
 * that asks for more than another (more requests here,
 * running or waiting) starts nothing new while that lighter caller has a
 * request running, or had one answered within the last 3 ms (a client sending
 * one request after another is idle only between an answer and its next
 * request): the light request runs next to at most what had already
 * started. A caller held back this way longer than a quarter of `maxWaitMs`
 * goes ahead at the next release, so a stream of light requests cannot starve
 * it. Health, introspection and shutdown are never queued: an operator must
 * see an overloaded service.
 */
import { GraphQLError, Kind, type OperationDefinitionNode } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLContext } from './context.js';
import { BusyError } from '../../domain/index.js';
import { retryAfterMsOf } from './errors.js';

export interface AdmissionSettings {
  /** Operations running at once in this process. */
  readonly maxConcurrent: number;
  /** Operations waiting for a slot; one more is refused with BUSY. */
  readonly maxQueued: number;
  /** Longest wait for a slot before BUSY. */
  readonly maxWaitMs: number;
  /** Slots one caller may hold at once (absent: maxConcurrent, no share). */
  readonly maxPerCaller?: number;
}

/** How much each caller asks of the process: what the yield rule compares. */
export interface CallerLoad {
  /** Requests of `caller` here, running or waiting. */
  demand(caller: string): number;
  /** Another caller asking for fewer than `demand` has a request running. */
  lighterRunning(caller: string, demand: number): boolean;
  /** Another caller has had a request here within the last CONTENDED_MS. */
  othersActive(caller: string, now: number): boolean;
  /** Calls `listener` after each release, when what the rule compares has changed. */
  onRelease(listener: () => void): void;
}

/** How long after another caller's last request a caller's share stays at one slot. */
const CONTENDED_MS = 1000;
/**
 * How long a caller that has just been answered still counts as running: a
 * client sending one request after another is idle only for the moment
 * between an answer and its next request, and a heavy caller started in that
 * moment would run beside that next request (anticipatory scheduling).
 */
const ANTICIPATE_MS = 3;

interface Waiter {
  readonly caller: string | null;
  readonly since: number;
  readonly admit: () => void;
  readonly timer: NodeJS.Timeout;
}

/** Fields an operator needs while the service is overloaded. */
const NEVER_QUEUED = new Set(['health', 'shutdown', '__schema', '__type', '__typename']);
/** Bounds of the retry-after hint (ms). */
const MIN_HINT_MS = 100;
const MAX_HINT_MS = 10_000;

export class Admission implements CallerLoad {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  /** Slots held and places queued, per caller (only callers with any). */
  private readonly held = new Map<string, number>();
  private readonly queued = new Map<string, number>();
  /** When each caller last started or finished a request (callers seen within CONTENDED_MS). */
  private readonly lastActive = new Map<string, number>();
  /** Admissions whose waiters read this one's counts (a slot admission behind this entry). */
  private readonly releaseListeners: (() => void)[] = [];
  /** Recent time an admitted operation held its slot (ms, smoothed). */
  private serviceMs = 50;
  private refused = 0;

  /**
   * `load`: whose counts the yield rule reads (default this one's). A slot
   * admission behind an entry admission reads the entry's: a caller's whole
   * flood in the process, and a light caller counted as running from its
   * entry on, so a heavy request parsed while a light one runs waits for its
   * slot until that one is done.
   */
  private readonly load: CallerLoad | null;
  private readonly clock: () => number;

  constructor(
    readonly settings: AdmissionSettings,
    options: { readonly load?: CallerLoad | null; readonly clock?: () => number } = {},
  ) {
    this.load = options.load ?? null;
    this.clock = options.clock ?? Date.now;
    // A light caller's entry closes after its slot was given back: its waiters look again then.
    this.load?.onRelease(() => this.admitNext());
  }

  onRelease(listener: () => void): void {
    this.releaseListeners.push(listener);
  }

  /**
   * Resolves with the release of a slot, or rejects with BUSY (nothing was
   * done). `caller` names whose share the slot counts against (a token id);
   * null: no share, only the process-wide limits.
   */
  enter(caller: string | null = null): Promise<() => void> {
    // While a slot is free, every waiter is held by its own caller's share or by a lighter caller's running request
    // (a release admits the rest at once).
    if (this.canRun(caller, this.demandOf(caller, 1), 0)) return Promise.resolve(this.take(caller));
    if (this.waiting.length >= this.settings.maxQueued) return Promise.reject(this.busy('queue full'));
    if (caller !== null && (this.queued.get(caller) ?? 0) >= Math.max(1, Math.floor(this.settings.maxQueued / 2))) {
      return Promise.reject(this.busy('this caller already fills its share of the queue'));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        caller,
        since: this.clock(),
        admit: () => {
          clearTimeout(waiter.timer);
          resolve(this.take(caller));
        },
        timer: setTimeout(() => {
          const at = this.waiting.indexOf(waiter);
          if (at >= 0) this.unqueue(at);
          reject(this.busy('waited too long'));
        }, this.settings.maxWaitMs),
      };
      this.waiting.push(waiter);
      if (caller !== null) bump(this.queued, caller, 1);
    });
  }

  /** What health shows: operations running, waiting, and refused since start. */
  stats(): { running: number; waiting: number; refused: number } {
    return { running: this.running, waiting: this.waiting.length, refused: this.refused };
  }

  /** How long a refused caller should wait: the queue ahead of it, at the recent pace. */
  retryAfterMs(): number {
    const ahead = this.waiting.length + this.running;
    const hint = (this.serviceMs * (ahead + 1)) / this.settings.maxConcurrent;
    return Math.round(Math.min(MAX_HINT_MS, Math.max(MIN_HINT_MS, hint)));
  }

  /**
   * A slot is free, the caller is under its share, and no lighter caller (one
   * asking for fewer than `demand`) has a request running, unless this one has
   * waited past the starvation bound.
   */
  private canRun(caller: string | null, demand: number, waitedMs: number): boolean {
    if (this.running >= this.settings.maxConcurrent) return false;
    const share = this.settings.maxPerCaller;
    if (caller === null || share === undefined) return true;
    const now = this.clock();
    const contended = this.othersActive(caller, now) || (this.load?.othersActive(caller, now) ?? false);
    if ((this.held.get(caller) ?? 0) >= (contended ? 1 : share)) return false;
    if (waitedMs >= this.settings.maxWaitMs / 4) return true;
    return !this.lighterRunning(caller, demand) && !(this.load?.lighterRunning(caller, demand) ?? false);
  }

  /**
   * What `caller` asks for, as the yield rule compares it: its requests here
   * plus `arriving` (a new one not yet counted), or its requests in the whole
   * process as the entry's load counts them, whichever is more (calls that
   * pass no entry, such as MCP's, are counted here only).
   */
  private demandOf(caller: string | null, arriving: number): number {
    if (caller === null) return 0;
    const here = (this.held.get(caller) ?? 0) + (this.queued.get(caller) ?? 0) + arriving;
    return Math.max(here, this.load?.demand(caller) ?? 0);
  }

  demand(caller: string): number {
    return this.demandOf(caller, 0);
  }

  othersActive(caller: string, now: number): boolean {
    let found = false;
    for (const [other, at] of this.lastActive) {
      if (now - at > CONTENDED_MS && !this.held.has(other)) this.lastActive.delete(other);
      else if (other !== caller) found = true;
    }
    return found;
  }

  lighterRunning(caller: string, demand: number): boolean {
    for (const other of this.held.keys()) {
      if (other !== caller && this.demandOf(other, 0) < demand) return true;
    }
    // One just answered is likely sending its next request: it counts as asking for one.
    if (demand <= 1) return false;
    const now = this.clock();
    for (const [other, at] of this.lastActive) {
      if (other !== caller && !this.held.has(other) && now - at < ANTICIPATE_MS) return true;
    }
    return false;
  }

  private take(caller: string | null): () => void {
    this.running++;
    if (caller !== null) {
      bump(this.held, caller, 1);
      this.lastActive.set(caller, this.clock());
    }
    const started = this.clock();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      if (caller !== null) {
        bump(this.held, caller, -1);
        this.lastActive.set(caller, this.clock());
      }
      this.serviceMs = 0.9 * this.serviceMs + 0.1 * (this.clock() - started);
      this.released();
      // Whoever waited on this caller's next request looks again once that moment is over.
      if (caller !== null) setTimeout(() => this.released(), ANTICIPATE_MS + 1).unref();
    };
  }

  /** Slots may be free and counts have changed: waiters here and behind this one look again. */
  private released(): void {
    this.admitNext();
    for (const listener of this.releaseListeners) listener();
  }

  /** Gives free slots to the first waiters whose callers may run (under their share, not yielding). */
  private admitNext(): void {
    const now = this.clock();
    for (let at = 0; at < this.waiting.length && this.running < this.settings.maxConcurrent; ) {
      const waiter = this.waiting[at] as Waiter;
      if (!this.canRun(waiter.caller, this.demandOf(waiter.caller, 0), now - waiter.since)) {
        at++;
        continue;
      }
      this.unqueue(at);
      waiter.admit();
    }
  }

  private unqueue(at: number): void {
    const [waiter] = this.waiting.splice(at, 1);
    if (waiter?.caller != null) bump(this.queued, waiter.caller, -1);
  }

  private busy(why: string): BusyError {
    this.refused++;
    const s = this.settings;
    return new BusyError(this.retryAfterMs(), { reason: why, maxConcurrent: s.maxConcurrent, maxQueued: s.maxQueued });
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

/** Whether an operation only asks what an operator needs (never queued). */
export function neverQueued(operation: OperationDefinitionNode | null | undefined): boolean {
  if (!operation) return false;
  return operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && NEVER_QUEUED.has(s.name.value));
}

/**
 * The Apollo plugin: an operation takes a slot once it is parsed and
 * validated and gives it back when its response is sent (without an
 * Admission, every operation runs at once). A refusal is HTTP 503; any
 * retryable error (BUSY, UNAVAILABLE) sets Retry-After in seconds.
 */
export function admissionPlugin(admission: Admission | null): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      let release: (() => void) | null = null;
      return {
        async didResolveOperation({ operation, contextValue }) {
          if (!admission || neverQueued(operation)) return;
          try {
            // Anonymous callers (tokens off) share only the process-wide limits.
            release = await admission.enter(contextValue.caller.access?.tokenId ?? null);
          } catch (error) {
            const busy = error as BusyError;
            throw new GraphQLError(busy.message, {
              originalError: busy,
              extensions: {
                code: busy.code,
                retryAfterMs: busy.retryAfterMs,
                details: busy.details,
                http: { status: 503 },
              },
            });
          }
        },
        async willSendResponse({ response }) {
          release?.();
          release = null;
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
          const retryAfterMs = retryAfterMsOf(errors);
          if (retryAfterMs !== null)
            response.http.headers.set('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
        },
      };
    },
  };
}
