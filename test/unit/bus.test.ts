import { describe, expect, it } from 'vitest';
import { Bus, Mailbox, message, MESSAGE_CATALOG } from '../../src/domain/index.js';

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
    bus.handle('hippocampus', 'ClaimCommand', async (m) => `claimed ${m.data.id}`);
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
    bus.handle('hippocampus', 'ClaimCommand', async () => 1);
    expect(() => bus.handle('salience', 'ClaimCommand', async () => 2)).toThrow(/already/);
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

  it('lists every message named by the seeds in the catalog', () => {
    const all = Object.values(MESSAGE_CATALOG).flat();
    for (const name of [
      'StoreCommand',
      'ClaimCommand',
      'ReclassifyCommand',
      'ConsolidateCommand',
      'ForgetCommand',
      'ShutdownCommand',
      'AssociateCommand',
      'DecaySweep',
      'TierPromoted',
      'TierDemoted',
      'SearchQuery',
      'ReflectQuery',
      'MemoryStored',
      'MemoryAccessed',
      'MemoryClaimed',
      'MemoryRetrieved',
      'TierChanged',
      'MemoryReclassified',
      'MemoryForgotten',
      'SalienceScored',
      'AssociationsFound',
      'SessionStarted',
      'SessionEnded',
      'ModeChanged',
      'StateTransitioned',
      'SessionState',
      'BreakNotification',
      'SessionAuditPrompt',
    ]) {
      expect(all).toContain(name);
    }
  });
});
