/**
 * Admission control for one process: at most `maxConcurrent` operations run at
 * once, at most `maxQueued` wait for a slot, and none waits longer than
 * `maxWaitMs`. Work beyond that is refused at once with a typed BUSY and a
 * retry-after hint, so the latency of the work that is admitted stays bounded
 * instead of every caller slowing down together. Health, introspection and
 * shutdown are never queued: an operator must see an overloaded service.
 */
import { GraphQLError, Kind, type OperationDefinitionNode } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { BusyError } from '../../domain/index.js';
import { retryAfterMsOf } from './errors.js';

export interface AdmissionSettings {
  /** Operations running at once in this process. */
  readonly maxConcurrent: number;
  /** Operations waiting for a slot; one more is refused with BUSY. */
  readonly maxQueued: number;
  /** Longest wait for a slot before BUSY. */
  readonly maxWaitMs: number;
}

interface Waiter {
  readonly admit: () => void;
  readonly timer: NodeJS.Timeout;
}

/** Fields an operator needs while the service is overloaded. */
const NEVER_QUEUED = new Set(['health', 'shutdown', '__schema', '__type', '__typename']);
/** Bounds of the retry-after hint (ms). */
const MIN_HINT_MS = 100;
const MAX_HINT_MS = 10_000;

export class Admission {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  /** Recent time an admitted operation held its slot (ms, smoothed). */
  private serviceMs = 50;
  private refused = 0;

  constructor(readonly settings: AdmissionSettings) {}

  /** Resolves with the release of a slot, or rejects with BUSY (nothing was done). */
  enter(): Promise<() => void> {
    if (this.running < this.settings.maxConcurrent && this.waiting.length === 0) return Promise.resolve(this.take());
    if (this.waiting.length >= this.settings.maxQueued) return Promise.reject(this.busy('queue full'));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(waiter.timer);
          resolve(this.take());
        },
        timer: setTimeout(() => {
          const at = this.waiting.indexOf(waiter);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(this.busy('waited too long'));
        }, this.settings.maxWaitMs),
      };
      this.waiting.push(waiter);
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

  private take(): () => void {
    this.running++;
    const started = Date.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      this.serviceMs = 0.9 * this.serviceMs + 0.1 * (Date.now() - started);
      this.waiting.shift()?.admit();
    };
  }

  private busy(why: string): BusyError {
    this.refused++;
    const s = this.settings;
    return new BusyError(this.retryAfterMs(), { reason: why, maxConcurrent: s.maxConcurrent, maxQueued: s.maxQueued });
  }
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
export function admissionPlugin(admission: Admission | null): ApolloServerPlugin {
  return {
    async requestDidStart() {
      let release: (() => void) | null = null;
      return {
        async didResolveOperation({ operation }) {
          if (!admission || neverQueued(operation)) return;
          try {
            release = await admission.enter();
          } catch (error) {
            const busy = error as BusyError;
            throw new GraphQLError(busy.message, {
              originalError: busy,
              extensions: { code: busy.code, retryAfterMs: busy.retryAfterMs, details: busy.details, http: { status: 503 } },
            });
          }
        },
        async willSendResponse({ response }) {
          release?.();
          release = null;
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
          const retryAfterMs = retryAfterMsOf(errors);
          if (retryAfterMs !== null) response.http.headers.set('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
        },
      };
    },
  };
}
