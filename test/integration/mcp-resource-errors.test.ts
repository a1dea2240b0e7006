/**
 * A resource read that fails for a typed reason (a store the token may not reach) is an invalid-params protocol
 * error carrying the domain code in `data.code`, as a prompt's is; for every resource template.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, randomStore, startAuthApp, TestTokens, type TestApp } from '../helpers.js';

const A = randomStore('mcp-res-a');
const B = randomStore('mcp-res-b');
let t: TestApp;
let client: Client;
const tokens = new TestTokens(() => t);

beforeAll(async () => {
  t = await startAuthApp({ TOTAL_RECALL_SCOPE_STORES: `${A},${B}` });
  const { token } = await tokens.issue({ scope: 'mind', stores: [A] });
  client = await connectMcp(t, 'mcp-resource-errors', { authorization: `Bearer ${token}` });
});

afterAll(async () => {
  await client?.close();
  await tokens.removeAll();
  await t?.dropStore(A);
  await t?.dropStore(B);
  await t?.stop();
});

const failure = async (uri: string): Promise<McpError> => {
  const error = await client.readResource({ uri }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, uri).toBeInstanceOf(McpError);
  return error as McpError;
};

describe('MCP resources/read on a store the token may not reach', () => {
  for (const slug of ['identity', 'active-context']) {
    it(`${slug}: invalid params with the code FORBIDDEN, as a prompt gives its codes`, async () => {
      const error = await failure(`total-recall://stores/${B}/${slug}`);
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.data).toEqual({ code: 'FORBIDDEN' });
      expect(error.message).toContain(`FORBIDDEN: this token may not reach store "${B}"`);
    });
  }

  it("still reads the token's own store", async () => {
    const read = await client.readResource({ uri: `total-recall://stores/${A}/identity` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({ store: A, memories: [] });
  });

  it('a prompt on the same store gives the same code the same way', async () => {
    const error = await client.getPrompt({ name: 'reflect', arguments: { store: B } }).then(
      () => null,
      (e: unknown) => e as McpError,
    );
    expect(error?.code).toBe(ErrorCode.InvalidParams);
    expect(error?.data).toEqual({ code: 'FORBIDDEN' });
  });
});
