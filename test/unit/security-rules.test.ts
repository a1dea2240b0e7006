/** Security rules as plain functions: token format, access, scalars, limits, posture. */
import { describe, expect, it } from 'vitest';
import { Authenticator } from '../../src/adapters/auth/index.js';
import {
  bearerOf,
  callerOf,
  generateToken,
  hashToken,
  matchesHash,
  tokenId,
  validateCreate,
} from '../../src/adapters/auth/testing.js';
import {
  isReadOnly,
  jsonDepth,
  mayReach,
  requireOperator,
  requireWrite,
  storeFor,
  type Access,
} from '../../src/domain/index.js';
import { boundedJson, parseIsoDateTime } from '../../src/adapters/graphql/testing.js';
import { parseTime } from '../../src/adapters/mcp/testing.js';
import { limitedPorts } from '../../src/adapters/graphql/testing.js';
import { hostAllowed, originAllowed } from '../../src/adapters/graphql/testing.js';
import { checkAuthPosture, loadConfig } from '../../src/config.js';
import type { Ports } from '../../src/adapters/graphql/index.js';

const mind: Access = { scope: 'mind', stores: ['a', 'b'], instanceId: 'i', tokenId: 't' };
const reader: Access = { scope: 'reader', stores: ['a'], instanceId: null, tokenId: 'r' };
const operator: Access = { scope: 'operator', stores: null, instanceId: null, tokenId: 'o' };

describe('tokens', () => {
  it('are tr_<id>_<secret>, found by id, checked by hash in constant time', () => {
    const made = generateToken();
    expect(made.token).toMatch(/^tr_[0-9a-f]{10}_[A-Za-z0-9_-]{43}$/);
    expect(tokenId(made.token)).toBe(made.id);
    expect(made.hash).toBe(hashToken(made.token));
    expect(matchesHash(made.token, made.hash)).toBe(true);
    expect(matchesHash(`${made.token.slice(0, -1)}x`, made.hash)).toBe(false);
    expect(matchesHash(made.token, 'not-hex')).toBe(false);
    expect(tokenId('tr_short_x')).toBeNull();
    expect(generateToken().token).not.toBe(made.token);
  });

  it('come as "Bearer <token>"', () => {
    expect(bearerOf('Bearer abc')).toBe('abc');
    expect(bearerOf('bearer   abc  ')).toBe('abc');
    expect(bearerOf('Basic abc')).toBeNull();
    expect(bearerOf(null)).toBeNull();
  });

  it('need a store unless they are operators; scopes are mind, reader or operator', () => {
    expect(() => validateCreate({ scope: 'mind', stores: [] })).toThrow(/needs --store/);
    expect(() => validateCreate({ scope: 'root' as never, stores: ['a'] })).toThrow(/scope/);
    expect(() => validateCreate({ scope: 'mind', stores: ['a\nb'] })).toThrow(/store/);
    expect(validateCreate({ scope: 'operator' })).toMatchObject({ scope: 'operator', stores: [], instanceId: null });
    expect(validateCreate({ scope: 'reader', stores: [' a ', 'a'], instanceId: ' i ' })).toMatchObject({
      stores: ['a'],
      instanceId: 'i',
    });
  });

  it('an instance-bound token is that instance; a header names an operator or an unbound mind, never a reader', () => {
    expect(callerOf(mind, 'someone-else', null).instanceId).toBe('i');
    expect(callerOf({ ...mind, instanceId: null }, 'agent-1', null).instanceId).toBe('agent-1');
    expect(callerOf(reader, 'someone-else', null).instanceId).toBeNull();
    expect(callerOf(operator, 'ops', 's').instanceId).toBe('ops');
  });

  it(
    'auth auto is decided once from whether any token exists; off admits anonymous ' + 'callers, on refuses them',
    async () => {
      const store = (exists: boolean) => ({ anyActive: async () => exists }) as never;
      expect((await Authenticator.resolve('auto', store(true))).mode).toBe('on');
      expect((await Authenticator.resolve('auto', store(false))).mode).toBe('off');
      expect((await Authenticator.resolve('off', store(true))).mode).toBe('off');
      await expect(new Authenticator('on', store(false)).callerFrom({})).rejects.toMatchObject({
        code: 'UNAUTHENTICATED',
      });
      expect(await new Authenticator('off', null).callerFrom({ 'x-instance-id': ' me ' })).toEqual({
        instanceId: 'me',
        sessionId: null,
      });
      await expect(
        new Authenticator('off', null).callerFrom({ authorization: 'Bearer tr_0000000000_x' }),
      ).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    },
  );
});

