/**
 * Requests per token per minute, counted in Redis (rate-limiter-flexible), so
 * every API process shares one count. When Redis does not answer, an
 * in-process count takes over (a rate limit must never refuse everyone).
 */
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RetryableError } from '../../domain/index.js';

/** Retryable: GraphQL's extensions and MCP's error results carry `retryAfterMs`, as for BUSY. */
export class RateLimitedError extends RetryableError {
  constructor(retryAfterMs: number) {
    super(
      'RATE_LIMITED',
      `too many requests for this token; retry in ${Math.ceil(retryAfterMs / 1000)} s`,
      retryAfterMs,
    );
    this.name = 'RateLimitedError';
  }
}

export class TokenRateLimit {
  private readonly redis: Redis;
  private readonly limiter: RateLimiterRedis;

  constructor(
    redisUrl: string,
    keyPrefix: string,
    readonly perMinute: number,
  ) {
    this.redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    this.redis.on('error', () => undefined);
    this.limiter = new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix,
      points: perMinute,
      duration: 60,
      insuranceLimiter: new RateLimiterMemory({ points: perMinute, duration: 60 }),
    });
  }

  /**
   * A limit whose Redis connection is up, or after `waitMs` without it (the in-process count covers meanwhile).
   * Counts made while it connects land in the in-process count and the rest in Redis: split, neither would reach
   * the limit, so a server waits for this before it admits anyone.
   */
  static async connect(redisUrl: string, keyPrefix: string, perMinute: number, waitMs = 3000): Promise<TokenRateLimit> {
    const limit = new TokenRateLimit(redisUrl, keyPrefix, perMinute);
    if (limit.redis.status !== 'ready')
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs).unref();
        limit.redis.once('ready', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    return limit;
  }

  /** Whether counts go to Redis (shared by every API process) rather than this process's own count. */
  get shared(): boolean {
    return this.redis.status === 'ready';
  }

  /** Counts one request of `key`; RATE_LIMITED when it is over its share. */
  async consume(key: string): Promise<void> {
    try {
      await this.limiter.consume(key);
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) throw new RateLimitedError(outcome.msBeforeNext);
      // Neither Redis nor the insurance limiter answered: let the request through.
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
