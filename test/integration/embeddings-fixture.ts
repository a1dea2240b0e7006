/**
 * What both embedding test files share: the stores they write, an app with workers and embeddings on (its own
 * queue keys, a backfill limited to these stores), the model check before it starts, and reading vectors back.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { randomStore, type TestApp } from '../helpers.js';
import { dropQueues, queuePrefix, startBackgroundApp } from '../background.js';
import type { ThreadedEmbedder } from '../../src/adapters/embeddings/index.js';
import { missingModelFiles } from '../../src/adapters/embeddings/testing.js';
import { loadConfig } from '../../src/config.js';

export const stores = {
  fresh: randomStore('emb'),
  client: randomStore('emb-client'),
  backfill: randomStore('emb-backfill'),
  late: randomStore('emb-late'),
  context: randomStore('emb-context'),
  api: randomStore('emb-api'),
};
export const MODEL_DIR = loadConfig({ ...process.env, TOTAL_RECALL_EMBEDDINGS: 'on' }).embeddings.modelDir;

export const prefixes: string[] = [];

/** An app running workers with embeddings on, its own queue keys, and a backfill limited to these tests' stores. */
export function startEmbeddingApp(
  extra: Record<string, string> = {},
  log: (line: string) => void = () => undefined,
): Promise<TestApp> {
  const prefix = queuePrefix();
  prefixes.push(prefix);
  const env = {
    TOTAL_RECALL_EMBEDDINGS: 'on',
    TOTAL_RECALL_SCOPE_STORES: Object.values(stores).join(','),
    TOTAL_RECALL_EMBEDDING_BATCH: '4',
    ...extra,
  };
  return startBackgroundApp(stores.fresh, prefix, env, { log });
}

export const STORE_MANY = `mutation ($inputs: [StoreInput!]!) { storeMany(inputs: $inputs) { id content } }`;

export interface Row {
  id: string;
  content: string;
  dims: number | null;
  status: string | null;
  model: string | null;
}

export async function rows(t: TestApp, store: string): Promise<Row[]> {
  return t.cypher<Row>(
    `MATCH (m:Memory {store: $store})
     RETURN m.id AS id, m.content AS content, size(m.embedding) AS dims,
            m.embeddingStatus AS status, m.embeddingModel AS model
     ORDER BY m.id`,
    { store },
  );
}

export let t: TestApp;

/** Starts the file's app once the model is there (a missing model fails the file, not each test). */
export function useEmbeddingApp(): void {
  beforeAll(async () => {
    if (missingModelFiles(MODEL_DIR).length > 0) {
      throw new Error(
        `the embedding model is missing in ${MODEL_DIR}: run \`node scripts/services/model.mjs\` ` +
          `(npm test does it first)`,
      );
    }
    t = await startEmbeddingApp();
    expect((await (t.app.embedder as ThreadedEmbedder).start()).state).toBe('ready');
  });

  afterAll(async () => {
    for (const store of Object.values(stores)) await t.dropStore(store);
    await t.stop();
    for (const prefix of prefixes) await dropQueues(prefix);
  });
}
