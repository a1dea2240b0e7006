// A local Neo4j Community Server 2026.08 (on Java 21 or 25) assembled from Maven Central, run through lifecycle.mjs.
//
//   home   <data>/neo4j/        (data/ logs/ conf/ lib/ run/ plugins/ import/)
//   jars   services/neo4j/pom.xml → mvn dependency:copy-dependencies → <home>/lib   (neo4j-install.mjs)
//   start  java <flags> -cp … org.neo4j.server.Neo4jCommunity, detached, pid in run/neo4j.pid
//          (neo4j-launch.mjs)
//   ready  neo4j-driver connects over Bolt, and the HTTP port answers (the Browser's)
//
// NEO4J_URI set → an external server is used, nothing is started. Uses neo4j-driver: import it after `npm ci`.

import fs from 'node:fs';
import path from 'node:path';
import neo4j from 'neo4j-driver';

import { HOST, ServiceError, dataDir, envPort, envSeconds, localAuthEnabled, readSecret, sleep } from './common.mjs';
import { ensureService, serviceStatus, stopProcess, stopService } from './lifecycle.mjs';
import { ensureJava, ensureLib, libComplete } from './neo4j-install.mjs';
import {
  ENTRY_POINT,
  FORMER_ENTRY_POINTS,
  confAuthEnabled,
  logOffsets,
  prepareAuth,
  spawnNeo4j,
  writeConf,
} from './neo4j-launch.mjs';
import { isAlive, processArgv, terminate } from './process.mjs';
import { linesSince } from './system.mjs';

// 2026.x: the vector index takes the store as a filter property and Cypher 25's SEARCH filters inside the index
// (docs/recall.md). A store made by 5.26 is upgraded in place on the first start (db.format stays as it was).
export const NEO4J_VERSION = '2026.08.1';
export { HOST };
// Several checkouts on one machine each run their own servers on other ports (TOTAL_RECALL_DATA apart).
export const BOLT_PORT = envPort('TOTAL_RECALL_NEO4J_BOLT_PORT', 7687);
export const HTTP_PORT = envPort('TOTAL_RECALL_NEO4J_HTTP_PORT', 7474);
export const BOLT_URI = `bolt://${HOST}:${BOLT_PORT}`;
export const HTTP_URL = `http://${HOST}:${HTTP_PORT}/`;
export const BROWSER_URL = `http://${HOST}:${HTTP_PORT}/browser/`;
const PORTS = { bolt: BOLT_PORT, http: HTTP_PORT };

export function neo4jPaths() {
  const home = path.join(dataDir(), 'neo4j');
  return {
    home,
    conf: path.join(home, 'conf'),
    confFile: path.join(home, 'conf', 'neo4j.conf'),
    data: path.join(home, 'data'),
    logs: path.join(home, 'logs'),
    lib: path.join(home, 'lib'),
    libMarker: path.join(home, 'lib', '.pom-sha256'),
    plugins: path.join(home, 'plugins'),
    import: path.join(home, 'import'),
    run: path.join(home, 'run'),
    pidFile: path.join(home, 'run', 'neo4j.pid'),
    lockFile: path.join(home, 'run', 'neo4j.lock'),
    neo4jLog: path.join(home, 'logs', 'neo4j.log'),
    debugLog: path.join(home, 'logs', 'debug.log'),
    consoleLog: path.join(home, 'logs', 'console.log'),
    // The generated password of the local server's `neo4j` user (mode 0600).
    passwordFile: path.join(home, 'password'),
    systemDb: path.join(home, 'data', 'databases', 'system'),
  };
}

/** The password the running server takes: the generated one, when its conf turned authentication on. */
function localPassword(p = neo4jPaths()) {
  return confAuthEnabled(p) ? (readSecret(p.passwordFile) ?? '') : '';
}

