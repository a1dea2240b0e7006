import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MEMORY_RECORD_PROPERTIES, memoryFromValues, toMemoryRecord } from '../../src/domain/index.js';
import { CYPHER_ROOT } from '../../src/adapters/neo4j/testing.js';

describe('the memory projection of Recall’s hot statements', () => {
  it('lists every property toMemoryRecord reads', () => {
    const read = new Set<string>();
    // Once with nothing set and once with every property set (so reads behind a check happen too).
    const rowOf = (value: (key: string) => unknown) =>
      new Proxy({} as Record<string, unknown>, {
        get: (_t, key) => {
          if (typeof key !== 'string') return undefined;
          read.add(key);
          return value(key);
        },
      });
    toMemoryRecord(rowOf(() => undefined));
    toMemoryRecord(rowOf((key) => (/tier$/i.test(key) ? 'LONG_TERM' : 1)));
    expect(read.has('salienceAnchorClaimed')).toBe(true);
    expect([...read].filter((k) => !(MEMORY_RECORD_PROPERTIES as readonly string[]).includes(k))).toEqual([]);
    expect(read.size).toBeGreaterThan(10);
  });

  it.each([
    'recall/search-candidates',
    'recall/vector-candidates',
    'recall/filter-memories',
    'recall/dated-memories',
    'hippocampus/store-memories',
  ])('%s projects exactly those properties (times as epoch ms), never the embedding', (name) => {
    const text = readFileSync(join(CYPHER_ROOT, `${name}.cypher`), 'utf8');
    const projection = /RETURN \[([^\]]*)\] AS memory/.exec(text)?.[1] ?? '';
    // `node.name`, or `node.name.epochMillis` for a time (read as epoch ms)
    const props = projection.split(',').map((p) => p.trim().replace(/^(?:node|m)\.(\w+)(\.epochMillis)?$/, '$1'));
    expect(props).toEqual([...MEMORY_RECORD_PROPERTIES]);
  });

  it('reads a tier edited by hand into something else as LONG_TERM, and one in lower case as that tier', () => {
    const tierOf = (tier: unknown) => toMemoryRecord({ id: 'm', store: 's', content: 'c', tier }).tier;
    expect([tierOf('ARCHIVE'), tierOf(' archive '), tierOf('long term'), tierOf(undefined), tierOf(3)]).toEqual([
      'ARCHIVE',
      'ARCHIVE',
      'LONG_TERM',
      'LONG_TERM',
      'LONG_TERM',
    ]);
  });

  it('reads a list of those values as the memory they describe', () => {
    const row: Record<string, unknown> = {
      id: 'mem_1',
      store: 's',
      content: 'hello',
      tier: 'LONG_TERM',
      tags: ['a'],
      people: ['Ana'],
      occurredAt: 5,
      createdAt: 7,
      usefulness: 0.25,
    };
    const values = MEMORY_RECORD_PROPERTIES.map((k) => row[k] ?? null);
    expect(memoryFromValues(values)).toEqual(toMemoryRecord(row));
    expect(() => memoryFromValues(values.slice(1))).toThrow(/values/);
  });
});
