/**
 * An id reaches GraphQL as written, padding included: `store` trims the id it is given, so every other argument
 * that names one trims it too (README: names and ids are trimmed), as the MCP tools do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';

const store = randomStore('trimmed-ids');
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.dropStore(store);
  await t.stop();
});

describe('ids written with padding', () => {
  it('name the same memory in every query and mutation as in store', async () => {
    const id = `${store}-m1`;
    const { store: stored } = await t.ok<{ store: { id: string } }>(
      'mutation ($input: StoreInput!) { store(input: $input) { id } }',
      { input: { id: ` ${id} `, store, content: 'The spare key is under the blue flowerpot.' } },
    );
    expect(stored.id).toBe(id);
    const padded = `  ${id}\t`;
    const { memory } = await t.ok<{ memory: { id: string } | null }>('query ($id: ID!) { memory(id: $id) { id } }', {
      id: padded,
    });
    expect(memory?.id).toBe(id);
    const { claim } = await t.ok<{ claim: { id: string } }>('mutation ($id: ID!) { claim(id: $id) { id } }', {
      id: padded,
    });
    expect(claim.id).toBe(id);
    // Ids inside an input object too, and a list of them.
    const { forget } = await t.ok<{ forget: { id: string; forgotten: boolean } }>(
      'mutation ($input: ForgetInput!) { forget(input: $input) { id forgotten } }',
      { input: { id: padded, confirmId: ` ${id}`, reason: 'moved the key' } },
    );
    expect(forget).toEqual({ id, forgotten: true });
    const rows = await t.cypher<{ n: number }>('MATCH (m:Memory {id: $id}) RETURN count(m) AS n', { id });
    expect(rows).toEqual([{ n: 0 }]);
  });
});
