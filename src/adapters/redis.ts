/** Redis connections for BullMQ and health. */
import { Redis } from 'ioredis';

export function redisConnection(url: string): Redis {
  // BullMQ workers block on Redis: they need unlimited retries per request.
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
}

export async function pingRedis(url: string, timeoutMs = 1000): Promise<boolean> {
  const client = new Redis(url, { maxRetriesPerRequest: 0, lazyConnect: true, connectTimeout: timeoutMs, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
