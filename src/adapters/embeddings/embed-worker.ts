/**
 * The worker thread that owns the model: inference never runs on the thread
 * that serves requests. Protocol (see embedder.ts):
 *   → workerData {dir, threads, subBatch}
 *   ← {type: 'ready', dimensions} | {type: 'failed', error}
 *   → {type: 'embed', id, texts}
 *   ← {type: 'vectors', id, vectors} | {type: 'error', id, error}
 */
import { parentPort, workerData } from 'node:worker_threads';
import { OnnxModel, type Role } from './onnx-model.js';

export interface WorkerInit {
  readonly dir: string;
  readonly threads: number;
  readonly subBatch: number;
}

/** Queries (a search waits on its vector) go before the rest of a batch of passages. */
export type ToWorker = { readonly type: 'embed'; readonly id: number; readonly texts: readonly string[]; readonly role: Role };
export type FromWorker =
  | { readonly type: 'ready'; readonly dimensions: number }
  | { readonly type: 'failed'; readonly error: string }
  | { readonly type: 'vectors'; readonly id: number; readonly vectors: Float32Array[] }
  | { readonly type: 'error'; readonly id: number; readonly error: string };

const port = parentPort;
if (port) {
  const post = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  const init = workerData as WorkerInit;
  try {
    const model = await OnnxModel.load(init.dir, { threads: init.threads, subBatch: init.subBatch });
    // Passages run sub-batch by sub-batch; between two sub-batches every
    // waiting query runs, so a search never waits behind a whole backfill page.
    const queries: ToWorker[] = [];
    const bulk: { job: ToWorker; done: Float32Array[] }[] = [];
    let running = false;
    const step = async (): Promise<void> => {
      const query = queries.shift();
      if (query) {
        await answer(query.id, () => model.embed(query.texts, 'query'));
        return;
      }
      const head = bulk[0] as { job: ToWorker; done: Float32Array[] };
      try {
        const chunk = head.job.texts.slice(head.done.length, head.done.length + init.subBatch);
        head.done.push(...(await model.embed(chunk, 'passage')));
        if (head.done.length < head.job.texts.length) return;
        bulk.shift();
        await answer(head.job.id, async () => head.done);
      } catch (error) {
        bulk.shift();
        post({ type: 'error', id: head.job.id, error: (error as Error).message });
      }
    };
    const answer = async (id: number, vectors: () => Promise<Float32Array[]>) => {
      try {
        const out = await vectors();
        post({ type: 'vectors', id, vectors: out }, out.map((v) => v.buffer as ArrayBuffer));
      } catch (error) {
        post({ type: 'error', id, error: (error as Error).message });
      }
    };
    const drain = async () => {
      if (running) return;
      running = true;
      while (queries.length > 0 || bulk.length > 0) await step();
      running = false;
    };
    port.on('message', (message: ToWorker) => {
      if (message.role === 'query') queries.push(message);
      else bulk.push({ job: message, done: [] });
      void drain();
    });
    post({ type: 'ready', dimensions: model.dimensions });
  } catch (error) {
    post({ type: 'failed', error: (error as Error).message });
  }
}
