export { BullJobs } from './jobs.js';
export type { BullJobsOptions } from './jobs.js';
export { EmbeddingQueue } from './embedding-queue.js';
export type { EmbeddingQueueOptions, EmbeddingTarget, EmbeddingJob, EmbeddingJobResult } from './embedding-queue.js';
export { workerName } from './worker-name.js';
