export { ThreadedEmbedder, DisabledEmbedder, describeEmbedder } from './embedder.js';
export type { Embedder, EmbedderStatus, ThreadedEmbedderOptions } from './embedder.js';
