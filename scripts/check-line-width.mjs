// `npm run lint:lines`: lists every line wider than 120 characters in the code and Cypher files git knows
// (tracked, or new and not ignored), as `file:line: N characters`, and exits 1 when there is one. Biome wraps
// code at 120 but leaves long comments, strings and Cypher alone; this check covers what it cannot.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAX_LINE_WIDTH = 120;
export const CHECKED_FILES = /\.(ts|mts|mjs|js|cypher)$/;

/** The lines of `text` wider than `limit`, counted in characters (code points), numbered from 1. */
export function longLines(text, limit = MAX_LINE_WIDTH) {
  const found = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const width = [...line].length;
    if (width > limit) found.push({ line: index + 1, width });
  });
  return found;
}

/** One report line per long line: `file:line: N characters`. */
export function describeLongLines(file, found) {
  return found.map(({ line, width }) => `${file}:${line}: ${width} characters`);
}

function trackedFiles(root) {
  // Tracked files and new ones not ignored yet; a file deleted from the work tree is skipped.
  const args = ['ls-files', '-z', '--cached', '--others', '--exclude-standard'];
  const listed = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const files = listed.stdout.split('\0').filter((file) => CHECKED_FILES.test(file));
  return [...new Set(files)].filter((file) => existsSync(path.join(root, file)));
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const report = trackedFiles(root).flatMap((file) =>
    describeLongLines(file, longLines(readFileSync(path.join(root, file), 'utf8'))),
  );
  for (const line of report) console.log(line);
  if (report.length > 0) {
    console.error(`error: ${report.length} line(s) wider than ${MAX_LINE_WIDTH} characters; wrap them`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
