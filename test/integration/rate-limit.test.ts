/**
 * The per-token rate limit on the real Redis: made with `connect`, it counts in Redis from the first request, so
 * every API process shares one count. Counts made while its connection was still coming up went to the in-process
 * fallback and the rest to Redis: split, neither reached the limit (a flaky admission test showed it).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenRateLimit } from '../../src/adapters/auth/rate-limit.js';
import { deleteKeysWithPrefix } from '../../src/adapters/redis.js';
import { loadConfig } from '../../src/config.js';

const { redisUrl } = loadConfig();
const prefix = `test-rate-${randomUUID().slice(0, 8)}`;
const limits: TokenRateLimit[] = [];
afterEach(async () => {
  for (const limit of limits.splice(0)) await limit.close();
  await deleteKeysWithPrefix(redisUrl, prefix);
});

describe('the per-token rate limit', () => {
  it('counts in Redis from its first request, one count for every process', async () => {
    const first = await TokenRateLimit.connect(redisUrl, prefix, 2);
    limits.push(first);
    expect(first.shared).toBe(true);
    await first.consume('token-a');
    await first.consume('token-a');
    await expect(first.consume('token-a')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    // Another API process, started now: the same count, at once.
    const second = await TokenRateLimit.connect(redisUrl, prefix, 2);
    limits.push(second);
    await expect(second.consume('token-a')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    await second.consume('token-b');
  });
});
