// `npm test`: installs what is missing, brings up Neo4j and Redis, type-checks,
// runs the whole vitest suite, and stops the servers it started itself.
import { spawnSync } from 'node:child_process';
import { ensureDependencies } from './deps.mjs';
import { bringUpServices, serviceEnv, stopStarted } from './with-services.mjs';
import { projectRoot } from './services/common.mjs';

ensureDependencies();
const services = await bringUpServices();
const env = serviceEnv();
const run = (cmd, args) => spawnSync(cmd, args, { cwd: projectRoot, env, stdio: 'inherit' }).status ?? 1;

let status = run('npx', ['tsc', '-p', '.']);
if (status !== 0) console.error('error: type check failed (tsc)');
else status = run('npx', ['vitest', 'run', ...process.argv.slice(2)]);

if (!process.env.KEEP_SERVICES) await stopStarted(services);
process.exit(status);