describe('access', () => {
  it('store arguments default to the token store; other stores are FORBIDDEN', () => {
    expect(storeFor(mind, null, 'default')).toBe('a');
    expect(storeFor(mind, 'b', 'default')).toBe('b');
    expect(() => storeFor(mind, 'c', 'default')).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(storeFor(operator, null, 'default')).toBe('default');
    expect(storeFor(undefined, 'x', 'default')).toBe('x');
    expect(mayReach(reader, 'b')).toBe(false);
    expect(mayReach(undefined, 'anything')).toBe(true);
  });

  it('readers do not write; only operators administer', () => {
    expect(() => requireWrite(reader)).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(() => requireWrite(mind)).not.toThrow();
    expect(() => requireOperator(mind, 'shutdown')).toThrow(/operator/);
    expect(() => requireOperator(operator, 'shutdown')).not.toThrow();
    expect(() => requireOperator(undefined, 'shutdown')).not.toThrow();
    // A reader's recalls are not recorded either; anyone else's are.
    expect([isReadOnly(reader), isReadOnly(mind), isReadOnly(operator), isReadOnly(undefined)]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});

describe('scalars', () => {
  it('DateTime is an ISO-8601 string with a real calendar date', () => {
    expect(parseIsoDateTime('2026-05-01T12:00:00Z')).toBe(Date.UTC(2026, 4, 1, 12));
    expect(parseIsoDateTime('2026-05-01')).toBe(Date.UTC(2026, 4, 1));
    expect(parseIsoDateTime('2026-05-01T14:00:00+02:00')).toBe(Date.UTC(2026, 4, 1, 12));
    expect(parseIsoDateTime('2028-02-29')).toBe(Date.UTC(2028, 1, 29));
    for (const bad of [
      '2026-02-30',
      '2027-02-29',
      '2026-04-31',
      '2026-00-10',
      '2026-13-01',
      '2026-01-01T24:00:00Z',
      '2026-01-01T10:61:00Z',
      '1e20',
      '',
      'May 1 2026',
    ]) {
      expect(parseIsoDateTime(bad), bad).toBeNull();
    }
  });

  it('MCP tools read a time exactly as GraphQL does, and refuse what it refuses with the same code', () => {
    expect(parseTime('2026-05-01', 'from')).toBe(Date.UTC(2026, 4, 1));
    expect(parseTime('2026-05-01T12:00:00', 'from')).toBe(Date.UTC(2026, 4, 1, 12)); // no offset: UTC
    expect(parseTime(undefined, 'from')).toBeNull();
    for (const bad of ['June 3', '5', '2026-02-30', 'May 1 2026']) {
      expect(() => parseTime(bad, 'from'), bad).toThrow(expect.objectContaining({ code: 'INVALID_DATETIME' }));
    }
  });

  it('JSON depth is counted without recursion and capped, and size is capped', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonDepth(deep, 20)).toBe(21);
    expect(jsonDepth({ a: [1, { b: 2 }] }, 20)).toBe(3);
    expect(() => boundedJson(deep)).toThrow(/deeper/);
    expect(() => boundedJson({ big: 'x'.repeat(300 * 1024) })).toThrow(/larger/);
    expect(boundedJson({ ok: true })).toEqual({ ok: true });
  });
});

describe('request limits', () => {
  it("one request's port calls run at most `concurrency` at a time", async () => {
    let running = 0;
    let peak = 0;
    const slow = async () => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 10));
      running -= 1;
      return 1;
    };
    const ports = { memory: { memory: slow }, salienceOf: () => 0.5, health: slow } as unknown as Ports;
    const limited = limitedPorts(ports, 4);
    await Promise.all(
      Array.from({ length: 20 }, () => limited.memory.memory('x', { instanceId: null, sessionId: null })),
    );
    expect(peak).toBe(4);
    expect(limited.salienceOf({} as never)).toBe(0.5);
  });

  it(
    "a route's guard runs before each limited call with the port's name, and its " + "refusal is the call's error",
    async () => {
      const seen: string[] = [];
      const ports = {
        memory: { memory: async () => 'found' },
        recall: { search: async () => 'hits' },
        salienceOf: () => 0.5,
        health: async () => 'ok',
      } as unknown as Ports;
      const guarded = limitedPorts(ports, 2, async (port) => {
        seen.push(port);
        if (port === 'recall') throw Object.assign(new Error('over the limit'), { code: 'RATE_LIMITED' });
      });
      expect(await guarded.memory.memory('x', { instanceId: null, sessionId: null })).toBe('found');
      expect(await guarded.health()).toBe('ok');
      await expect(guarded.recall.search({ query: 'q' }, { instanceId: null, sessionId: null })).rejects.toMatchObject({
        code: 'RATE_LIMITED',
      });
      expect(guarded.salienceOf({} as never)).toBe(0.5); // a plain read of a loaded value: not guarded
      expect(seen).toEqual(['memory', 'health', 'recall']);
    },
  );

  it('serves loopback hosts only on loopback, and no pages of other origins', () => {
    expect(hostAllowed('127.0.0.1:4000', '127.0.0.1', [])).toBe(true);
    expect(hostAllowed('localhost:4000', '127.0.0.1', [])).toBe(true);
    expect(hostAllowed('evil.example:4000', '127.0.0.1', [])).toBe(false);
    expect(hostAllowed('memory.internal', '127.0.0.1', ['memory.internal'])).toBe(true);
    expect(hostAllowed(undefined, '127.0.0.1', [])).toBe(false);
    expect(originAllowed(undefined, '127.0.0.1:4000')).toBe(true);
    expect(originAllowed('http://127.0.0.1:4000', '127.0.0.1:4000')).toBe(true);
    expect(originAllowed('http://evil.example', '127.0.0.1:4000')).toBe(false);
    expect(originAllowed('null', '127.0.0.1:4000')).toBe(false);
  });

  it('TOTAL_RECALL_AUTH=off is refused beyond loopback', () => {
    const off = (host: string) => checkAuthPosture({ ...loadConfig({ TOTAL_RECALL_AUTH: 'off', HOST: host }) });
    expect(() => off('0.0.0.0')).toThrow(/TOTAL_RECALL_AUTH=off is refused/);
    expect(() => off('192.168.1.5')).toThrow(/refused/);
    expect(() => off('127.0.0.1')).not.toThrow();
    expect(() => checkAuthPosture(loadConfig({ TOTAL_RECALL_AUTH: 'on', HOST: '0.0.0.0' }))).not.toThrow();
    expect(() => loadConfig({ TOTAL_RECALL_AUTH: 'maybe' })).toThrow(/on, off or auto/);
  });
});

