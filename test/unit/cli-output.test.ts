/** What the CLI prints and sends: stored text shown, not obeyed, by a terminal; store names a header can carry. */
import { describe, expect, it } from 'vitest';
import { visible } from '../../src/cli/format.js';
import { headerSafe } from '../../src/cli/service.js';

describe('CLI output', () => {
  it('shows control characters as \\xNN, keeping line ends, tabs and every printable character', () => {
    expect(visible('red \x1b[31mtext\x1b[0m\x07')).toBe(String.raw`red \x1b[31mtext\x1b[0m\x07`);
    expect(visible('over\rwrite \x9b2J \x7f')).toBe(String.raw`over\x0dwrite \x9b2J \x7f`);
    expect(visible('line\n\tindented café 日本語 🎉')).toBe('line\n\tindented café 日本語 🎉');
  });

  it('lets a header carry Latin-1 text only, without control characters', () => {
    expect(headerSafe('project-1a2b3c4d')).toBe(true);
    expect(headerSafe('café ß\tnotes')).toBe(true);
    expect(headerSafe('日本語')).toBe(false);
    expect(headerSafe('a\x1bb')).toBe(false);
    expect(headerSafe('a\x85b')).toBe(false);
  });
});
