/**
 * Long operations report progress in `health`: a decay sweep of a store and a
 * cold-storage export, on the real Neo4j.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message } from '../../src/domain/index.js';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
const store = randomStore('progress');
const HEALTH = '{ health { progress { operation store done total share unit finishedAt failed } } }';

beforeAll(async () => {
  t = await startTestApp();
  await t.ok('mutation ($in: [StoreInput!]!) { storeMany(inputs: $in) { id } }', {
    in: Array.from({ length: 30 }, (_, i) => ({ store, content: `progress note ${i}` })),
  });
  await t.app.bus.idle();
});
afterAll(async () => {
  await t.dropStore(store);
  await t.stop();
});

describe('progress in health', () => {
  it('shows a finished sweep of a store with how many memories it scanned', async () => {
    await t.app.bus.ask(message('SweepDecay', { store, now: Date.now() }, 'subconscious'));
    const { health } = await t.ok<{ health: { progress: any[] } }>(HEALTH);
    const sweep = health.progress.find((p) => p.operation === 'sweep' && p.store === store);
    expect(sweep).toMatchObject({ done: 30, total: 30, share: 1, unit: 'memories scanned', failed: false });
    expect(sweep.finishedAt).not.toBeNull();
  });

  it('shows an export with the nodes and relationships written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tr-progress-'));
    try {
      const { ColdStorage } = await import('../../src/adapters/cold-storage/index.js');
      const cold = new ColdStorage({
        neo4j: t.config.neo4j,
        stores: [store],
        service: 'test',
        progress: t.app.progress,
      });
      const written = await cold.write(dir);
      await cold.close();
      const { health } = await t.ok<{ health: { progress: any[] } }>(HEALTH);
      const exp = health.progress.find((p) => p.operation === 'export' && p.store === store);
      expect(exp).toMatchObject({ done: written.nodes + written.relationships, share: 1, failed: false });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
