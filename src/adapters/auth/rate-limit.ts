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
