/**
 * Vectors for a million memories without a million model calls: every distinct turn and sentence of the
 * conversations is embedded once by the service's own model, as a memory is. A memory's vector is its turn's
 * plus half of its extra sentence's, plus a little seeded noise (no two memories share a vector, as no two
 * real ones do), made unit length. The model's vectors are cached in .data/bench, so a second run skips it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ConversationalParts } from '../corpus.js';

interface Model {
  readonly model: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** Noise of this length (against a unit vector) keeps a memory's cosine to its parts' sum near 0.98. */
const NOISE = 0.2;
const BATCH = 64;

export class VectorPool {
  private constructor(
    private readonly vectors: Map<string, Float32Array>,
    readonly dimensions: number,
  ) {}

  /** The pool for `texts`, from the cache file when it holds exactly these texts for this model. */
  static async build(model: Model, texts: readonly string[], cacheDir: string, say: (line: string) => void) {
    const distinct = [...new Set(texts)].sort();
    const key = createHash('sha256').update(model.model).update(distinct.join('\n')).digest('hex').slice(0, 16);
    const file = `${cacheDir}/scale-vectors-${key}.bin`;
    let flat: Float32Array;
    let dimensions: number;
    if (existsSync(file)) {
      const bytes = readFileSync(file);
      flat = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
      dimensions = flat.length / distinct.length;
      say(`vectors of ${distinct.length} texts read from ${file}`);
    } else {
      const start = performance.now();
      const parts: Float32Array[] = [];
      for (let i = 0; i < distinct.length; i += BATCH) parts.push(...(await model.embed(distinct.slice(i, i + BATCH))));
      dimensions = parts[0]?.length ?? 0;
      flat = new Float32Array(distinct.length * dimensions);
      parts.forEach((v, i) => flat.set(v, i * dimensions));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, Buffer.from(flat.buffer, flat.byteOffset, flat.byteLength));
      say(
        `${distinct.length} texts embedded in ${((performance.now() - start) / 1000).toFixed(0)} s (cached: ${file})`,
      );
    }
    const vectors = new Map(distinct.map((t, i) => [t, flat.subarray(i * dimensions, (i + 1) * dimensions)] as const));
    return new VectorPool(vectors, dimensions);
  }

  /** A unit vector for a memory of these parts; `random` is a seeded source of uniform numbers. */
  vectorOf(parts: ConversationalParts, random: () => number): number[] {
    const turn = this.known(parts.turn);
    const extra = parts.extra === null ? null : this.known(parts.extra);
    const out = new Array<number>(this.dimensions);
    const spread = NOISE / Math.sqrt(this.dimensions);
    let norm = 0;
    for (let i = 0; i < this.dimensions; i++) {
      const x = (turn[i] as number) + (extra ? 0.5 * (extra[i] as number) : 0) + spread * gaussian(random);
      out[i] = x;
      norm += x * x;
    }
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < this.dimensions; i++) out[i] = (out[i] as number) * scale;
    return out;
  }

  private known(text: string): Float32Array {
    const v = this.vectors.get(text);
    if (!v) throw new Error(`no vector for "${text.slice(0, 60)}": build the pool from every part`);
    return v;
  }
}

/** A standard normal number (Box–Muller). */
function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
