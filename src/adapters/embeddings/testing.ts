/** The model, tokenizer and pooling, for tests and benchmarks only (production code may not import this file). */
export { OnnxModel, MODEL_NAME, MODEL_FILE, TOKENIZER_FILE, missingModelFiles } from './onnx-model.js';
export type { Role } from './onnx-model.js';
export { WordPieceTokenizer, normalizeBert, preTokenizeBert, wordPiece } from './tokenizer.js';
export { meanPool, l2Normalize, cosine } from './pooling.js';
export { EmbedScheduler, splitTask } from './scheduler.js';
export type { ModelRunner, Task } from './scheduler.js';
export { countRuns, lengthRuns, RUN_OVERHEAD_TOKENS } from './length-runs.js';
