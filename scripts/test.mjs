// `npm test`: installs what is missing, brings up Neo4j and Redis, lints, type-checks,
// runs the whole vitest suite, and stops the servers it started itself.
import { spawnSync } from 'node:child_process';
import { ensureDependencies } from './deps.mjs';
import { projectRoot } from './services/common.mjs';
import { ensureChromium } from './services/chromium.mjs';

ensureDependencies();
// Imported once the dependencies are there: the service modules use neo4j-driver and ioredis.
const { bringUpServices, serviceEnv, stopStarted } = await import('./with-services.mjs');
const services = await bringUpServices();
const env = serviceEnv();
// The Neo4j Browser check drives Debian's chromium (installed here when missing).
try {
  env.CHROMIUM_PATH = await ensureChromium({ log: (m) => console.log(m) });
} catch (error) {
  console.error(`error: ${error.message}${error.hint ? `\nfix: ${error.hint}` : ''}`);
}
const run = (cmd, args) => spawnSync(cmd, args, { cwd: projectRoot, env, stdio: 'inherit' }).status ?? 1;

// Lint and format (biome), then lines of at most 120 columns (biome does not wrap comments or strings).
let status = run('npx', ['biome', 'check', '--error-on-warnings', '.']);
if (status !== 0) console.error('error: lint or format check failed (biome); `npx biome check --write .` fixes most');
else status = run('node', ['scripts/check-line-width.mjs']);
if (status === 0) {
  status = run('npx', ['tsc', '-p', '.']);
  if (status !== 0) console.error('error: type check failed (tsc)');
  else status = run('npx', ['vitest', 'run', ...process.argv.slice(2)]);
}

if (!process.env.KEEP_SERVICES) await stopStarted(services);
process.exit(status);
