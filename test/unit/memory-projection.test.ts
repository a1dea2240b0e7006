import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MEMORY_RECORD_PROPERTIES, toMemoryRecord } from '../../src/contexts/hippocampus/index.js';
import { CYPHER_ROOT } from '../../src/adapters/neo4j/statements.js';

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

  it.each(['search-candidates', 'vector-candidates', 'filter-memories'])('%s projects exactly those properties, never the embedding', (name) => {
    const text = readFileSync(join(CYPHER_ROOT, 'recall', `${name}.cypher`), 'utf8');
    const projection = /node \{([^}]*)\} AS memory/.exec(text)?.[1] ?? '';
    const props = projection.split(',').map((p) => p.trim().replace(/^\./, ''));
    expect(props).toEqual([...MEMORY_RECORD_PROPERTIES]);
  });
});
