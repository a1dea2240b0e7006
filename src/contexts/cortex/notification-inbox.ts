/**
 * The Notification Port's keeping side: what the Subconscious sends to a mind
 * (BreakNotification, SessionAuditPrompt) is recorded as a Notification node
 * first, so a mind that was away misses nothing (`notifications(instanceId,
 * after)`), then published on the bus and fanned out live to every process
 * (the `notifications` subscription) through a LiveChannel.
 */
import {
  assertNever,
  sortableId,
  type Bus,
  type NotificationKind,
  type Notification,
  type GraphPort,
} from '../../domain/index.js';
import { Q } from './cypher.js';
import { AsyncFeed } from './async-feed.js';
import { toNotificationRecord, type NotificationRecord } from './session-records.js';

/** Carries delivered notifications to every process that serves subscriptions. */
export interface LiveChannel {
  publish(record: NotificationRecord): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(listener: (record: NotificationRecord) => void): Promise<() => void>;
}

export interface NotificationInboxDeps {
  readonly graph: GraphPort;
  readonly bus: Bus;
  readonly live: LiveChannel;
  readonly clock?: () => number;
}

export const MAX_NOTIFICATIONS_PAGE = 500;

function describe(notification: Notification): {
  kind: NotificationKind;
  message: string;
  payload: Record<string, unknown>;
} {
  switch (notification.type) {
    case 'BreakNotification':
      return {
        kind: 'BREAK',
        message: notification.data.message,
        payload: { minutesInTask: notification.data.minutesInTask },
      };
    case 'SessionAuditPrompt':
      return {
        kind: 'SESSION_AUDIT',
        message: notification.data.prompt,
        payload: { unclaimedIds: notification.data.unclaimedIds },
      };
    default:
      return assertNever(notification);
  }
}

export class NotificationInbox {
  private readonly feeds = new Set<AsyncFeed<NotificationRecord>>();

  constructor(private readonly deps: NotificationInboxDeps) {}

  /**
   * Records the notification under its id (the message id, deterministic for a
   * job, so a retried job records it once), then publishes it on the bus and
   * live. Throws if it could not be recorded: the job retries.
   */
  async deliver(notification: Notification, store: string | null): Promise<NotificationRecord> {
    const now = (this.deps.clock ?? Date.now)();
    const { kind, message, payload } = describe(notification);
    const rows = await this.deps.graph.write<{ notification: Record<string, unknown>; created: boolean }>(
      Q.recordNotification,
      {
        notification: {
          id: notification.meta.messageId,
          kind,
          store,
          instanceId: notification.data.instanceId,
          sessionId: notification.data.sessionId,
          message,
          payload: JSON.stringify(payload),
        },
        cursor: sortableId('ntf', now),
        now,
      },
    );
    const row = rows[0] as { notification: Record<string, unknown>; created: boolean };
    const record = toNotificationRecord(row.notification);
    if (row.created) this.deps.bus.publish(notification);
    // Published again on a retry: a listener sees each id once.
    await this.deps.live.publish(record);
    return record;
  }

  async list(instanceId: string, after: string | null, limit = MAX_NOTIFICATIONS_PAGE): Promise<NotificationRecord[]> {
    const rows = await this.deps.graph.read<{ notification: Record<string, unknown> }>(Q.listNotifications, {
      instanceId,
      after: after ?? '',
      limit,
    });
    return rows.map((r) => toNotificationRecord(r.notification));
  }

  /**
   * A live feed of an instance's notifications. With `after`, those recorded
   * after that one come first, so a client that reconnects misses nothing.
   */
  async listen(instanceId: string, after: string | null): Promise<AsyncIterableIterator<NotificationRecord>> {
    let replaying = after !== null;
    const held: NotificationRecord[] = [];
    let unsubscribe: () => void = () => undefined;
    const feed = new AsyncFeed<NotificationRecord>(() => {
      unsubscribe();
      this.feeds.delete(feed);
    });
    this.feeds.add(feed);
    unsubscribe = await this.deps.live.subscribe((record) => {
      if (record.instanceId !== instanceId) return;
      if (replaying) held.push(record);
      else feed.push(record);
    });
    if (after !== null) {
      try {
        for (const record of await this.list(instanceId, after)) feed.push(record);
      } finally {
        replaying = false;
        for (const record of held.splice(0)) feed.push(record);
      }
    }
    return feed;
  }

  /** Ends every live feed (shutdown): subscribers see their subscription complete. */
  close(): void {
    for (const feed of [...this.feeds]) feed.end();
  }
}
