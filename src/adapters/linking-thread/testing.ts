/** The thread itself, for tests only (production code starts it through `linkingThread`). */
export { LinkingThread } from './linking-thread.js';
export type { LinkingThreadInit } from './linking-worker.js';
