/** Notifications: what the Subconscious tells a mind, relayed to clients by Cortex's notification inbox. */
import type { Message } from './envelope.js';

export type BreakNotification = Message<
  'BreakNotification',
  { readonly instanceId: string; readonly sessionId: string; readonly minutesInTask: number; readonly message: string }
>;
export type SessionAuditPrompt = Message<
  'SessionAuditPrompt',
  {
    readonly instanceId: string;
    readonly sessionId: string;
    readonly prompt: string;
    readonly unclaimedIds: readonly string[];
  }
>;
export type Notification = BreakNotification | SessionAuditPrompt;
