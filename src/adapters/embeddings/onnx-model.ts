/**
 * e5-small-v2 (int8-quantised ONNX) run in this thread with onnxruntime-node
 * on the CPU: prefix by role, tokenise, run the encoder over a padded batch,
 * mean-pool over the attention mask, L2-normalise.
 *
 * Why e5-small-v2: it is trained for asymmetric retrieval (a short question
 * against the passage that answers it), which is what recall asks. On LoCoMo,
 * vector-only recall_any@10 was 0.734 with it against 0.564 with
 * all-MiniLM-L6-v2 and 0.675 with bge-small-en-v1.5, at the speed of MiniLM
 * (int8: 105 turns/s on 2 threads, as MiniLM fp32; fp32 e5 was 52/s).
 * The model expects "query: " before questions and "passage: " before texts. The service runs it in a worker thread
 * (embedder.ts),
 * because onnxruntime-node's `run` computes on the calling thread.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { InferenceSession as OrtSession } from 'onnxruntime-node';
import { WordPieceTokenizer, MAX_TOKENS } from './tokenizer.js';
import { l2Normalize, meanPool } from './pooling.js';
import { countRuns, lengthRuns } from './length-runs.js';

export const MODEL_NAME = 'e5-small-v2-q';

/** What a text is to the model: a question to search with, or a memory to be found. */
export type Role = 'query' | 'passage';
const PREFIX: Readonly<Record<Role, string>> = { query: 'query: ', passage: 'passage: ' };
export const MODEL_FILE = 'model.onnx';
export const TOKENIZER_FILE = 'tokenizer.json';

/** The model files a directory lacks (empty when it has both). */
export function missingModelFiles(dir: string): string[] {
  return [MODEL_FILE, TOKENIZER_FILE].filter((f) => !existsSync(join(dir, f)));
}

export interface OnnxModelOptions {
  /** Threads for one inference (onnxruntime's intra-op pool). */
  readonly threads?: number;
  /**
   * How texts are cut into model runs. `alone` (the service's): one text a run. The int8 model scales each run's
   * activations by the whole run, so texts run together move one another's vectors (cosine 0.996 to the text alone,
   * a confidence by up to 0.14): only a text run alone gets the vector it gets in any store. Together (benchmarks
   * compare): padded runs of up to `subBatch`, cut where lengths spread (length-runs.ts) or by count alone; faster
   * for short texts (bench/results/embeddings.md).
   */
  readonly runs?: 'alone' | 'by length' | 'by count';
  /** Texts a run holds at most when they run together. */
  readonly subBatch?: number;
  readonly maxTokens?: number;
}

type Ort = typeof import('onnxruntime-node');

export class OnnxModel {
  private constructor(
    private readonly ort: Ort,
    private readonly session: OrtSession,
    readonly tokenizer: WordPieceTokenizer,
    readonly dimensions: number,
    private readonly options: Required<OnnxModelOptions>,
  ) {}

  /** Loads the files from `dir`; throws with a readable cause when they are missing or unusable. */
  static async load(dir: string, options: OnnxModelOptions = {}): Promise<OnnxModel> {
    const missing = missingModelFiles(dir);
    if (missing.length > 0) throw new Error(`no ${missing.join(' or ')} in ${dir}`);
    const tokenizer = WordPieceTokenizer.fromFile(join(dir, TOKENIZER_FILE));
    const ort = (await import('onnxruntime-node')) as Ort;
    const threads = Math.max(1, options.threads ?? 1);
    const session = await ort.InferenceSession.create(join(dir, MODEL_FILE), {
      executionProviders: ['cpu'],
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    for (const name of ['input_ids', 'attention_mask']) {
      if (!session.inputNames.includes(name))
        throw new Error(`${MODEL_FILE} has no input ${name} (inputs: ${session.inputNames.join(', ')})`);
    }
    const resolved = {
      threads,
      subBatch: Math.max(1, options.subBatch ?? 16),
      runs: options.runs ?? 'alone',
      maxTokens: options.maxTokens ?? MAX_TOKENS,
    };
    const probe = new OnnxModel(ort, session, tokenizer, 0, resolved);
    const dimensions = (await probe.run(['dimension probe']))[0]?.length ?? 0;
    return new OnnxModel(ort, session, tokenizer, dimensions, resolved);
  }

  /** One unit vector per text, in the order given (memories are passages unless said otherwise). */
  async embed(texts: readonly string[], role: Role = 'passage'): Promise<Float32Array[]> {
    const encoded = texts.map((text, index) => ({
      index,
      ids: this.tokenizer.encode(PREFIX[role] + text, this.options.maxTokens).ids,
    }));
    encoded.sort((a, b) => a.ids.length - b.ids.length);
    const out: Float32Array[] = new Array(texts.length);
    const lengths = encoded.map((e) => e.ids.length);
    for (const [from, to] of this.runsOf(lengths)) {
      const group = encoded.slice(from, to);
      const vectors = await this.runIds(group.map((g) => g.ids));
      group.forEach((g, k) => (out[g.index] = vectors[k] as Float32Array));
    }
    return out;
  }

  private runsOf(lengths: readonly number[]): Array<[number, number]> {
    const most = this.options.subBatch;
    if (this.options.runs === 'alone') return countRuns(lengths.length, 1);
    return this.options.runs === 'by count' ? countRuns(lengths.length, most) : lengthRuns(lengths, most);
  }

  private run(texts: readonly string[]): Promise<Float32Array[]> {
    return this.runIds(texts.map((t) => this.tokenizer.encode(t, this.options.maxTokens).ids));
  }

  private async runIds(sequences: readonly number[][]): Promise<Float32Array[]> {
    const batch = sequences.length;
    const seq = Math.max(...sequences.map((s) => s.length));
    const ids = new BigInt64Array(batch * seq);
    const mask = new BigInt64Array(batch * seq);
    sequences.forEach((s, b) => {
      s.forEach((id, t) => {
        ids[b * seq + t] = BigInt(id);
        mask[b * seq + t] = 1n;
      });
    });
    const { Tensor } = this.ort;
    const feeds: Record<string, InstanceType<typeof Tensor>> = {
      input_ids: new Tensor('int64', ids, [batch, seq]),
      attention_mask: new Tensor('int64', mask, [batch, seq]),
    };
    if (this.session.inputNames.includes('token_type_ids'))
      feeds.token_type_ids = new Tensor('int64', new BigInt64Array(batch * seq), [batch, seq]);
    const results = await this.session.run(feeds);
    const output = results.last_hidden_state ?? results[this.session.outputNames[0] as string];
    if (!output) throw new Error('the model returned no hidden states');
    const dims = output.dims;
    const dim = Number(dims[2]);
    if (dims.length !== 3 || Number(dims[0]) !== batch || Number(dims[1]) !== seq)
      throw new Error(`unexpected output shape [${dims.join(', ')}]`);
    return meanPool(output.data as Float32Array, mask, batch, seq, dim).map(l2Normalize);
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
