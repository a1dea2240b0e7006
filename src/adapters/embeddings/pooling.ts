/**
 * Sentence vectors from token vectors, as sentence-transformers' Pooling
 * (mean over the tokens the attention mask keeps) and Normalize (L2) modules.
 */

/**
 * Mean of each sequence's token vectors where mask is 1.
 * `hidden` is [batch, seq, dim] row-major; `mask` is [batch, seq].
 */
export function meanPool(
  hidden: Float32Array,
  mask: ArrayLike<number | bigint>,
  batch: number,
  seq: number,
  dim: number,
): Float32Array[] {
  if (hidden.length !== batch * seq * dim)
    throw new Error(`hidden has ${hidden.length} values, expected ${batch}×${seq}×${dim}`);
  if (mask.length !== batch * seq) throw new Error(`mask has ${mask.length} values, expected ${batch}×${seq}`);
  const out: Float32Array[] = [];
  for (let b = 0; b < batch; b++) {
    const sum = new Float64Array(dim);
    let count = 0;
    for (let t = 0; t < seq; t++) {
      if (Number(mask[b * seq + t]) === 0) continue;
      count++;
      const offset = (b * seq + t) * dim;
      for (let d = 0; d < dim; d++) sum[d] = (sum[d] as number) + (hidden[offset + d] as number);
    }
    // sentence-transformers clamps the count at 1e-9: an all-masked row pools to zeros.
    const divisor = Math.max(count, 1e-9);
    const vector = new Float32Array(dim);
    for (let d = 0; d < dim; d++) vector[d] = (sum[d] as number) / divisor;
    out.push(vector);
  }
  return out;
}

/** Scales a vector to unit length in place (a zero vector stays zero) and returns it. */
export function l2Normalize(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  // torch.nn.functional.normalize divides by max(norm, 1e-12).
  const divisor = Math.max(norm, 1e-12);
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / divisor;
  return vector;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`cosine of vectors of ${a.length} and ${b.length} dimensions`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
