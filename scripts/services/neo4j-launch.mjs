// How the local Neo4j is configured and launched: conf/neo4j.conf (written on every start), the JVM flags, the
// generated password set before the first start, and the detached java process itself.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { HOST, ServiceError, ensureSecret, lastLine, localAuthEnabled, readSecret, removeFile } from './common.mjs';
import { writePid } from './process.mjs';
import { fileSize, run } from './system.mjs';

export const ENTRY_POINT = 'org.neo4j.server.Neo4jCommunity';
/** The entry points of earlier versions (5.26's): a server they started is still ours to stop. */
export const FORMER_ENTRY_POINTS = ['org.neo4j.server.CommunityEntryPoint'];

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
 * JVM flags. These are the `server.jvm.additional` defaults of the distribution's conf/neo4j.conf (the bin/neo4j
 * bootloader passes them), plus what the bootloader adds itself: -Xms/-Xmx from server.memory.heap.* and
 * -Dfile.encoding=UTF-8 (org.neo4j.server.startup.BootloaderOsAbstraction); see jvmFlags for the ones that
 * depend on the Java version.
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
  // Lucene's SIMD distance functions (the vector index): without the module, scalar Java.
  '--add-modules=jdk.incubator.vector',
];

/** Flags only Java 25 knows (Neo4j's own build passes them on 25): smaller object headers, and no warning each
 * start about the sun.misc.Unsafe memory access Netty and Lucene still use. */
export const JVM_25 = ['-XX:+UseCompactObjectHeaders', '--sun-misc-unsafe-memory-access=allow'];

/** The flags for this Java (feature version, e.g. 25). */
export function jvmFlags(javaVersion) {
  return [...JVM_ADDITIONAL, ...(javaVersion >= 25 ? JVM_25 : [])];
}

/** Whether the conf the server runs with (written at its start) turns authentication on. */
export function confAuthEnabled(p) {
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
 * (the credentials check after the start confirms it took).
 */
export async function prepareAuth(p, ports, java, say) {
  if (!localAuthEnabled()) return false;
  const known = readSecret(p.passwordFile);
  const existing = fs.existsSync(p.systemDb);
  if (known && existing) return true;
  const password = ensureSecret(p.passwordFile);
  writeConf(p, ports, true);
  const r = await run(
    java,
    ['-cp', path.join(p.lib, '*'), 'org.neo4j.cli.AdminTool', 'dbms', 'set-initial-password', password],
    { cwd: p.home, env: { ...process.env, NEO4J_HOME: p.home, NEO4J_CONF: p.conf } },
  );
  if (r.code !== 0) {
    if (!known) removeFile(p.passwordFile);
    throw new ServiceError(`could not set the initial Neo4j password: ${lastLine(`${r.stderr}\n${r.stdout}`)}`, {
      service: 'neo4j',
      hint: 'see the message above',
    });
  }
  const file = `${p.passwordFile} (mode 0600)`;
  if (existing) {
    say(
      'neo4j: this store ran without a password; ' +
        `authentication is on from this start (user neo4j, password in ${file})`,
    );
  } else if (known) say(`neo4j: a new store: user neo4j gets the password kept in ${file}`);
  else say(`neo4j: generated a password for user neo4j in ${file}`);
  return true;
}

/** conf/neo4j.conf for this start; `ports` is {bolt, http}; `javaVersion` the Java it runs on. */
export function writeConf(p, ports, auth, javaVersion = 21) {
  for (const d of [p.conf, p.data, p.logs, p.plugins, p.import, p.run]) fs.mkdirSync(d, { recursive: true });
  const lines = [
    '# Written by scripts/services/neo4j-launch.mjs on every start: edit that file, not this one.',
    '',
    '# Network: loopback only, no TLS; a generated password (see prepareAuth), and',
    "# HTTP answers web pages of the Browser's own origin only (Neo4j's default is any).",
    `server.default_listen_address=${HOST}`,
    `server.default_advertised_address=${HOST}`,
    'server.bolt.enabled=true',
    `server.bolt.listen_address=${HOST}:${ports.bolt}`,
    `server.bolt.advertised_address=${HOST}:${ports.bolt}`,
    'server.http.enabled=true',
    `server.http.listen_address=${HOST}:${ports.http}`,
    `server.http.advertised_address=${HOST}:${ports.http}`,
    'server.https.enabled=false',
    `dbms.security.auth_enabled=${auth ? 'true' : 'false'}`,
    `dbms.security.http_access_control_allow_origin=http://${HOST}:${ports.http}`,
    'dbms.usage_report.enabled=false',
    '',
    '# Neo4j Browser: the project serves its guide and style (GraSS) on HOST; the Browser',
    '# fetches remote content only from hosts on this list (2026.08 still names it "whitelist").',
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
    '# Vector index segments: Neo4j merges them only once 50 (100 while the index is',
    '# built; 1,000 in 5.26) of a size have piled up (merge policy LOG_BYTE_SIZED, still',
    "# 2026.08's default), and a search walks every segment's graph.",
    '# A store grown by the embedding job had 72 segments and recall p95 37 ms at 100k',
    '# memories (docs/recall.md); merging every 4 keeps them few.',
    `internal.dbms.index.vector.standard_merge_factor=${VECTOR_MERGE_FACTOR}`,
    `internal.dbms.index.vector.population_merge_factor=${VECTOR_MERGE_FACTOR}`,
    '',
    '# JVM flags (informational: neo4j-launch.mjs passes the same list on the java command line)',
    ...jvmFlags(javaVersion).map((f) => `server.jvm.additional=${f}`),
    '',
  ];
  fs.writeFileSync(p.confFile, lines.join('\n'));
}

function javaArgs(p, javaVersion) {
  const cp = [path.join(p.plugins, '*'), path.join(p.conf, '*'), path.join(p.lib, '*')].join(path.delimiter);
  return [
    '-cp',
    cp,
    ...jvmFlags(javaVersion),
    `-Xms${MEMORY.heapInitial}`,
    `-Xmx${MEMORY.heapMax}`,
    '-Dfile.encoding=UTF-8',
    ENTRY_POINT,
    `--home-dir=${p.home}`,
    `--config-dir=${p.conf}`,
  ];
}

/** Where this start's log lines begin in neo4j.log and console.log. */
export function logOffsets(p) {
  return { neo4j: fileSize(p.neo4jLog), console: fileSize(p.consoleLog) };
}

/**
 * The JVM, detached, its output appended to console.log, its pid in our pid file.
 * @returns {{pid: () => number|undefined, exited: () => object|null}} a handle for lifecycle.mjs
 */
export function spawnNeo4j(java, p, javaVersion) {
  const out = fs.openSync(p.consoleLog, 'a');
  fs.writeSync(out, `\n=== ${new Date().toISOString()} starting: ${java} ${javaArgs(p, javaVersion).join(' ')}\n`);
  let child;
  try {
    child = spawn(java, javaArgs(p, javaVersion), {
      cwd: p.home,
      detached: true,
      stdio: ['ignore', out, out],
      env: { ...process.env, NEO4J_HOME: p.home, NEO4J_CONF: p.conf },
    });
  } finally {
    fs.closeSync(out);
  }
  let exit = null;
  child.on('exit', (code, signal) => (exit = { code, signal }));
  child.on('error', (err) => (exit = { code: null, signal: null, err }));
  child.unref();
  if (child.pid) writePid(p.pidFile, child.pid);
  return { pid: () => child.pid, exited: () => exit };
}
