/**
 * `npm run bench`: runs every `bench:*` script of package.json one after the
 * other, each under `flock /tmp/total-recall-bench.lock` so no two benchmarks
 * (ours or another checkout's) share the cores. `npm run bench -- synapse recall`
 * runs only those. Stops at the first failure. bench:chaos kills servers, so it
 * runs only when named (`npm run bench -- chaos`), with its own ports.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const LOCK = '/tmp/total-recall-bench.lock';
const scripts = Object.keys(
  (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> })
    .scripts,
)
  .filter((name) => name.startsWith('bench:'))
  .sort();
const wanted = process.argv.slice(2);
const chosen =
  wanted.length > 0
    ? scripts.filter((s) => wanted.includes(s.slice('bench:'.length)))
    : scripts.filter((s) => s !== 'bench:chaos');

for (const script of chosen) {
  console.log(`\n== ${script} (waiting for ${LOCK}) ==`);
  const { status } = spawnSync('flock', [LOCK, 'npm', 'run', '--silent', script], { stdio: 'inherit' });
  if (status !== 0) {
    console.error(`error: ${script} failed with status ${status}`);
    process.exit(status ?? 1);
  }
}
console.log(`\nbenchmarks done: ${chosen.join(', ') || 'none'}`);
