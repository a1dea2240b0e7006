/** `npm run report`'s page for a real store: three SVG charts (Vega) and what faded this week. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message } from '../../src/domain/index.js';
import { readStoreReport, reportHtml } from '../../src/adapters/report/index.js';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
const store = randomStore('report');
let faded = '';

beforeAll(async () => {
  t = await startTestApp();
  const stored = await t.ok<{ storeMany: { id: string }[] }>(
    'mutation ($in: [StoreInput!]!) { storeMany(inputs: $in) { id } }',
    {
      in: [
        { store, content: 'I keep my promises.', tier: 'IDENTITY_CORE' },
        { store, content: 'Working on the report page now.', tier: 'ACTIVE_CONTEXT' },
        { store, content: 'The report uses Vega for its charts.' },
        { store, content: 'An old note about charts.', tier: 'ARCHIVE' },
      ],
    },
  );
  faded = stored.storeMany[1]!.id;
  await t.app.bus.ask(
    message(
      'TierChangeBatch',
      {
        changes: [
          message(
            'DemoteTier',
            {
              id: faded,
              from: 'ACTIVE_CONTEXT',
              to: 'LONG_TERM',
              salience: 0.3,
              reason: 'salience 0.300 fell below the demotion threshold',
            },
            'salience',
          ),
        ],
      },
      'salience',
    ),
  );
  await t.app.bus.idle();
});
afterAll(async () => {
  await t.dropStore(store);
  await t.stop();
});

describe('store report', () => {
  it('counts the store by tier, salience and degree, lists what faded, and draws the charts as SVG', async () => {
    const data = await readStoreReport(t.app.graph, store, Date.now(), t.app.recallDeps.salienceOf);
    // Fresh memories are vivid: the identity core does not decay, the rest start high.
    expect(data.salienceBins.filter((b) => b.bin >= 0.5).reduce((n, r) => n + r.memories, 0)).toBeGreaterThanOrEqual(1);
    expect(data.tierWeeks.reduce((n, r) => n + r.memories, 0)).toBe(4);
    expect(new Set(data.tierWeeks.map((r) => r.tier))).toEqual(new Set(['IDENTITY_CORE', 'LONG_TERM', 'ARCHIVE']));
    expect(data.salienceBins.reduce((n, r) => n + r.memories, 0)).toBe(4);
    expect(data.degrees.reduce((n, r) => n + r.memories, 0)).toBe(4);
    expect(data.faded).toEqual([
      expect.objectContaining({
        id: faded,
        from: 'ACTIVE_CONTEXT',
        to: 'LONG_TERM',
        content: 'Working on the report page now.',
      }),
    ]);
    const html = await reportHtml(data);
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html).toContain('IDENTITY_CORE'); // the legend
    expect(html).toContain('Working on the report page now.');
    expect(html).not.toMatch(/<script/);
  });
});
