/**
 * Mailbox keys that say what must run one at a time (src/domain/actor.ts):
 * messages with one key run in order, with different keys side by side.
 */

/** A message that may run beside any other: a key of its own, so it never waits in the mailbox. */
export const concurrent = (message: { readonly meta: { readonly messageId: string } }): string =>
  `concurrent:${message.meta.messageId}`;
