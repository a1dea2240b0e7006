#!/usr/bin/env node
// node scripts/services/cli.mjs up|down|status [--json] [--quiet]
//
//   up      ensure Neo4j and Redis run (in parallel); installs/downloads what is missing
//   down    stop both (only the processes named by our pid files)
//   status  print the state of each
//
// NEO4J_URI / REDIS_URL set → that server is external and is neither started nor stopped.
// Progress goes to stderr; the result lines (or JSON with --json) go to stdout.
// On failure: `error: <cause>` and `fix: <hint>` lines, the log tail, exit code 1.

import { redactUrl as redact } from './common.mjs';
import { reportError } from './report.mjs';
import { dependenciesInstalled, ensureDependencies } from '../deps.mjs';

const USAGE = 'usage: node scripts/services/cli.mjs up|down|status [--json] [--quiet]';

const args = process.argv.slice(2);
const json = args.includes('--json');
const quiet = args.includes('--quiet');
const command = args.find((a) => !a.startsWith('-'));

const log = quiet ? () => {} : (m) => process.stderr.write(`${m}\n`);
const out = (m) => process.stdout.write(`${m}\n`);

if (!['up', 'down', 'status'].includes(command)) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

// The service modules speak through neo4j-driver and ioredis: on a fresh clone they are installed first.
// Only then: a stale install is left to `npm ci` (tests run this script while vitest runs).
if (!dependenciesInstalled()) ensureDependencies(log);
const { ensureNeo4j, neo4jStatus, stopNeo4j } = await import('./neo4j.mjs');
const { ensureRedis, redisStatus, stopRedis } = await import('./redis.mjs');

function how(r) {
  return r.external ? 'external' : r.started ? 'started' : 'reused';
}

async function up() {
  const t0 = Date.now();
  const [neo, red] = await Promise.allSettled([ensureNeo4j({ log }), ensureRedis({ log })]);
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  const failed = [neo, red].filter((r) => r.status === 'rejected');
  if (json) {
    out(
      JSON.stringify({
        ok: failed.length === 0,
        seconds: Number(secs),
        // Secrets stay in their files (mode 0600), never in output.
        neo4j:
          neo.status === 'fulfilled'
            ? { ...neo.value, password: neo.value.password ? '***' : '' }
            : { error: neo.reason?.message },
        redis:
          red.status === 'fulfilled' ? { ...red.value, url: redact(red.value.url) } : { error: red.reason?.message },
      }),
    );
  } else {
    if (neo.status === 'fulfilled') {
      const v = neo.value;
      const browser = v.browserUrl ? `  browser ${v.browserUrl}` : '';
      out(`neo4j  ${how(v).padEnd(8)} ${v.uri}${browser}${v.pid ? `  (pid ${v.pid})` : ''}`);
    }
    if (red.status === 'fulfilled') {
      const v = red.value;
      out(`redis  ${how(v).padEnd(8)} ${redact(v.url)}${v.pid ? `  (pid ${v.pid})` : ''}`);
    }
    out(failed.length ? `up failed after ${secs} s` : `up in ${secs} s`);
  }
  for (const f of failed) reportError(f.reason);
  return failed.length ? 1 : 0;
}

async function down() {
  const [neo, red] = await Promise.allSettled([stopNeo4j({ log }), stopRedis({ log })]);
  const failed = [neo, red].filter((r) => r.status === 'rejected');
  if (json) {
    out(JSON.stringify({ ok: failed.length === 0, neo4j: neo.value ?? null, redis: red.value ?? null }));
  } else {
    const word = (v, env) =>
      v ? 'stopped' : process.env[env] ? `external (${env} set), left alone` : 'was not running';
    if (neo.status === 'fulfilled') out(`neo4j  ${word(neo.value, 'NEO4J_URI')}`);
    if (red.status === 'fulfilled') out(`redis  ${word(red.value, 'REDIS_URL')}`);
  }
  for (const f of failed) reportError(f.reason);
  return failed.length ? 1 : 0;
}

async function status() {
  const [neo, red] = await Promise.all([neo4jStatus(), redisStatus()]);
  if (json) {
    out(JSON.stringify({ neo4j: neo, redis: red }));
  } else {
    const pid = (s) => (s.pid ? `  (pid ${s.pid})` : '');
    const browser = neo.browserUrl && neo.state !== 'stopped' ? `  browser ${neo.browserUrl}` : '';
    out(`neo4j  ${neo.state.padEnd(8)} ${neo.uri}${browser}${pid(neo)}`);
    out(`redis  ${red.state.padEnd(8)} ${red.url}${pid(red)}`);
  }
  return 0;
}

const commands = { up, down, status };

try {
  process.exitCode = await commands[command]();
} catch (err) {
  reportError(err);
  process.exitCode = 1;
}
