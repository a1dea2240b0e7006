/**
 * One store's embeddings as a dense matrix in process memory, searched
 * exactly by cosine similarity. Vectors are unit length (the model normalises,
 * and client vectors are normalised on the way in), so cosine is a dot product.
 * The matrix lives in a WebAssembly memory of its own, laid out as [the query]
 * [the rows] [one score per row], so that a scan runs four floats at a time
 * (dot-scan.ts): about 0.2 ns a multiply-add here against 1.4 in JavaScript,
 * which is the fallback where WebAssembly SIMD is missing. Either is far below
 * the same scan in Cypher (about 20 µs per vector, bench/results/recall.md).
 */
import { scanIn, scannable } from './dot-scan.js';

const PAGE_BYTES = 65_536;
const FLOAT_BYTES = 4;

export interface Scored {
  readonly id: string;
  /** Cosine similarity in [-1,1]. */
  readonly similarity: number;
}

export class StoreVectors {
  private ids: string[] = [];
  private readonly rows = new Map<string, number>();
  /** Where the matrix lives: a WebAssembly memory when the scan runs there, else a plain buffer. */
  private readonly memory: WebAssembly.Memory | null;
  private plain: ArrayBuffer | null;
  private readonly scan: ReturnType<typeof scanIn>;
  private capacity: number;
  /** The rows, as a view of the buffer (made again whenever it grows). */
  private data: Float32Array;