describe('the local servers', () => {
  it('have passwords unless TOTAL_RECALL_LOCAL_AUTH says off', async () => {
    const { localAuthEnabled } = (await import('../../scripts/services/common.mjs' as string)) as {
      localAuthEnabled: () => boolean;
    };
    const saved = process.env.TOTAL_RECALL_LOCAL_AUTH;
    try {
      const with_ = (value: string | undefined) => {
        if (value === undefined) delete process.env.TOTAL_RECALL_LOCAL_AUTH;
        else process.env.TOTAL_RECALL_LOCAL_AUTH = value;
        return localAuthEnabled();
      };
      expect([with_(undefined), with_(''), with_('on'), with_('yes')]).toEqual([true, true, true, true]);
      expect([with_('off'), with_('OFF'), with_('0'), with_('false'), with_('no')]).toEqual([
        false,
        false,
        false,
        false,
        false,
      ]);
    } finally {
      if (saved === undefined) delete process.env.TOTAL_RECALL_LOCAL_AUTH;
      else process.env.TOTAL_RECALL_LOCAL_AUTH = saved;
    }
  });

  it("are signed in to with the data folder's secrets; an external server keeps its own credentials", async () => {
    const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const data = await mkdtemp(join(tmpdir(), 'total-recall-secrets-'));
    try {
      await mkdir(join(data, 'neo4j'));
      await mkdir(join(data, 'redis'));
      await writeFile(join(data, 'neo4j', 'password'), 'neo-secret\n', { mode: 0o600 });
      await writeFile(join(data, 'redis', 'redis.conf'), 'bind 127.0.0.1\nrequirepass "red/secret"\nport 6480\n');
      const local = loadConfig({
        TOTAL_RECALL_DATA: data,
        TOTAL_RECALL_REDIS_PORT: '6480',
        TOTAL_RECALL_NEO4J_BOLT_PORT: '7787',
      });
      expect(local.neo4j).toMatchObject({ uri: 'bolt://127.0.0.1:7787', user: 'neo4j', password: 'neo-secret' });
      expect(local.redisUrl).toBe('redis://:red%2Fsecret@127.0.0.1:6480');
      const external = loadConfig({
        TOTAL_RECALL_DATA: data,
        NEO4J_URI: 'bolt://db.example:7687',
        NEO4J_USERNAME: 'app',
        NEO4J_PASSWORD: 'theirs',
        REDIS_URL: 'redis://:x@cache.example:6379',
      });
      expect(external.neo4j).toMatchObject({ uri: 'bolt://db.example:7687', user: 'app', password: 'theirs' });
      expect(external.redisUrl).toBe('redis://:x@cache.example:6379');
      expect(loadConfig({ TOTAL_RECALL_DATA: data, NEO4J_URI: 'bolt://db.example:7687' }).neo4j.password).toBe('');
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  });
});
