/**
 * The CLI's reading of the service's answers: the URL it is given (the one the server prints, or its MCP
 * endpoint's), and a request refused at the HTTP level (the SDK's error: the status on `.code`, the body in the
 * message) as the code the service gave, retryable or not.
 */
import { describe, expect, it } from 'vitest';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpUrl, serviceFailure, ServiceUnreachable, ToolFailure } from '../../src/cli/service.js';

const URL_ = 'http://127.0.0.1:4000';
const posted = (status: number, body: unknown) =>
  new StreamableHTTPError(
    status,
    `Error POSTing to endpoint: ${typeof body === 'string' ? body : JSON.stringify(body)}`,
  );
const graphql = (code: string, message: string) => ({ errors: [{ message, extensions: { code } }] });

describe('the service as the CLI reads it', () => {
  it('takes the service URL, its GraphQL URL or its MCP endpoint', () => {
    for (const url of [URL_, `${URL_}/`, `${URL_}/graphql`, `${URL_}/mcp`, `${URL_}/mcp/`])
      expect(mcpUrl(url).href).toBe(`${URL_}/mcp`);
    expect(mcpUrl('http://host/total-recall/graphql').href).toBe('http://host/total-recall/mcp');
  });

  it('reads an HTTP refusal as the code the service gave, retryable when it says "not now"', () => {
    const failure = (status: number, body: unknown) => serviceFailure(posted(status, body), URL_) as ToolFailure;
    expect(failure(401, graphql('UNAUTHENTICATED', 'the token is unknown or revoked'))).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'UNAUTHENTICATED: the token is unknown or revoked',
      retryable: false,
    });
    for (const code of ['UNAVAILABLE', 'BUSY']) expect(failure(503, graphql(code, 'later')).retryable).toBe(true);
    expect(failure(429, graphql('RATE_LIMITED', 'slow down')).retryable).toBe(true);
    const rpc = { jsonrpc: '2.0', error: { code: -32000, message: 'CORTEX.INVALID_INSTANCE_ID: a control character' } };
    expect(failure(400, rpc)).toMatchObject({ code: 'CORTEX.INVALID_INSTANCE_ID', retryable: false });
    expect(failure(403, { jsonrpc: '2.0', error: { code: -32000, message: 'Origin not allowed' } }).message).toBe(
      'HTTP_403: Origin not allowed',
    );
    expect(failure(502, 'Bad Gateway')).toMatchObject({ code: 'HTTP_502', message: 'HTTP_502: Bad Gateway' });
  });

  it('reads no MCP endpoint and a failed network as unreachable, anything else as not the service', () => {
    expect(serviceFailure(posted(404, 'Not Found'), URL_)).toBeInstanceOf(ServiceUnreachable);
    const reset = new TypeError('fetch failed', {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
    expect(serviceFailure(reset, URL_)).toBeInstanceOf(ServiceUnreachable);
    expect(serviceFailure(new Error('boom'), URL_)).toBeNull();
  });

  it('gives tool failures with a "not now" code as retryable', () => {
    for (const code of ['UNAVAILABLE', 'BUSY', 'RATE_LIMITED', 'INDEX_NOT_READY', 'SHUTTING_DOWN', 'CONCURRENT_CHANGE'])
      expect(new ToolFailure(code, 'x').retryable).toBe(true);
    expect(new ToolFailure('HIPPOCAMPUS.MEMORY_NOT_FOUND', 'x').retryable).toBe(false);
  });
});
