// Provision and run a local Neo4j Community Server 5.26 (LTS) assembled from Maven Central.
//
//   home   <data>/neo4j/        (data/ logs/ conf/ lib/ run/ plugins/ import/)
//   jars   services/neo4j/pom.xml → mvn dependency:copy-dependencies → <home>/lib
//          (re-run only when the pom's SHA-256 differs from <home>/lib/.pom-sha256)
//   start  java <flags> -cp … org.neo4j.server.CommunityEntryPoint, detached, pid in run/neo4j.pid
//
// Plain Node ESM, node: built-ins only. NEO4J_URI set → an external server is used, nothing is started.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

import {
  ServiceError,
  aptHasCandidate,
  aptInstall,
  canApt,
  canConnect,
  dataDir,
  describeOwner,
  ensureSecret,
  envPort,
  localAuthEnabled,
  envSeconds,
  fileSize,
  findPortOwner,
  httpGet,
  isAlive,
  waitOrphanPortReleased,
  lastLine,
  linesSince,
  processArgv,
  projectRoot,
  readPid,
  readSecret,
  removeFile,
  run,
  sha256File,
  sleep,
  terminate,
  toLogger,
  which,
  withLock,
  writePid,
} from './common.mjs';

export const NEO4J_VERSION = '5.26.30';
export const HOST = '127.0.0.1';
// Several checkouts on one machine each run their own servers on other ports (TOTAL_RECALL_DATA apart).
export const BOLT_PORT = envPort('TOTAL_RECALL_NEO4J_BOLT_PORT', 7687);
export const HTTP_PORT = envPort('TOTAL_RECALL_NEO4J_HTTP_PORT', 7474);
export const POM = path.join(projectRoot, 'services', 'neo4j', 'pom.xml');
const ENTRY_POINT = 'org.neo4j.server.CommunityEntryPoint';

/**
 * Hosts Neo4j Browser may fetch guides and styles from (`:guide <url>`, `:style <url>`): Neo4j's
 * defaults plus the loopback address the project's GraphQL server serves its guide on (/browser/).
 */
export const BROWSER_CONTENT_HOSTS = ['guides.neo4j.com', 'localhost', HOST];

/** Memory for a 2-core / 24 GiB box that also runs tests and ~1M-node benchmarks. */
export const MEMORY = { heapInitial: '1g', heapMax: '3g', pageCache: '3g' };
/** Vector index segments merged at a time (Neo4j's default 50; see writeConf). */
export const VECTOR_MERGE_FACTOR = 4;

/**
 * JVM flags. These are the `server.jvm.additional` defaults of the 5.26 distribution's conf/neo4j.conf
 * (the bin/neo4j bootloader passes them), plus what the bootloader adds itself: -Xms/-Xmx from
 * server.memory.heap.* and -Dfile.encoding=UTF-8 (org.neo4j.server.startup.BootloaderOsAbstraction).
 */
export const JVM_ADDITIONAL = [
  '-XX:+UseG1GC',
  '-XX:-OmitStackTraceInFastThrow',
  '-XX:+AlwaysPreTouch',
  '-XX:+UnlockExperimentalVMOptions',
  '-XX:+TrustFinalNonStaticFields',
  '-XX:+DisableExplicitGC',
  '-Djdk.nio.maxCachedBufferSize=1024',
  '-Dio.netty.tryReflectionSetAccessible=true',
  '-Djdk.tls.ephemeralDHKeySize=2048',
  '-Djdk.tls.rejectClientInitiatedRenegotiation=true',
  '-XX:FlightRecorderOptions=stackdepth=256',
  '-XX:+UnlockDiagnosticVMOptions',
  '-XX:+DebugNonSafepoints',
  '--add-opens=java.base/java.nio=ALL-UNNAMED',
  '--add-opens=java.base/java.io=ALL-UNNAMED',
  '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
  '--enable-native-access=ALL-UNNAMED',
  '-Dlog4j2.disable.jmx=true',
  '-Dlog4j.layout.jsonTemplate.maxStringLength=32768',
];

