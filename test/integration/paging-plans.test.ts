/**
 * Statements that page through one store by id walk that store's `(store, id)` index in order and stop at the
 * page's end. Ordered by id alone, the planner walked the unique id index over every store's memories (1.8 s a page
 * for a store of 3 in a database of 1M) or sorted all of a store's events; the plan says which it chose.
 */
import neo4j from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { statementText } from '../../src/adapters/neo4j/statements.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t.stop();
});

interface PlanStep {
  operatorType: string;
  arguments: Record<string, unknown>;
  children: PlanStep[];
}

const steps = (p: PlanStep): PlanStep[] => [p, ...p.children.flatMap(steps)];

describe('paging through one store', () => {
  it.each([
    ['recall/store-texts.cypher', 'Memory'],
    ['recall/store-vectors.cypher', 'Memory'],
    ['hippocampus/list-events.cypher', 'Event'],
  ])('%s seeks the (store, id) index in order and sorts nothing', async (file, label) => {
    const { text } = statementText({ file });
    const params = { store: randomStore('paging'), after: '', limit: neo4j.int(100) };
    const { summary } = await t.app.driver.executeQuery(`EXPLAIN ${text}`, params, {
      database: t.config.neo4j.database,
    });
    const plan = steps(summary.plan as unknown as PlanStep);
    const seek = plan.find((s) => s.operatorType.startsWith('NodeIndexSeek'));
    expect(String(seek?.arguments.Details)).toContain(`:${label}(store, id)`);
    expect(plan.map((s) => s.operatorType.split('@')[0])).not.toContain('Sort');
    expect(plan.map((s) => s.operatorType.split('@')[0])).not.toContain('Top');
  });

  it("reads what faded from the store's own events, not every store's", async () => {
    const { text } = statementText({ file: 'report/faded.cypher' });
    const params = { store: randomStore('paging'), since: neo4j.int(0), limit: neo4j.int(20) };
    const { summary } = await t.app.driver.executeQuery(`EXPLAIN ${text}`, params, {
      database: t.config.neo4j.database,
    });
    const plan = steps(summary.plan as unknown as PlanStep);
    const seek = plan.find((s) => s.operatorType.startsWith('NodeIndexSeek'));
    expect(String(seek?.arguments.Details)).toContain(':Event(store, id)');
    expect(plan.map((s) => s.operatorType.split('@')[0])).not.toContain('NodeByLabelScan');
  });
});
