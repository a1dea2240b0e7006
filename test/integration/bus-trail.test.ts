import { afterAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';

const STORE = 'mutation ($input: StoreInput!) { store(input: $input) { id } }';

describe('the bus trail in the debug log', () => {
  const started: TestApp[] = [];
  const store = randomStore('trail');
  afterAll(async () => {
    await started[0]?.dropStore(store);
    for (const t of started) await t.stop();
  });

  async function storeWith(level: string): Promise<{ lines: string[] }> {
    const lines: string[] = [];
    const t = await startTestApp(
      { log: (line) => lines.push(line) },
      { ...process.env, TOTAL_RECALL_LOG_LEVEL: level },
    );
    started.push(t);
    await t.ok(STORE, { input: { store, content: `a trail at ${level}` } });
    await t.app.settle();
    return { lines };
  }

  it(
    'logs every message with its id and source at debug level, including audit events ' + 'nobody subscribes to',
    async () => {
      const { lines } = await storeWith('debug');
      const command = lines.find((l) => /^bus: StoreCommand \S+ from cortex /.test(l));
      expect(command).toBeDefined();
      const commandId = command!.split(' ')[2];
      // The event names the command that caused it.
      expect(lines).toContainEqual(
        expect.stringMatching(new RegExp(`^bus: MemoryStored \\S+ from hippocampus cause ${commandId}$`)),
      );
    },
  );

  it('logs no bus trail at the default level', async () => {
    const { lines } = await storeWith('info');
    expect(lines.filter((l) => l.startsWith('bus: '))).toEqual([]);
  });
});
