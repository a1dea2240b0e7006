/**
 * An index Neo4j builds while the service serves (after an upgrade changed the vector index's definition), on the
 * real Neo4j: the watcher lists it in health.progress as an "index" operation while it populates, names it for
 * health.degraded, and finishes the entry once Neo4j says it is online. The index here is a throwaway one on a
 * label of this test alone, so the shared memory_embedding index is never touched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers.js';
import { IndexBuilds } from '../../src/adapters/neo4j/index.js';
import { ProgressBoard } from '../../src/domain/index.js';

const suffix = randomUUID().slice(0, 8);
const label = `IndexBuildTest_${suffix}`;
const index = `index_build_test_${suffix}`;
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  // Enough vectors that the build is not instant.
  await t.cypher(
    `UNWIND range(1, 20000) AS i CREATE (:${label} {store: 's' + (i % 5), v: [x IN range(1, 384) | rand()]})`,
  );
}, 120_000);

afterAll(async () => {
  await t.cypher(`DROP INDEX ${index} IF EXISTS`);
  await t.cypher(`MATCH (n:${label}) DELETE n`);
  await t.stop();
});

describe('an index built while the service serves', () => {
  it('is an "index" operation in progress until it is online, and is named meanwhile', async () => {
    await t.cypher(
      `CYPHER 25 CREATE VECTOR INDEX ${index} FOR (n:${label}) ON n.v WITH [n.store] ` +
        "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}",
    );
    const progress = new ProgressBoard();
    const lines: string[] = [];
    const builds = new IndexBuilds(t.app.driver, t.config.neo4j.database, progress, (l) => lines.push(l));
    builds.watch([index]);
    expect(builds.building()).toEqual([index]);
    expect(progress.list()).toMatchObject([{ operation: 'index', total: 100, finishedAt: null }]);
    const deadline = Date.now() + 120_000;
    while (builds.building().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    builds.stop();
    expect(builds.building()).toEqual([]);
    const [entry] = progress.list();
    expect(entry).toMatchObject({ operation: 'index', done: 100, failed: false });
    expect(entry?.finishedAt).not.toBeNull();
    expect(lines).toEqual([`neo4j: index ${index} is online`]);
    const [state] = await t.cypher<{ state: string }>('SHOW INDEXES YIELD name, state WHERE name = $n RETURN state', {
      n: index,
    });
    expect(state?.state).toBe('ONLINE');
  }, 180_000);

  it('fails the entry of an index dropped while it was watched', async () => {
    const other = `${index}_dropped`;
    await t.cypher(`CREATE INDEX ${other} IF NOT EXISTS FOR (n:${label}) ON (n.store)`);
    await t.cypher(`DROP INDEX ${other}`);
    const progress = new ProgressBoard();
    const builds = new IndexBuilds(t.app.driver, t.config.neo4j.database, progress, () => undefined);
    builds.watch([other]);
    const deadline = Date.now() + 30_000;
    while (builds.building().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    builds.stop();
    expect(builds.building()).toEqual([]);
    expect(progress.list()[0]).toMatchObject({ operation: 'index', failed: true });
  }, 60_000);
});