/** A short-lived driver for one check: no retries, short timeouts, one connection. */
async function withDriver(password, fn) {
  const auth = password ? neo4j.auth.basic('neo4j', password) : undefined;
  const driver = neo4j.driver(BOLT_URI, auth, {
    connectionTimeout: 2000,
    connectionAcquisitionTimeout: 3000,
    maxConnectionPoolSize: 1,
    maxTransactionRetryTime: 0,
  });
  try {
    return await fn(driver);
  } finally {
    await driver.close().catch(() => undefined);
  }
}

/** Bolt answers (a refused password is an answer too: checkCredentials judges it) and HTTP answers 200. */
export async function neo4jReady(password = localPassword()) {
  const bolt = await withDriver(password, (driver) =>
    driver.verifyConnectivity().then(
      () => true,
      (error) => String(error?.code ?? '').startsWith('Neo.ClientError.Security.'),
    ),
  );
  if (!bolt) return false;
  try {
    return (await fetch(HTTP_URL, { signal: AbortSignal.timeout(2000) })).status === 200;
  } catch {
    return false;
  }
}

/**
 * Whether the server accepts user neo4j with this password (`RETURN 1` on the database). Right after a
 * start the password from set-initial-password may not be in place yet: asks again for up to `waitMs`.
 */
export async function checkCredentials(password, { waitMs = 30_000 } = {}) {
  const end = Date.now() + waitMs;
  for (;;) {
    const ok = await withDriver(password, (driver) =>
      driver.executeQuery('RETURN 1', {}, { database: 'neo4j' }).then(
        () => true,
        () => false,
      ),
    );
    if (ok) return true;
    if (Date.now() > end) return false;
    await sleep(500);
  }
}

/** Is pid a live Neo4j JVM of this home? */
function isOurNeo4j(pid, home) {
  if (!isAlive(pid)) return false;
  const argv = processArgv(pid);
  if (argv.length === 0) return true; // cannot inspect: trust the pid file
  const entry = [ENTRY_POINT, ...FORMER_ENTRY_POINTS].some((e) => argv.includes(e));
  return entry && argv.includes(`--home-dir=${home}`);
}

/** The log lines of this start (neo4j.log, else console.log) and the most telling one of them. */
function startupLog(p, offsets) {
  const main = linesSince(p.neo4jLog, offsets.neo4j, 30);
  const cons = linesSince(p.consoleLog, offsets.console, 30).filter((l) => !main.includes(l) && !l.startsWith('==='));
  const tail = main.length >= 30 ? main : [...main, ...cons].slice(-30);
  const fromConsole = cons.length > 0 && main.length < 30;
  const logFile =
    fromConsole && main.length === 0 ? p.consoleLog : fromConsole ? `${p.neo4jLog} + console.log` : p.neo4jLog;
  const telling =
    tail.find((l) => /\bERROR\b/.test(l)) ??
    tail.find((l) => /Exception|Error:|Invalid|invalid|Unrecognized/.test(l)) ??
    '';
  return { tail, telling: telling.trim(), logFile };
}

function localInfo(started, pid) {
  // With auth (every server this project creates), the password is the generated one under the data dir.
  const p = neo4jPaths();
  const password = localPassword(p);
  const auth = password !== '';
  // A server started without a password keeps running so until it is restarted (then it gets one).
  const authOnRestart = !auth && localAuthEnabled();
  return {
    uri: BOLT_URI,
    user: 'neo4j',
    password,
    auth,
    authOnRestart,
    passwordFile: p.passwordFile,
    browserUrl: BROWSER_URL,
    started,
    external: false,
    pid,
  };
}

