// Installs the npm dependencies when they are missing or older than the lock file. The first thing `npm test`,
// `npm start` and scripts/services/cli.mjs do, so node: built-ins only, and the service modules (they need
// neo4j-driver and ioredis) are imported only after it.
import { existsSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from './services/common.mjs';

const lock = path.join(projectRoot, 'package-lock.json');
const installed = path.join(projectRoot, 'node_modules', '.package-lock.json');

/** Whether `npm ci` (or `npm install`) has run in this checkout at all. */
export const dependenciesInstalled = () => existsSync(installed);

export function ensureDependencies(log = (m) => process.stderr.write(`${m}\n`)) {
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return false;
  log('installing npm dependencies (npm ci)…');
  // onnxruntime-node ships its CPU binaries; its install script would only try to download CUDA ones.
  const env = { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' };
  // npm's output goes to stderr: stdout carries results (`cli.mjs --json`).
  const stdio = ['inherit', process.stderr, process.stderr];
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: projectRoot, stdio, env });
  if (result.status !== 0) {
    process.stderr.write(
      'error: npm ci failed\nfix: check the network to the npm registry and run `npm ci` by hand to see why\n',
    );
    process.exit(1);
  }
  return true;
}
