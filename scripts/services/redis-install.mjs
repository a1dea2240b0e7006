// Debian's redis-server for the local Redis: installed with apt-get when missing (as root). The package also
// starts a system Redis on 6379, which this project does not use: it is stopped again when it was not there.

import { HOST, ServiceError, sleep } from './common.mjs';
import { canConnect } from './process.mjs';
import { aptInstall, canApt, run, which, whichOrDebian } from './system.mjs';

/** Path of redis-server; installs Debian's package when root. */
export async function ensureRedisServer(say) {
  const found = whichOrDebian('redis-server');
  if (found) return found;
  if (!canApt()) {
    throw new ServiceError('redis-server is not installed', {
      service: 'redis',
      hint: 'apt-get install redis-server (as root), or set REDIS_URL to an existing Redis',
    });
  }
  const systemRedisBefore = await canConnect(6379, HOST, 300);
  say('redis: redis-server is not installed, installing it with apt-get…');
  await aptInstall(['redis-server'], { log: (m) => say(`redis: ${m}`) });
  if (!systemRedisBefore) await stopSystemRedis(say);
  const bin = whichOrDebian('redis-server');
  if (!bin) {
    throw new ServiceError('redis-server is still missing after apt-get install', {
      service: 'redis',
      hint: 'apt-get install redis-server, or set REDIS_URL',
    });
  }
  return bin;
}

/** The package starts a system Redis on 6379; we do not use it. Best effort, never fails. */
async function stopSystemRedis(say) {
  await sleep(300);
  if (!(await canConnect(6379, HOST, 300))) return;
  const tries = [
    ['systemctl', ['disable', '--now', 'redis-server']],
    ['service', ['redis-server', 'stop']],
    ['update-rc.d', ['redis-server', 'disable']],
  ];
  for (const [cmd, args] of tries) {
    if (!which(cmd)) continue;
    try {
      await run(cmd, args);
    } catch {
      /* ignore */
    }
    if (!(await canConnect(6379, HOST, 300))) break;
  }
  say(
    (await canConnect(6379, HOST, 300))
      ? 'redis: note: the system Redis the package started on 6379 is still running (unused by us)'
      : 'redis: stopped the system Redis the package started on 6379 (we use our own on 6380)',
  );
}
