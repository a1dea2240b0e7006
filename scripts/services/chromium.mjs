// The headless browser the Neo4j Browser check drives (test/integration/browser-guide.test.ts):
// Debian's `chromium`, installed with apt-get when missing (as root), never downloaded by a driver.
// CHROMIUM_PATH names another Chromium or Chrome binary.
//
// node: built-ins only.

import fs from 'node:fs';

import { ServiceError, toLogger } from './common.mjs';
import { aptInstall, canApt, which } from './system.mjs';

const CANDIDATES = ['chromium', 'chromium-browser', '/usr/bin/chromium'];

function findChromium() {
  if (process.env.CHROMIUM_PATH) return fs.existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : null;
  for (const c of CANDIDATES) {
    const found = which(c) ?? (c.startsWith('/') && fs.existsSync(c) ? c : null);
    if (found) return found;
  }
  return null;
}

/**
 * The path of a Chromium binary; installs Debian's `chromium` when there is none and apt-get can run.
 * @param {{log?: Function}} [opts]
 * @returns {Promise<string>}
 */
export async function ensureChromium({ log } = {}) {
  const say = toLogger(log);
  const found = findChromium();
  if (found) return found;
  if (process.env.CHROMIUM_PATH) {
    throw new ServiceError(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist`, {
      service: 'chromium',
      hint: 'point CHROMIUM_PATH at a Chromium binary, or unset it',
    });
  }
  if (!canApt()) {
    throw new ServiceError('chromium is not installed (the Neo4j Browser check needs it)', {
      service: 'chromium',
      hint: 'apt-get install chromium (as root), or set CHROMIUM_PATH to a Chromium binary',
    });
  }
  say("chromium: not installed, installing Debian's chromium with apt-get (for the Neo4j Browser check)…");
  await aptInstall(['chromium'], { log: (m) => say(`chromium: ${m}`) });
  const bin = findChromium();
  if (!bin)
    throw new ServiceError('chromium is still missing after apt-get install', {
      service: 'chromium',
      hint: 'apt-get install chromium',
    });
  return bin;
}
