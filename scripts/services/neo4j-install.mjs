// What a local Neo4j needs on disk before it can start: a Java 17 or 21 (Debian's, installed when root) and the
// Neo4j jars, which Maven assembles from Maven Central by services/neo4j/pom.xml into <home>/lib (again only
// when the pom's SHA-256 differs from <home>/lib/.pom-sha256).

import fs from 'node:fs';
import path from 'node:path';

import { ServiceError, projectRoot } from './common.mjs';
import { aptHasCandidate, aptInstall, canApt, ensureMaven, mavenFailure, run, sha256File, which } from './system.mjs';

export const POM = path.join(projectRoot, 'services', 'neo4j', 'pom.xml');

async function javaFeatureVersion(java) {
  const r = await run(java, ['-version']);
  const m = /version "(\d+)(?:\.(\d+))?/.exec(r.stderr + r.stdout);
  if (!m) return null;
  const major = Number(m[1]);
  return major === 1 ? Number(m[2]) : major; // "1.8.0" → 8
}

/** The java binaries Debian installed for Java 17 and 21. */
function debianJavas() {
  const found = [];
  for (const v of ['17', '21']) {
    try {
      for (const d of fs.readdirSync('/usr/lib/jvm')) {
        if (d.startsWith(`java-${v}-`)) found.push(path.join('/usr/lib/jvm', d, 'bin', 'java'));
      }
    } catch {
      /* no /usr/lib/jvm */
    }
  }
  return found;
}

/** A java binary of version 17 or 21 (Neo4j 5.26's supported runtimes). Installs one if root. */
export async function ensureJava(version, say) {
  const candidates = [];
  if (process.env.JAVA_HOME) candidates.push(path.join(process.env.JAVA_HOME, 'bin', 'java'));
  const onPath = which('java');
  if (onPath) candidates.push(onPath);
  candidates.push(...debianJavas());
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
    const installed = debianJavas().find((j) => which(j));
    if (installed) return installed;
    throw new ServiceError('Java 17/21 is still missing after apt-get install', {
      service: 'neo4j',
      hint: 'apt-get install openjdk-17-jre-headless, or set JAVA_HOME to a Java 17/21',
    });
  }
  throw new ServiceError(
    seen ? `Neo4j ${version} needs Java 17 or 21, found Java ${seen.v} (${seen.c})` : 'java is not installed',
    { service: 'neo4j', hint: `apt-get install ${pkg} maven (as root), or set JAVA_HOME to a Java 17/21` },
  );
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
  say(`neo4j: fetching Neo4j ${version} jars with Maven (~140 MB, downloaded into ~/.m2 unless cached there)…`);
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
