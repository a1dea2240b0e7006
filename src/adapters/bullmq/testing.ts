/** The queue's name, for tests only (production code may not import this file). */
export { EMBEDDINGS_QUEUE } from './embedding-queue.js';
