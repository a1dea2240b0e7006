import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, processLogger, useProcessLogger } from '../../src/adapters/logger.js';
import { publicError } from '../../src/adapters/graphql/index.js';
import { lineLogger } from '../../src/domain/index.js';

function capture() {
  const out = new PassThrough();
  const err = new PassThrough();
  const text = { out: '', err: '' };
  out.on('data', (chunk: Buffer) => void (text.out += String(chunk)));
  err.on('data', (chunk: Buffer) => void (text.err += String(chunk)));
  return { streams: { out, err }, text };
}

describe('the logger', () => {
  it('writes readable lines: info as the message alone, warnings and errors to stderr with their level', () => {
    const { streams, text } = capture();
    const log = createLogger({ level: 'info', format: 'pretty' }, streams);
    log.debug('not written at info');
    log.info('GraphQL ready at http://127.0.0.1:4000/graphql');
    log.warn('redis: unreachable');
    log.error('[recall] failed on SearchQuery:', new Error('boom'));
    expect(text.out).toBe('GraphQL ready at http://127.0.0.1:4000/graphql\n');
    expect(text.err).toMatch(/^WARN redis: unreachable\nERROR \[recall\] failed on SearchQuery:\nError: boom\n/);
  });

  it('keeps quiet below its level', () => {
    const { streams, text } = capture();
    const log = createLogger({ level: 'error', format: 'pretty' }, streams);
    log.info('hidden');
    log.warn('hidden');
    expect(text.out + text.err).toBe('');
  });

  it('writes one JSON object per line in the json format, errors with their stack', () => {
    const { streams, text } = capture();
    const log = createLogger({ level: 'info', format: 'json' }, streams);
    log.info('Background worker ready');
    log.error('[synapse] failed on MemoryStored:', new Error('boom'));
    const [ready, failed] = text.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(ready).toMatchObject({ level: 30, msg: 'Background worker ready', service: 'total-recall' });
    expect(failed).toMatchObject({ level: 50, msg: '[synapse] failed on MemoryStored:', err: { message: 'boom' } });
  });

  it('sends what no app call carries (an unexpected error shown as INTERNAL) to the app logger', () => {
    const lines: string[] = [];
    const before = processLogger();
    useProcessLogger(lineLogger((line) => lines.push(line)));
    try {
      expect(publicError(new Error('disk on fire'), 'mcp')).toEqual({
        code: 'INTERNAL_SERVER_ERROR',
        message: 'internal error',
      });
    } finally {
      useProcessLogger(before);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[mcp\] unexpected error Error: disk on fire/);
  });
});
