/**
 * The message catalog: every command, query, event and notification that the six contexts exchange, as readonly
 * `{type, data, meta}` data; what each command and query answers (replies.ts); and who sends and consumes each
 * (catalog.ts).
 */
import type { Command, TierChange } from './commands.js';
import { type ContextName, type MetaInit, newMeta } from './envelope.js';
import type { Event } from './events.js';
import type { Notification } from './notifications.js';
import type { Query } from './queries.js';

export * from './commands.js';
export * from './queries.js';
export * from './events.js';
export * from './notifications.js';
export * from './envelope.js';
export * from './replies.js';
export * from './catalog.js';

/** Every message: what is asked, what is published, and the tier changes a TierChangeBatch carries. */
export type AnyMessage = Command | Query | Event | Notification | TierChange;
export type MessageType = AnyMessage['type'];
export type MessageOf<T extends MessageType> = Extract<AnyMessage, { type: T }>;

/**
 * Builds a message of a catalog type. Inside the app, contexts build through `bus.message`, which stamps the
 * app's clock; this one (tests, scripts) takes `init.timestamp` or the system clock.
 */
export function message<T extends MessageType>(
  type: T,
  data: MessageOf<T>['data'],
  sourceContext: ContextName,
  init: MetaInit = {},
): MessageOf<T> {
  return { type, data, meta: newMeta(sourceContext, init) } as MessageOf<T>;
}
