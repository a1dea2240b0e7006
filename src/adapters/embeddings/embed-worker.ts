/**
 * A worker thread that owns one copy of the model: inference never runs on
 * the thread that serves requests. The embedder keeps one or more of these
 * and gives each one batch at a time (scheduler.ts decides which batch).
 * Protocol (see embedder.ts):
 *   → workerData {dir, threads}
 *   ← {type: 'ready', dimensions} | {type: 'failed', error}
 *   → {type: 'embed', id, texts, role}
 *   ← {type: 'vectors', id, vectors} | {type: 'error', id, error}
 */
import { parentPort, workerData } from 'node:worker_threads';
import { OnnxModel, type Role } from './onnx-model.js';

export interface WorkerInit {
  readonly dir: string;
  readonly threads: number;
}

export type ToWorker = {
  readonly type: 'embed';
  readonly id: number;
  readonly texts: readonly string[];
  readonly role: Role;
};
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
    const model = await OnnxModel.load(init.dir, { threads: init.threads });
    // One batch after another, in the order sent.
    let last: Promise<void> = Promise.resolve();
    port.on('message', (message: ToWorker) => {
      last = last.then(async () => {
        try {
          const vectors = await model.embed(message.texts, message.role);
          post(
            { type: 'vectors', id: message.id, vectors },
            vectors.map((v) => v.buffer as ArrayBuffer),
          );
        } catch (error) {
          post({ type: 'error', id: message.id, error: (error as Error).message });
        }
      });
    });
    post({ type: 'ready', dimensions: model.dimensions });
  } catch (error) {
    post({ type: 'failed', error: (error as Error).message });
  }
}
