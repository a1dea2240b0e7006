// What a local Neo4j needs on disk before it can start: a Java 21 or 25 (found under /usr/lib/jvm, or installed
// with apt-get when root and apt knows one) and the Neo4j jars, which Maven assembles from Maven Central by
// services/neo4j/pom.xml into <home>/lib (again only when the pom's SHA-256 differs from <home>/lib/.pom-sha256).

import fs from 'node:fs';
import path from 'node:path';

import { ServiceError, projectRoot } from './common.mjs';
import { aptHasCandidate, aptInstall, canApt, ensureMaven, mavenFailure, run, sha256File, which } from './system.mjs';

export const POM = path.join(projectRoot, 'services', 'neo4j', 'pom.xml');

/** The Java feature versions Neo4j 2026.x runs on (its jars are built for 21), newest first. */
export const JAVA_VERSIONS = [25, 21];

export async function javaFeatureVersion(java) {
  const r = await run(java, ['-version']).catch(() => ({ stdout: '', stderr: '' }));
  const m = /version "(\d+)(?:\.(\d+))?/.exec(r.stderr + r.stdout);
  if (!m) return null;
  const major = Number(m[1]);
  return major === 1 ? Number(m[2]) : major; // "1.8.0" → 8
}

/**
 * The java binaries of the JDKs and JREs under /usr/lib/jvm: Debian's (java-21-openjdk-amd64, …) and those
 * unpacked or installed there by other means (temurin-25-jdk-amd64, …). Names with a higher number first;
 * symlinked duplicates (java-1.17.0-openjdk-amd64 → java-17-openjdk-amd64) once.
 */
export function jvmJavas(root = '/usr/lib/jvm') {
  let dirs = [];
  try {
    dirs = fs.readdirSync(root);
  } catch {
    return []; // no /usr/lib/jvm
  }
  const number = (d) => Math.max(0, ...(d.match(/\d+/g) ?? []).map(Number).filter((n) => n < 100));
  const seen = new Set();
  const found = [];
  for (const d of dirs.sort((a, b) => number(b) - number(a) || a.localeCompare(b))) {
    const java = path.join(root, d, 'bin', 'java');
    let real;
    try {
      real = fs.realpathSync(java);
    } catch {
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    found.push(java);
  }
  return found;
}

/** Debian packages that bring a Java Neo4j runs on, in order of preference (Debian 13 has both OpenJDKs; the
 * Adoptium repository, when configured, Temurin's). Debian 12 has none of them. */
const JAVA_PACKAGES = [
  'openjdk-25-jre-headless',
  'openjdk-21-jre-headless',
  'temurin-25-jre',
  'temurin-25-jdk',
  'temurin-21-jre',
  'temurin-21-jdk',
];

const JAVA_HINT =
  'put a Java 21 or 25 under /usr/lib/jvm (e.g. Temurin 25 from https://adoptium.net, which on Debian 12 is ' +
  'also `apt-get install temurin-25-jre` once the Adoptium apt repository is added), or set JAVA_HOME to one';

/**
 * A Java that Neo4j 2026.x runs on (21 or 25): JAVA_HOME's, else `java` on the PATH, else the newest under
 * /usr/lib/jvm. A Java 17 on the PATH (Maven's) is passed over. None: installs one with apt-get when root and
 * a package is known to apt, else stops with what to install.
 * @returns {Promise<{java: string, version: number}>}
 */
export async function ensureJava(version, say) {
  const candidates = [];
  if (process.env.JAVA_HOME) candidates.push(path.join(process.env.JAVA_HOME, 'bin', 'java'));
  const onPath = which('java');
  if (onPath) candidates.push(onPath);
  candidates.push(...jvmJavas());
  const seen = [];
  for (const c of candidates) {
    if (!which(c)) continue;
    const v = await javaFeatureVersion(c);
    if (JAVA_VERSIONS.includes(v)) return { java: c, version: v };
    seen.push(`${c} is Java ${v ?? '?'}`);
  }
  const found = seen.length > 0 ? ` (${seen.join(', ')})` : '';
  if (canApt()) {
    let pkg = null;
    for (const candidate of JAVA_PACKAGES) {
      if (await aptHasCandidate(candidate)) {
        pkg = candidate;
        break;
      }
    }
    if (pkg) {
      say(`neo4j: no Java 21/25 found${found}, installing ${pkg}…`);
      await aptInstall([pkg], { log: (m) => say(`neo4j: ${m}`) });
      for (const c of jvmJavas()) {
        const v = await javaFeatureVersion(c);
        if (JAVA_VERSIONS.includes(v)) return { java: c, version: v };
      }
      throw new ServiceError(`Java 21/25 is still missing after apt-get install ${pkg}`, {
        service: 'neo4j',
        hint: JAVA_HINT,
      });
    }
  }
  throw new ServiceError(`Neo4j ${version} needs Java 21 or 25, and none is installed${found}`, {
    service: 'neo4j',
    hint: JAVA_HINT,
  });
}

/** Whether <home>/lib holds the jars of the current pom. */
export function libComplete(p) {
  try {
    return fs.readFileSync(p.libMarker, 'utf8').trim() === sha256File(POM);
  } catch {
    return false;
  }
}

/** Copy the pom's runtime dependencies into <home>/lib, unless the marker says they are there. */
export async function ensureLib(p, version, say) {
  if (libComplete(p)) return;
  const mvn = await ensureMaven(say, { service: 'neo4j', purpose: 'the Neo4j jars' });
  const tmp = `${p.lib}.partial`;
  fs.rmSync(tmp, { recursive: true, force: true });
  say(`neo4j: fetching Neo4j ${version} jars with Maven (~170 MB, downloaded into ~/.m2 unless cached there)…`);
  const t0 = Date.now();
  const r = await run(mvn, ['-B', '-q', '-f', POM, 'dependency:copy-dependencies', `-DoutputDirectory=${tmp}`], {
    cwd: path.dirname(POM),
  });
  const jars = fs.existsSync(tmp) ? fs.readdirSync(tmp).filter((f) => f.endsWith('.jar')) : [];
  if (r.code !== 0 || !jars.some((f) => f === `neo4j-${version}.jar`)) {
    fs.rmSync(tmp, { recursive: true, force: true });
    const { out, cause } = mavenFailure(r);
    throw new ServiceError(`mvn could not fetch the Neo4j jars (exit ${r.code}): ${cause}`, {
      service: 'neo4j',
      hint: 'check that Maven Central is reachable (and ~/.m2/settings.xml), then run `up` again',
      logTail: out.slice(-30),
    });
  }
  fs.rmSync(p.lib, { recursive: true, force: true });
  fs.renameSync(tmp, p.lib);
  fs.writeFileSync(p.libMarker, `${sha256File(POM)}\n`);
  const where = path.relative(projectRoot, p.lib) || p.lib;
  say(`neo4j: ${jars.length} jars in ${where} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
