/**
 * A long cold-storage read gives way to requests: its rows come in pieces, and after each the pace it was given
 * decides when the next may come (a checkpoint in the serving process keeps to a share of the time while requests
 * run). On the real Neo4j, through the statement a full export reads its nodes with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { LosslessGraph } from '../../src/adapters/cold-storage/lossless-graph.js';
import { Q } from '../../src/adapters/cold-storage/cypher.js';
import { ColdStorage } from '../../src/adapters/cold-storage/index.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const STORE_MANY = `mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id } }`;

let t: TestApp;
const store = randomStore('cold-pace');

beforeAll(async () => {
  t = await startTestApp();
  const inputs = Array.from({ length: 250 }, (_, i) => ({ store, content: `note ${i} about the garden` }));
  await t.ok(STORE_MANY, { inputs });
});

afterAll(async () => {
  await t.dropStore(store);
  await t.stop();
});

describe('LosslessGraph pacing', () => {
  it('calls its pace after every hundred rows and waits for it before the next', async () => {
    const tooks: number[] = [];
    let waited = 0;
    const graph = new LosslessGraph(t.config.neo4j, async (tookMs) => {
      tooks.push(tookMs);
      await new Promise((r) => setTimeout(r, 20));
      waited += 20;
    });
    let rows = 0;
    const start = performance.now();
    try {
      await graph.stream(Q.exportNodes, { stores: [store] }, () => {
        rows++;
      });
    } finally {
      await graph.close();
    }
    expect(rows).toBeGreaterThanOrEqual(250);
    expect(tooks).toHaveLength(Math.floor(rows / 100));
    for (const took of tooks) expect(took).toBeGreaterThanOrEqual(0);
    expect(performance.now() - start).toBeGreaterThanOrEqual(waited);

    // Without a pace, the same rows and no waiting.
    const plain = new LosslessGraph(t.config.neo4j);
    let again = 0;
    try {
      await plain.stream(Q.exportNodes, { stores: [store] }, () => {
        again++;
      });
    } finally {
      await plain.close();
    }
    expect(again).toBe(rows);
  });

  it("paces a checkpoint's export by the process's requests, and a shutdown's not at all", async () => {
    let asked = 0;
    const load = {
      busy: () => {
        asked++;
        return true; // requests run all the time
      },
      untilGap: async () => {},
    };
    const dir = await mkdtemp(join(tmpdir(), 'cold-pace-'));
    const cold = new ColdStorage({ neo4j: t.config.neo4j, stores: [store], service: 'total-recall test', load });
    try {
      await cold.write(dir, { full: true });
      expect(asked).toBeGreaterThanOrEqual(2); // every hundred rows of at least 250 memories
      cold.stopBackground(); // a shutdown began
      asked = 0;
      await cold.write(dir, { full: true });
      expect(asked).toBe(0);
    } finally {
      await cold.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
