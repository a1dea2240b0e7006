import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  Bus,
  CONTEXTS,
  Mailbox,
  message,
  MESSAGE_CATALOG,
  messageTypes,
  type AnyCatalogEntry,
  type MemoryRecord,
} from '../../src/domain/index.js';

describe('mailbox', () => {
  it('runs messages with one key in order, one at a time', async () => {
    const box = new Mailbox('t');
    const log: string[] = [];
    const slow = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`end ${name}`);
    };
    await Promise.all([box.post('k', slow('a', 20)), box.post('k', slow('b', 1))]);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('lets different keys overlap and keeps going after a failure', async () => {
    const box = new Mailbox('t');
    const log: string[] = [];
    const first = box.post('x', async () => {
      await new Promise((r) => setTimeout(r, 20));
      log.push('x');
    });
    await box.post('y', async () => void log.push('y'));
    await first;
    expect(log).toEqual(['y', 'x']);
    await expect(box.post('x', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(box.post('x', async () => 'after')).resolves.toBe('after');
    await box.idle();
    expect(box.size).toBe(0);
  });
});

describe('bus', () => {
  it('answers asks through the one handler and fans events out to subscribers', async () => {
    const bus = new Bus();
    // The routing is under test here, not the answer's type: the handler answers a stand-in.
    bus.handle('hippocampus', 'ClaimCommand', async (m) => `claimed ${m.data.id}` as never);
    const seen: string[] = [];
    bus.subscribe('synapse', 'MemoryClaimed', async (e) => void seen.push(`synapse ${e.data.id}`));
    bus.subscribe('salience', 'MemoryClaimed', async (e) => void seen.push(`salience ${e.data.id}`));
    const cmd = message('ClaimCommand', { id: 'm1' }, 'cortex');
    await expect(bus.ask(cmd)).resolves.toBe('claimed m1');
    bus.publish(message('MemoryClaimed', { id: 'm1', store: 's' }, 'hippocampus', { cause: cmd.meta }));
    await bus.idle();
    expect(seen.sort()).toEqual(['salience m1', 'synapse m1']);
  });

  it('refuses a second handler and an ask nobody handles', async () => {
    const bus = new Bus();
    bus.handle('hippocampus', 'ClaimCommand', async () => 1 as never);
    expect(() => bus.handle('salience', 'ClaimCommand', async () => 2 as never)).toThrow(/already/);
    await expect(bus.ask(message('ForgetCommand', { id: 'a', confirmId: 'a', reason: 'r' }, 'cortex'))).rejects.toThrow(
      /no handler/,
    );
  });

  it('carries causation and correlation from cause to effect', () => {
    const cause = message('StoreCommand', { memories: [] }, 'cortex', { instanceId: 'i1', sessionId: 's1' });
    const effect = message('MemoryClaimed', { id: 'm', store: 's' }, 'hippocampus', { cause: cause.meta });
    expect(effect.meta).toMatchObject({
      causationId: cause.meta.messageId,
      correlationId: cause.meta.correlationId,
      instanceId: 'i1',
      sessionId: 's1',
      sourceContext: 'hippocampus',
    });
  });

  it('types each answer from the reply map, and stamps messages with its clock', async () => {
    const bus = new Bus({ clock: () => 42 });
    // @ts-expect-error a ClaimCommand answers with the memory record, not a string
    bus.handle('hippocampus', 'ClaimCommand', async () => 'not a memory');
    const claim = bus.message('ClaimCommand', { id: 'm1' }, 'cortex');
    expectTypeOf(bus.ask(claim)).resolves.toEqualTypeOf<MemoryRecord>();
    await expect(bus.ask(claim)).resolves.toBe('not a memory');
    expect(claim.meta.timestamp).toBe(42);
    expect(bus.meta('cortex').timestamp).toBe(42);
  });

  it('publishes under the id an event was stored with', () => {
    const bus = new Bus();
    const cause = message('ClaimCommand', { id: 'm' }, 'cortex');
    const event = bus.message('MemoryClaimed', { id: 'm', store: 's' }, 'hippocampus', {
      cause: cause.meta,
      messageId: 'evt-1',
    });
    expect(event.meta).toMatchObject({ messageId: 'evt-1', causationId: cause.meta.messageId });
  });

  it('catalogs every message with its kind, and says why an event nobody subscribes to is published', () => {
    const entries: [string, AnyCatalogEntry][] = Object.entries(MESSAGE_CATALOG);
    expect(new Set(entries.map(([, entry]) => entry.kind))).toEqual(
      new Set(['command', 'query', 'event', 'notification', 'part']),
    );
    for (const [type, entry] of entries) {
      if ('handler' in entry) expect(CONTEXTS, type).toContain(entry.handler);
      else if ('partOf' in entry) expect(MESSAGE_CATALOG[entry.partOf].kind, type).toBe('command');
      else if (entry.subscribers.length === 0) expect(entry.why, type).toMatch(/^(audit|to clients): /);
    }
    // A command asks for something to be done: none is named like an event.
    for (const type of messageTypes('command')) expect(type).not.toMatch(/ed$/);
    for (const type of messageTypes('query')) expect(type).toMatch(/Query$/);
  });

  it('is the only place the app builds messages, so every envelope carries the app clock', () => {
    const src = resolve(import.meta.dirname, '../../src');
    const outside = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts') && !path.startsWith('domain/'))
      .filter((path) => /(?<![.\w])(message|newMeta)\(/.test(readFileSync(join(src, path), 'utf8')));
    expect(outside).toEqual([]);
  });
});
