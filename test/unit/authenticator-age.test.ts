/** How long the Authenticator trusts a verified token (what bounds a revocation), and a caller asking for less. */
import { describe, expect, it } from 'vitest';
import { Authenticator } from '../../src/adapters/auth/index.js';
import type { TokenRecord } from '../../src/adapters/auth/index.js';

const record: TokenRecord = {
  id: 't',
  scope: 'mind',
  stores: ['a'],
  instanceId: null,
  label: null,
  createdAt: 0,
  lastUsedAt: null,
  revoked: false,
};

describe('Authenticator', () => {
  it('trusts a verification for 5 s, or for at most maxAgeMs when a caller asks', async () => {
    let now = 1_000;
    let valid = true;
    let lookups = 0;
    const tokens = {
      verify: async () => {
        lookups++;
        return valid ? record : null;
      },
    } as never;
    const auth = new Authenticator('on', tokens, () => now);
    const headers = { authorization: 'Bearer tr_0000000000_x' };
    await auth.callerFrom(headers);
    valid = false; // revoked
    now += 3_000;
    expect((await auth.callerFrom(headers)).access?.tokenId).toBe('t'); // still trusted
    await expect(auth.callerFrom(headers, {}, 3_000)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(lookups).toBe(2);
    await expect(auth.callerFrom(headers)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
