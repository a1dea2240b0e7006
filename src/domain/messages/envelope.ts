/** The envelope every message travels in: `{type, data, meta}`, readonly data. */
import { newMessageId } from '../ids.js';

export const CONTEXTS = ['hippocampus', 'synapse', 'salience', 'recall', 'cortex', 'subconscious'] as const;
export type ContextName = (typeof CONTEXTS)[number];

export interface Meta {
  readonly messageId: string;
  /** The message that caused this one (null for a request from outside). */
  readonly causationId: string | null;
  /** Shared by every message that follows from one outside request. */
  readonly correlationId: string;
  readonly timestamp: number;
  readonly instanceId: string | null;
  readonly sessionId: string | null;
  readonly sourceContext: ContextName;
}

export interface Message<T extends string, D> {
  readonly type: T;
  readonly data: D;
  readonly meta: Meta;
}

export type MetaInit = Partial<Omit<Meta, 'messageId' | 'timestamp' | 'sourceContext'>> & {
  readonly timestamp?: number;
  /** The message that caused this one: supplies causation and correlation. */
  readonly cause?: Meta;
  /**
   * The id of the audit event the message was stored as (a retried write then publishes under the same id);
   * a fresh id when absent.
   */
  readonly messageId?: string;
};

/** A fresh envelope stamped at `init.timestamp` (the bus passes its clock's time; Date.now without one). */
export function newMeta(sourceContext: ContextName, init: MetaInit = {}): Meta {
  const messageId = init.messageId ?? newMessageId();
  const cause = init.cause;
  return {
    messageId,
    causationId: cause?.messageId ?? init.causationId ?? null,
    correlationId: cause?.correlationId ?? init.correlationId ?? messageId,
    timestamp: init.timestamp ?? Date.now(),
    instanceId: init.instanceId ?? cause?.instanceId ?? null,
    sessionId: init.sessionId ?? cause?.sessionId ?? null,
    sourceContext,
  };
}
