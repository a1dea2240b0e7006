import { describe, expect, it } from 'vitest';
import { CHECKED_FILES, describeLongLines, longLines } from '../../scripts/check-line-width.mjs';

describe('line-width check', () => {
  it('finds only the lines wider than the limit, numbered from 1', () => {
    const text = ['short', 'x'.repeat(120), 'y'.repeat(121), '', 'z'.repeat(200)].join('\n');
    expect(longLines(text)).toEqual([
      { line: 3, width: 121 },
      { line: 5, width: 200 },
    ]);
  });

  it('counts characters, not bytes, and ignores the carriage return of CRLF files', () => {
    expect(longLines(`${'é'.repeat(120)}\r\n${'→'.repeat(121)}\r\n`)).toEqual([{ line: 2, width: 121 }]);
  });

  it('takes another limit', () => {
    expect(longLines('abcd\nab', 3)).toEqual([{ line: 1, width: 4 }]);
  });

  it('reports each long line as file:line: N characters', () => {
    expect(describeLongLines('src/a.ts', [{ line: 7, width: 131 }])).toEqual(['src/a.ts:7: 131 characters']);
  });

  it('checks code and Cypher files, not docs or data', () => {
    const checked = ['src/app.ts', 'scripts/test.mjs', 'bin/x.js', 'cypher/recall/a.cypher', 'scripts/x.d.mts'];
    expect(checked.filter((file) => CHECKED_FILES.test(file))).toEqual(checked);
    expect(['README.md', 'package.json', 'schema.graphql'].filter((file) => CHECKED_FILES.test(file))).toEqual([]);
  });
});
