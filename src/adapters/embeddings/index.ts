export { ThreadedEmbedder, DisabledEmbedder, EmbeddingUnavailableError, describeEmbedder } from './embedder.js';
export type { Embedder, EmbedderStatus, ThreadedEmbedderOptions } from './embedder.js';
export { OnnxModel, MODEL_NAME, MODEL_FILE, TOKENIZER_FILE, missingModelFiles } from './onnx-model.js';
export type { OnnxModelOptions, Role } from './onnx-model.js';
export { WordPieceTokenizer, normalizeBert, preTokenizeBert, wordPiece, MAX_TOKENS } from './tokenizer.js';
export type { WordPieceConfig, Encoding } from './tokenizer.js';
export { meanPool, l2Normalize, cosine } from './pooling.js';
