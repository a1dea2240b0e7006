/**
 * The live side of the Notification Port across processes: a notification a
 * worker delivers is published on a Redis channel, and every API process
 * passes it to the subscriptions it serves. (Redis pub/sub is fire-and-forget;
 * the graph keeps every notification, so a client that was away polls.)
 */
import type { Redis } from 'ioredis';
import type { LiveChannel, NotificationRecord } from '../contexts/cortex/index.js';
import { redisConnection } from './redis.js';
import { UnavailableError } from '../domain/index.js';
import { OUTAGE_RETRY_AFTER_MS } from './outage.js';

/** How long a new subscription waits for Redis before it fails as UNAVAILABLE. */
const SUBSCRIBE_MS = 1000;

export class RedisLiveChannel implements LiveChannel {
  private publisher: Redis | null = null;
  private subscriber: Redis | null = null;
  private subscribed: Promise<void> | null = null;
  private readonly listeners = new Set<(record: NotificationRecord) => void>();
  private closed = false;

  constructor(
    private readonly redisUrl: string,
    private readonly channel: string,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  async publish(record: NotificationRecord): Promise<void> {
    if (this.closed) throw new Error('the live channel is closed');
    if (!this.publisher) {
      this.publisher = redisConnection(this.redisUrl);
      this.publisher.on('error', (error) => this.log(`[live] redis: ${error.message}`));
    }
    await this.publisher.publish(this.channel, JSON.stringify(record));
  }

  async subscribe(listener: (record: NotificationRecord) => void): Promise<() => void> {
    if (this.closed) throw new Error('the live channel is closed');
    this.listeners.add(listener);
    // One subscriber connection per process, opened on the first listener.
    this.subscribed ??= this.open();
    // Redis down: fail fast and typed (the subscription itself completes once Redis is back).
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new UnavailableError('redis', 'no answer to SUBSCRIBE', OUTAGE_RETRY_AFTER_MS)),
        SUBSCRIBE_MS,
      );
    });
    try {
      await Promise.race([this.subscribed, late]);
    } catch (error) {
      this.listeners.delete(listener);
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return () => this.listeners.delete(listener);
  }

  private async open(): Promise<void> {
    const subscriber = redisConnection(this.redisUrl);
    this.subscriber = subscriber;
    subscriber.on('error', (error) => this.log(`[live] redis: ${error.message}`));
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      let record: NotificationRecord;
      try {
        record = JSON.parse(text) as NotificationRecord;
      } catch {
        return;
      }
      for (const listener of [...this.listeners]) listener(record);
    });
    await subscriber.subscribe(this.channel);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    const connections = [this.publisher, this.subscriber].filter((c): c is Redis => c !== null);
    this.publisher = this.subscriber = null;
    this.subscribed = null;
    await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
  }
}