  constructor(
    readonly dimensions: number,
    capacity = 256,
  ) {
    this.capacity = Math.max(1, capacity);
    const pages = this.pagesFor(this.capacity);
    const memory = scannable(dimensions) ? wasmMemory(pages) : null;
    this.scan = memory ? scanIn(memory) : null;
    this.memory = this.scan ? memory : null;
    this.plain = this.memory ? null : new ArrayBuffer(pages * PAGE_BYTES);
    this.data = this.rowsView();
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  /** Adds or replaces a memory's vector (normalised here, so any length works). */
  upsert(id: string, vector: ArrayLike<number>): void {
    if (vector.length !== this.dimensions) return;
    let row = this.rows.get(id);
    if (row === undefined) {
      row = this.ids.length;
      if ((row + 1) * this.dimensions > this.data.length) this.grow();
      this.ids.push(id);
      this.rows.set(id, row);
    }
    let norm = 0;
    for (let k = 0; k < this.dimensions; k++) norm += (vector[k] as number) ** 2;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    const offset = row * this.dimensions;
    for (let k = 0; k < this.dimensions; k++) this.data[offset + k] = (vector[k] as number) * scale;
  }

  /** Removes a memory's vector (the last row moves into its place). */
  remove(id: string): void {
    const row = this.rows.get(id);
    if (row === undefined) return;
    const last = this.ids.length - 1;
    const lastId = this.ids[last] as string;
    if (row !== last) {
      this.data.copyWithin(row * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      this.ids[row] = lastId;
      this.rows.set(lastId, row);
    }
    this.ids.pop();
    this.rows.delete(id);
  }

  /** The cosine similarity of one memory to the query, or null when it has no vector here. */
  similarity(id: string, query: Float32Array): number | null {
    const row = this.rows.get(id);
    return row === undefined ? null : this.dot(row * this.dimensions, query);
  }

  /** The k most similar memories, most similar first (ties: smaller id first). */
  top(query: Float32Array, k: number): Scored[] {
    const n = this.ids.length;
    if (k <= 0 || n === 0 || query.length !== this.dimensions) return [];
    const scores = this.scores(query, n);
    // A bounded min-heap of rows: the weakest kept sits at the root.
    const heap: number[] = [];
    const weaker = (a: number, b: number) =>
      scores[a]! < scores[b]! || (scores[a] === scores[b] && (this.ids[a] as string) > (this.ids[b] as string));
    for (let row = 0; row < n; row++) {
      if (heap.length < k) {
        heap.push(row);
        siftUp(heap, heap.length - 1, weaker);
      } else if (weaker(heap[0] as number, row)) {
        heap[0] = row;
        siftDown(heap, 0, weaker);
      }
    }
    return heap
      .map((row) => ({ id: this.ids[row] as string, similarity: scores[row] as number }))
      .sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Every row's dot product with the query, in the memory's score region. */
  private scores(query: Float32Array, n: number): Float32Array {
    const scoresAt = this.scoresOffset();
    const scores = new Float32Array(this.buffer(), scoresAt, n);
    if (this.scan) {
      new Float32Array(this.buffer(), 0, this.dimensions).set(query);
      this.scan(0, this.rowsOffset(), scoresAt, n, this.dimensions);
    } else {
      for (let row = 0; row < n; row++) scores[row] = this.dot(row * this.dimensions, query);
    }
    return scores;
  }

  private dot(offset: number, q: Float32Array): number {
    const d = this.data;
    let a = 0;
    let b = 0;
    let c = 0;
    let e = 0;
    const n = this.dimensions - (this.dimensions % 4);
    let k = 0;
    for (; k < n; k += 4) {
      a += d[offset + k]! * q[k]!;
      b += d[offset + k + 1]! * q[k + 1]!;
      c += d[offset + k + 2]! * q[k + 2]!;
      e += d[offset + k + 3]! * q[k + 3]!;
    }
    for (; k < this.dimensions; k++) a += d[offset + k]! * q[k]!;
    return a + b + c + e;
  }

  // ── the memory's layout: [query] [capacity rows] [capacity scores] ──────────

  private rowsOffset(): number {
    return this.dimensions * FLOAT_BYTES;
  }

  private scoresOffset(): number {
    return this.rowsOffset() + this.capacity * this.dimensions * FLOAT_BYTES;
  }

  private pagesFor(capacity: number): number {
    const bytes = (this.dimensions + capacity * this.dimensions + capacity) * FLOAT_BYTES;
    return Math.ceil(bytes / PAGE_BYTES);
  }

  private buffer(): ArrayBuffer {
    return this.memory ? this.memory.buffer : (this.plain as ArrayBuffer);
  }

  private rowsView(): Float32Array {
    return new Float32Array(this.buffer(), this.rowsOffset(), this.capacity * this.dimensions);
  }

  /** Twice the rows: the rows stay where they are, and the scores move past them. */
  private grow(): void {
    const rowsEnd = this.scoresOffset();
    this.capacity *= 2;
    const pages = this.pagesFor(this.capacity);
    if (this.memory) {
      const more = pages - this.memory.buffer.byteLength / PAGE_BYTES;
      if (more > 0) this.memory.grow(more);
    } else {
      const next = new ArrayBuffer(pages * PAGE_BYTES);
      new Uint8Array(next).set(new Uint8Array(this.plain as ArrayBuffer, 0, rowsEnd));
      this.plain = next;
    }
    this.data = this.rowsView();
  }
}

/** A WebAssembly memory of `pages`, or null where one cannot be had (no WebAssembly, or no address space left). */
function wasmMemory(pages: number): WebAssembly.Memory | null {
  try {
    return new WebAssembly.Memory({ initial: pages });
  } catch {
    return null;
  }
}

type Weaker = (a: number, b: number) => boolean;

function siftUp(heap: number[], i: number, weaker: Weaker): void {
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!weaker(heap[i] as number, heap[parent] as number)) return;
    [heap[i], heap[parent]] = [heap[parent] as number, heap[i] as number];
    i = parent;
  }
}

function siftDown(heap: number[], i: number, weaker: Weaker): void {
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let least = i;
    if (l < heap.length && weaker(heap[l] as number, heap[least] as number)) least = l;
    if (r < heap.length && weaker(heap[r] as number, heap[least] as number)) least = r;
    if (least === i) return;
    [heap[i], heap[least]] = [heap[least] as number, heap[i] as number];
    i = least;
  }
}
