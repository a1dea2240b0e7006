import { describe, expect, it } from 'vitest';
import { withoutNullArguments } from '../../src/adapters/mcp/null-arguments.js';

describe('withoutNullArguments', () => {
  it("leaves a tool call's top-level null arguments out and keeps nested nulls", () => {
    const call = {
      jsonrpc: '2.0' as const,
      id: 1,
      method: 'tools/call',
      params: { name: 'recall', arguments: { query: 'q', limit: null, metadata: { due: null }, tags: [] } },
    };
    expect(withoutNullArguments(call)).toEqual({
      ...call,
      params: { name: 'recall', arguments: { query: 'q', metadata: { due: null }, tags: [] } },
    });
  });

  it('passes any other message as it is', () => {
    const list = { jsonrpc: '2.0' as const, id: 2, method: 'tools/list', params: { cursor: null } };
    expect(withoutNullArguments(list as never)).toBe(list);
    const plain = { jsonrpc: '2.0' as const, id: 3, method: 'tools/call', params: { name: 'x', arguments: { a: 1 } } };
    expect(withoutNullArguments(plain)).toBe(plain);
    const reply = { jsonrpc: '2.0' as const, id: 4, result: {} };
    expect(withoutNullArguments(reply)).toBe(reply);
  });
});