/** The local Neo4j, as lifecycle.mjs runs it. */
function neo4jService() {
  const p = neo4jPaths();
  const logs = path.relative(process.cwd(), p.logs) || p.logs;
  return {
    name: 'neo4j',
    title: 'Neo4j',
    command: 'java',
    externalEnv: 'NEO4J_URI',
    external: () => ({
      display: process.env.NEO4J_URI,
      info: {
        uri: process.env.NEO4J_URI,
        user: process.env.NEO4J_USER ?? process.env.NEO4J_USERNAME ?? 'neo4j',
        password: process.env.NEO4J_PASSWORD ?? '',
        browserUrl: process.env.NEO4J_BROWSER_URL ?? null,
        started: false,
        external: true,
      },
    }),
    externalStatus: () => ({
      state: 'external',
      uri: process.env.NEO4J_URI,
      browserUrl: process.env.NEO4J_BROWSER_URL ?? null,
    }),
    dir: p.run,
    pidFile: p.pidFile,
    lockFile: p.lockFile,
    ports: [BOLT_PORT, HTTP_PORT],
    startTimeoutMs: envSeconds('NEO4J_START_TIMEOUT', 120) * 1000,
    isOurs: (pid) => isOurNeo4j(pid, p.home),
    ready: () => neo4jReady(),
    readyProbe: `on ${BOLT_URI} and ${HTTP_URL}`,
    async prepare(say) {
      const { java, version } = await ensureJava(NEO4J_VERSION, say);
      await ensureLib(p, NEO4J_VERSION, say);
      const auth = await prepareAuth(p, PORTS, java, say);
      writeConf(p, PORTS, auth, version);
      return { java, javaVersion: version, auth };
    },
    start: ({ java, javaVersion }) => spawnNeo4j(java, p, javaVersion),
    logMark: () => logOffsets(p),
    startupLog: (offsets) => startupLog(p, offsets),
    spawnHint: 'put a Java 21 or 25 under /usr/lib/jvm (e.g. Temurin 25), or set JAVA_HOME to one',
    deathHint: `fix the cause above (logs in ${logs}/), then run \`up\` again`,
    slowHint:
      'it may still be starting (e.g. recovering a large store): run `up` again to keep waiting, ' +
      'raise NEO4J_START_TIMEOUT (seconds), or `down` to stop it',
    async afterStart({ auth }, pid, say) {
      if (!auth || (await checkCredentials(readSecret(p.passwordFile) ?? ''))) return;
      await terminate(pid, { timeoutMs: 60_000, log: say, name: 'neo4j' });
      fs.rmSync(p.pidFile, { force: true });
      throw new ServiceError(
        `Neo4j refuses user neo4j with the password in ${p.passwordFile}: this store's neo4j user has another password`,
        {
          service: 'neo4j',
          hint:
            `put that password in ${p.passwordFile} (mode 0600), or start once with TOTAL_RECALL_LOCAL_AUTH=off ` +
            `and export, remove ${p.data}, import`,
        },
      );
    },
    readyNote: ({ auth }) => (auth ? ' (authentication on)' : ' (no authentication: TOTAL_RECALL_LOCAL_AUTH=off)'),
    onReuse(say) {
      if (fs.existsSync(p.libMarker) && !libComplete(p)) {
        say('neo4j: services/neo4j/pom.xml changed since this server was started; run `down` then `up` to apply it');
      }
    },
    info: localInfo,
    status: (state, pid) => ({ state, ...(pid ? { pid } : {}), uri: BOLT_URI, browserUrl: BROWSER_URL }),
    // SIGTERM: Neo4j shuts down cleanly on it; SIGKILL after NEO4J_SHUTDOWN_TIMEOUT.
    stop: (pid, say) =>
      stopProcess(pid, { name: 'neo4j', graceMs: envSeconds('NEO4J_SHUTDOWN_TIMEOUT', 60) * 1000, say }),
  };
}

/**
 * Make sure a Neo4j server is running and answering; start one if needed.
 * @param {{log?: Function, timeoutMs?: number}} [opts]
 * @returns {Promise<{uri: string, user: string, password: string, browserUrl: string|null, started: boolean,
 *   external: boolean, pid?: number}>}
 */
export const ensureNeo4j = (opts) => ensureService(neo4jService(), opts);

/** Stop the Neo4j named by our pid file: SIGTERM, up to NEO4J_SHUTDOWN_TIMEOUT (60) s, then SIGKILL. */
export const stopNeo4j = (opts) => stopService(neo4jService(), opts);

/** @returns {Promise<{state: 'external'|'running'|'starting'|'stopped', pid?: number, uri: string,
 *   browserUrl: string|null}>} */
export const neo4jStatus = () => serviceStatus(neo4jService());