export const BOLT_URI = `bolt://${HOST}:${BOLT_PORT}`;
export const HTTP_URL = `http://${HOST}:${HTTP_PORT}/`;
export const BROWSER_URL = `http://${HOST}:${HTTP_PORT}/browser/`;

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

function externalInfo() {
  return {
    uri: process.env.NEO4J_URI,
    user: process.env.NEO4J_USER ?? process.env.NEO4J_USERNAME ?? 'neo4j',
    password: process.env.NEO4J_PASSWORD ?? '',
    browserUrl: process.env.NEO4J_BROWSER_URL ?? null,
    started: false,
    external: true,
  };
}

function localInfo(started, pid) {
  // With auth (every server this project creates), the password is the generated one under the data dir.
  const p = neo4jPaths();
  const password = confAuthEnabled(p) ? (readSecret(p.passwordFile) ?? '') : '';
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

/** Whether the conf the server runs with (written at its start) turns authentication on. */
function confAuthEnabled(p) {
  try {
    return /^dbms\.security\.auth_enabled=true$/m.test(fs.readFileSync(p.confFile, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Authentication for this start (on unless TOTAL_RECALL_LOCAL_AUTH=off). A
 * store without a password of ours gets one (the one on file, else a new one,
 * mode 0600), set with `neo4j-admin dbms set-initial-password` before the
 * start: a new store (also one whose data folder was removed, the password
 * file kept), and a store first run without authentication, whose `neo4j`
 * user still has the default password, which Neo4j then replaces at start
 * (checkCredentials confirms it took).
 */
async function prepareAuth(p, java, say) {
  if (!localAuthEnabled()) return false;
  const known = readSecret(p.passwordFile);
  const existing = fs.existsSync(p.systemDb);
  if (known && existing) return true;
  const password = ensureSecret(p.passwordFile);
  writeConf(p, true);
  const r = await run(
    java,
    ['-cp', path.join(p.lib, '*'), 'org.neo4j.cli.AdminTool', 'dbms', 'set-initial-password', password],
    {
      cwd: p.home,
      env: { ...process.env, NEO4J_HOME: p.home, NEO4J_CONF: p.conf },
    },
  );
  if (r.code !== 0) {
    if (!known) removeFile(p.passwordFile);
    throw new ServiceError(`could not set the initial Neo4j password: ${lastLine(`${r.stderr}\n${r.stdout}`)}`, {
      service: 'neo4j',
      hint: 'see the message above',
    });
  }
  const file = `${p.passwordFile} (mode 0600)`;
  if (existing)
    say(
      `neo4j: this store ran without a password; authentication is on from this start (user neo4j, password in ${file})`,
    );
  else if (known) say(`neo4j: a new store: user neo4j gets the password kept in ${file}`);
  else say(`neo4j: generated a password for user neo4j in ${file}`);
  return true;
}

/**
 * Whether the server accepts user neo4j with this password (HTTP API, so no
 * driver is needed). Right after a start the password from set-initial-password
 * may not be in place yet: asks again for up to `waitMs`.
 */
export async function checkCredentials(password, { waitMs = 30_000 } = {}) {
  const end = Date.now() + waitMs;
  for (;;) {
    if ((await credentialsStatus(password)) === 200) return true;
    if (Date.now() > end) return false;
    await sleep(500);
  }
}

/** The HTTP status of one authenticated request: 200 accepted, 401 refused, 0 no answer. */
function credentialsStatus(password, { port = HTTP_PORT, host = HOST, timeoutMs = 5000 } = {}) {
  const body = JSON.stringify({ statements: [{ statement: 'RETURN 1' }] });
  const auth = Buffer.from(`neo4j:${password}`).toString('base64');
  return new Promise((resolve) => {
    const req = http.request(
      {
        host,
        port,
        path: '/db/neo4j/tx/commit',
        method: 'POST',
        timeout: timeoutMs,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Basic ${auth}`,
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/** Is pid a live Neo4j JVM of this home? */
function isOurNeo4j(pid, home) {
  if (!isAlive(pid)) return false;
  const argv = processArgv(pid);
  if (argv.length === 0) return true; // cannot inspect: trust the pid file
  return argv.includes(ENTRY_POINT) && argv.includes(`--home-dir=${home}`);
}

/**
 * Bolt handshake: magic 0x6060B017 + four proposed versions (5.x range, 4.4, 4.x, 3);
 * the server answers with the version it picked. Resolves e.g. '5.4', or null.
 */
export function boltHandshake(port = BOLT_PORT, host = HOST, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host });
    let buf = Buffer.alloc(0);
    const done = (v) => {
      sock.destroy();
      resolve(v);
    };
    sock.setTimeout(timeoutMs, () => done(null));
    sock.once('error', () => done(null));
    sock.once('close', () => done(null));
    sock.once('connect', () => {
      sock.write(
        Buffer.from([
          0x60,
          0x60,
          0xb0,
          0x17, // magic
          0x00,
          0x08,
          0x08,
          0x05, // 5.8 … 5.0
          0x00,
          0x00,
          0x04,
          0x04, // 4.4
          0x00,
          0x02,
          0x03,
          0x04, // 4.3 … 4.1
          0x00,
          0x00,
          0x00,
          0x03, // 3
        ]),
      );
    });
    sock.on('data', (c) => {
      buf = Buffer.concat([buf, c]);
      if (buf.length >= 4) {
        const v = buf.readUInt32BE(0);
        done(v === 0 ? null : `${v & 0xff}.${(v >> 8) & 0xff}`);
      }
    });
  });
}

/** Bolt completes its handshake and the HTTP discovery endpoint answers 200. */
export async function neo4jReady() {
  if (!(await boltHandshake())) return false;
  try {
    const r = await httpGet(HTTP_URL, 2000);
    return r.status === 200;
  } catch {
    return false;
  }
}

/**
 * Make sure a Neo4j server is running and answering; start one if needed.
 * @param {{log?: Function, timeoutMs?: number}} [opts]
 * @returns {Promise<{uri: string, user: string, password: string, browserUrl: string|null, started: boolean, external: boolean, pid?: number}>}
 */
export async function ensureNeo4j({ log, timeoutMs } = {}) {
  const say = toLogger(log);
  if (process.env.NEO4J_URI) {
    say(`neo4j: NEO4J_URI is set, using the external server ${process.env.NEO4J_URI}`);
    return externalInfo();
  }
  const p = neo4jPaths();
  const timeout = timeoutMs ?? envSeconds('NEO4J_START_TIMEOUT', 120) * 1000;
  fs.mkdirSync(p.run, { recursive: true });

  return withLock(
    p.lockFile,
    async () => {
      // 1. Ours already running (or starting, by another `up`)?
      const pid = readPid(p.pidFile);
      if (pid && isOurNeo4j(pid, p.home)) {
        if (!(await neo4jReady())) {
          say(`neo4j: pid ${pid} is running but not answering yet, waiting…`);
          await waitReady({ pid, timeout, paths: p, logOffsets: logOffsets(p), child: null });
        }
        warnIfPomChanged(p, say);
        return localInfo(false, pid);
      }
      if (pid) removeFile(p.pidFile); // stale pid file

      // 2. Ports free? (An orphan of ours whose pid file got lost is adopted.)
      for (const port of [BOLT_PORT, HTTP_PORT]) {
        if (!(await canConnect(port, HOST, 500))) continue;
        const owner = findPortOwner(port);
        // Our server killed a moment ago (kill -9) may still hold its ports while it exits.
        if (!owner?.pid || !isAlive(owner.pid)) {
          if (await waitOrphanPortReleased(port)) continue;
        }
        if (owner?.pid && isOurNeo4j(owner.pid, p.home)) {
          say(`neo4j: found our server running without a pid file (pid ${owner.pid}), reusing it`);
          writePid(p.pidFile, owner.pid);
          await waitReady({ pid: owner.pid, timeout, paths: p, logOffsets: logOffsets(p), child: null });
          return localInfo(false, owner.pid);
        }
        const who = describeOwner(owner);
        throw new ServiceError(`port ${port} is held by another process${who ? ` (${who})` : ''}`, {
          service: 'neo4j',
          hint: `stop it${owner?.pid ? ` (kill ${owner.pid})` : ''}, or set NEO4J_URI to use the server already there`,
        });
      }

      // 3. Start.
      const java = await ensureJava(say);
      await ensureLib(p, say);
      const auth = await prepareAuth(p, java, say);
      writeConf(p, auth);
      const started = Date.now();
      const { child, offsets } = spawnNeo4j(java, p);
      say(`neo4j: started pid ${child.pid}, waiting for bolt ${BOLT_URI} (timeout ${Math.round(timeout / 1000)} s)…`);
      await waitReady({ pid: child.pid, timeout, paths: p, logOffsets: offsets, child });
      if (auth && !(await checkCredentials(readSecret(p.passwordFile) ?? ''))) {
        await terminate(child.pid, { timeoutMs: 60_000, log: say, name: 'neo4j' });
        removeFile(p.pidFile);
        throw new ServiceError(
          `Neo4j refuses user neo4j with the password in ${p.passwordFile}: this store's neo4j user has another password`,
          {
            service: 'neo4j',
            hint: `put that password in ${p.passwordFile} (mode 0600), or start once with TOTAL_RECALL_LOCAL_AUTH=off and export, remove ${p.data}, import`,
          },
        );
      }
      say(
        `neo4j: ready in ${((Date.now() - started) / 1000).toFixed(1)} s${auth ? ' (authentication on)' : ' (no authentication: TOTAL_RECALL_LOCAL_AUTH=off)'}`,
      );
      return localInfo(true, child.pid);
    },
    { log: say, what: 'the neo4j start lock' },
  );
}

/**
 * Stop the Neo4j named by our pid file: SIGTERM, up to NEO4J_SHUTDOWN_TIMEOUT (60) s, then SIGKILL.
 * @returns {Promise<boolean>} whether a process was stopped
 */
export async function stopNeo4j({ log } = {}) {
  const say = toLogger(log);
  if (process.env.NEO4J_URI) {
    say('neo4j: NEO4J_URI is set (external server), nothing to stop');
    return false;
  }
  const p = neo4jPaths();
  if (!fs.existsSync(p.home)) return false;
  return withLock(
    p.lockFile,
    async () => {
      const pid = readPid(p.pidFile);
      if (!pid || !isOurNeo4j(pid, p.home)) {
        removeFile(p.pidFile);
        return false;
      }
      say(`neo4j: stopping pid ${pid}…`);
      const how = await terminate(pid, {
        timeoutMs: envSeconds('NEO4J_SHUTDOWN_TIMEOUT', 60) * 1000,
        log: say,
        name: 'neo4j',
      });
      removeFile(p.pidFile);
      say(`neo4j: ${how === 'killed' ? 'killed' : 'stopped'}`);
      return true;
    },
    { log: say, what: 'the neo4j start lock' },
  );
}

/** @returns {Promise<{state: 'external'|'running'|'starting'|'stopped', pid?: number, uri: string, browserUrl: string|null}>} */
export async function neo4jStatus() {
  if (process.env.NEO4J_URI) {
    return { state: 'external', uri: process.env.NEO4J_URI, browserUrl: process.env.NEO4J_BROWSER_URL ?? null };
  }
  const p = neo4jPaths();
  const pid = readPid(p.pidFile);
  if (pid && isOurNeo4j(pid, p.home)) {
    return { state: (await neo4jReady()) ? 'running' : 'starting', pid, uri: BOLT_URI, browserUrl: BROWSER_URL };
  }
  return { state: 'stopped', uri: BOLT_URI, browserUrl: BROWSER_URL };
}

// ---------------------------------------------------------------- java / maven

async function javaFeatureVersion(java) {
  const r = await run(java, ['-version']);
  const m = /version "(\d+)(?:\.(\d+))?/.exec(r.stderr + r.stdout);
  if (!m) return null;
  const major = Number(m[1]);
  return major === 1 ? Number(m[2]) : major; // "1.8.0" → 8
}

/** A java binary of version 17 or 21 (Neo4j 5.26's supported runtimes). Installs one if root. */
async function ensureJava(say) {
  const candidates = [];
  if (process.env.JAVA_HOME) candidates.push(path.join(process.env.JAVA_HOME, 'bin', 'java'));
  const onPath = which('java');
  if (onPath) candidates.push(onPath);
  for (const v of ['17', '21']) {
    try {
      for (const d of fs.readdirSync('/usr/lib/jvm')) {
        if (d.startsWith(`java-${v}-`)) candidates.push(path.join('/usr/lib/jvm', d, 'bin', 'java'));
      }
    } catch {
      /* no /usr/lib/jvm */
    }
  }
  let seen = null;
  for (const c of candidates) {
    if (!which(c)) continue;
    const v = await javaFeatureVersion(c);
    if (v === 17 || v === 21) return c;
    seen ??= { c, v };
  }
  const pkg = 'openjdk-17-jre-headless';
  if (canApt()) {
    const chosen = (await aptHasCandidate(pkg)) ? pkg : 'openjdk-21-jre-headless';
    say(`neo4j: no Java 17/21 found${seen ? ` (${seen.c} is Java ${seen.v})` : ''}, installing ${chosen}…`);
    await aptInstall([chosen], { log: (m) => say(`neo4j: ${m}`) });
    return ensureJavaInstalled();
  }
  throw new ServiceError(
    seen ? `Neo4j ${NEO4J_VERSION} needs Java 17 or 21, found Java ${seen.v} (${seen.c})` : 'java is not installed',
    { service: 'neo4j', hint: `apt-get install ${pkg} maven (as root), or set JAVA_HOME to a Java 17/21` },
  );
}

async function ensureJavaInstalled() {
  for (const v of ['17', '21']) {
    try {
      for (const d of fs.readdirSync('/usr/lib/jvm')) {
        const j = path.join('/usr/lib/jvm', d, 'bin', 'java');
        if (d.startsWith(`java-${v}-`) && which(j)) return j;
      }
    } catch {
      /* fall through */
    }
  }
  throw new ServiceError('Java 17/21 is still missing after apt-get install', {
    service: 'neo4j',
    hint: 'apt-get install openjdk-17-jre-headless, or set JAVA_HOME to a Java 17/21',
  });
}

async function ensureMaven(say) {
  const mvn = which('mvn');
  if (mvn) return mvn;
  if (canApt()) {
    say('neo4j: mvn is not installed, installing maven…');
    await aptInstall(['maven'], { log: (m) => say(`neo4j: ${m}`) });
    const again = which('mvn') ?? (fs.existsSync('/usr/bin/mvn') ? '/usr/bin/mvn' : null);
    if (again) return again;
  }
  throw new ServiceError('mvn (Maven) is not installed; it is needed once to fetch the Neo4j jars', {
    service: 'neo4j',
    hint: 'apt-get install maven openjdk-17-jre-headless (as root)',
  });
}

function libComplete(p) {
  try {
    return fs.readFileSync(p.libMarker, 'utf8').trim() === sha256File(POM);
  } catch {
    return false;
  }
}

function warnIfPomChanged(p, say) {
  if (fs.existsSync(p.libMarker) && !libComplete(p)) {
    say('neo4j: services/neo4j/pom.xml changed since this server was started; run `down` then `up` to apply it');
  }
}

/** Copy the pom's runtime dependencies into <home>/lib, unless the marker says they are there. */
async function ensureLib(p, say) {
  if (libComplete(p)) return;
  const mvn = await ensureMaven(say);
  const tmp = `${p.lib}.partial`;
  fs.rmSync(tmp, { recursive: true, force: true });
  say(`neo4j: fetching Neo4j ${NEO4J_VERSION} jars with Maven (~140 MB, downloaded into ~/.m2 unless cached there)…`);
  const t0 = Date.now();
  const r = await run(mvn, ['-B', '-q', '-f', POM, 'dependency:copy-dependencies', `-DoutputDirectory=${tmp}`], {
    cwd: path.dirname(POM),
  });
  const jars = fs.existsSync(tmp) ? fs.readdirSync(tmp).filter((f) => f.endsWith('.jar')) : [];
  if (r.code !== 0 || !jars.some((f) => f === `neo4j-${NEO4J_VERSION}.jar`)) {
    fs.rmSync(tmp, { recursive: true, force: true });
    const out = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => l.trim());
    const cause = out.find((l) => /\[ERROR\]/.test(l)) ?? lastLine(out.join('\n'));
    throw new ServiceError(`mvn could not fetch the Neo4j jars (exit ${r.code}): ${cause}`, {
      service: 'neo4j',
      hint: 'check that Maven Central is reachable (and ~/.m2/settings.xml), then run `up` again',
      logTail: out.slice(-30),
    });
  }
  fs.rmSync(p.lib, { recursive: true, force: true });
  fs.renameSync(tmp, p.lib);
  fs.writeFileSync(p.libMarker, `${sha256File(POM)}\n`);
  say(
    `neo4j: ${jars.length} jars in ${path.relative(projectRoot, p.lib) || p.lib} (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
  );
}

// ---------------------------------------------------------------- config / process

function writeConf(p, auth) {
  for (const d of [p.conf, p.data, p.logs, p.plugins, p.import, p.run]) fs.mkdirSync(d, { recursive: true });
  const lines = [
    '# Written by scripts/services/neo4j.mjs on every start: edit that file, not this one.',
    '',
    '# Network: loopback only, no TLS; a generated password (see prepareAuth), and',
    "# HTTP answers web pages of the Browser's own origin only (Neo4j's default is any).",
    `server.default_listen_address=${HOST}`,
    `server.default_advertised_address=${HOST}`,
    'server.bolt.enabled=true',
    `server.bolt.listen_address=${HOST}:${BOLT_PORT}`,
    `server.bolt.advertised_address=${HOST}:${BOLT_PORT}`,
    'server.http.enabled=true',
    `server.http.listen_address=${HOST}:${HTTP_PORT}`,
    `server.http.advertised_address=${HOST}:${HTTP_PORT}`,
    'server.https.enabled=false',
    `dbms.security.auth_enabled=${auth ? 'true' : 'false'}`,
    `dbms.security.http_access_control_allow_origin=http://${HOST}:${HTTP_PORT}`,
    'dbms.usage_report.enabled=false',
    '',
    '# Neo4j Browser: the project serves its guide and style (GraSS) on HOST; the Browser',
    '# fetches remote content only from hosts on this list (5.26 still names it "whitelist").',
    `browser.remote_content_hostname_whitelist=${BROWSER_CONTENT_HOSTS.join(',')}`,
    '',
    '# Directories',
    `server.directories.data=${p.data}`,
    `server.directories.logs=${p.logs}`,
    `server.directories.lib=${p.lib}`,
    `server.directories.plugins=${p.plugins}`,
    `server.directories.import=${p.import}`,
    `server.directories.run=${p.run}`,
    '',
    '# Memory (2 cores / 24 GiB shared with tests and benchmarks)',
    `server.memory.heap.initial_size=${MEMORY.heapInitial}`,
    `server.memory.heap.max_size=${MEMORY.heapMax}`,
    `server.memory.pagecache.size=${MEMORY.pageCache}`,
    '',
    '# Transaction logs: keep little',
    'db.tx_log.rotation.size=64M',
    'db.tx_log.rotation.retention_policy=256M size',
    '',
    '# Vector index segments: Neo4j 5 merges them only once 50 (1,000 while the index',
    "# is built) of a size have piled up, and a search walks every segment's graph.",
    '# A store grown by the embedding job had 72 segments and recall p95 37 ms at 100k',
    '# memories (docs/recall.md); merging every 4 keeps them few.',
    `internal.dbms.index.vector.standard_merge_factor=${VECTOR_MERGE_FACTOR}`,
    `internal.dbms.index.vector.population_merge_factor=${VECTOR_MERGE_FACTOR}`,
    '',
    '# JVM flags (informational: neo4j.mjs passes the same list on the java command line)',
    ...JVM_ADDITIONAL.map((f) => `server.jvm.additional=${f}`),
    '',
  ];
  fs.writeFileSync(p.confFile, lines.join('\n'));
}

function javaArgs(p) {
  const cp = [path.join(p.plugins, '*'), path.join(p.conf, '*'), path.join(p.lib, '*')].join(path.delimiter);
  return [
    '-cp',
    cp,
    ...JVM_ADDITIONAL,
    `-Xms${MEMORY.heapInitial}`,
    `-Xmx${MEMORY.heapMax}`,
    '-Dfile.encoding=UTF-8',
    ENTRY_POINT,
    `--home-dir=${p.home}`,
    `--config-dir=${p.conf}`,
  ];
}

function logOffsets(p) {
  return { neo4j: fileSize(p.neo4jLog), console: fileSize(p.consoleLog) };
}

function spawnNeo4j(java, p) {
  const offsets = logOffsets(p);
  const out = fs.openSync(p.consoleLog, 'a');
  fs.writeSync(out, `\n=== ${new Date().toISOString()} starting: ${java} ${javaArgs(p).join(' ')}\n`);
  offsets.console = fileSize(p.consoleLog);
  let child;
  try {
    child = spawn(java, javaArgs(p), {
      cwd: p.home,
      detached: true,
      stdio: ['ignore', out, out],
      env: { ...process.env, NEO4J_HOME: p.home, NEO4J_CONF: p.conf },
    });
  } finally {
    fs.closeSync(out);
  }
  child.exitInfo = null;
  child.on('exit', (code, signal) => (child.exitInfo = { code, signal }));
  child.on('error', (err) => (child.exitInfo = { code: null, signal: null, err }));
  child.unref();
  if (child.pid) writePid(p.pidFile, child.pid);
  return { child, offsets };
}

/** The log lines of this start and the most telling one of them. */
function startupLog(p, offsets) {
  const main = linesSince(p.neo4jLog, offsets.neo4j, 30);
  const cons = linesSince(p.consoleLog, offsets.console, 30).filter((l) => !main.includes(l));
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

async function waitReady({ pid, timeout, paths: p, logOffsets: offsets, child }) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    let exited = child?.exitInfo ?? (isAlive(pid) ? null : {});
    if (exited) {
      removeFile(p.pidFile);
      if (exited.err) {
        throw new ServiceError(`could not run java: ${exited.err.message}`, {
          service: 'neo4j',
          hint: 'apt-get install openjdk-17-jre-headless, or set JAVA_HOME',
        });
      }
      await sleep(200); // let the last log lines land (and the exit status arrive)
      if (child?.exitInfo) exited = child.exitInfo;
      const { tail, telling, logFile: shown } = startupLog(p, offsets);
      const how = exited.signal
        ? `signal ${exited.signal}`
        : exited.code != null
          ? `exit code ${exited.code}`
          : 'exited';
      throw new ServiceError(`Neo4j stopped during startup (${how})${telling ? `: ${telling}` : ''}`, {
        service: 'neo4j',
        hint: `fix the cause above (logs in ${path.relative(process.cwd(), p.logs) || p.logs}/), then run \`up\` again`,
        logFile: shown,
        logTail: tail,
      });
    }
    if (await neo4jReady()) return;
    await sleep(250);
  }
  const { tail, logFile: shown } = startupLog(p, offsets);
  throw new ServiceError(
    `Neo4j (pid ${pid}) did not answer on ${BOLT_URI} and ${HTTP_URL} within ${Math.round(timeout / 1000)} s`,
    {
      service: 'neo4j',
      hint: 'it may still be starting (e.g. recovering a large store): run `up` again to keep waiting, raise NEO4J_START_TIMEOUT (seconds), or `down` to stop it',
      logFile: shown,
      logTail: tail,
    },
  );
}
