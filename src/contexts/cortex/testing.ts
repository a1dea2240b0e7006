/** Cortex's rules, for unit tests only (test/unit/architecture.test.ts keeps production code from importing it). */
export { AsyncFeed } from './async-feed.js';
export { initialMode, checkOwnInstance, visibleTo, validateSessionId } from './session-rules.js';
export { optionalText, requireName, requireText, validateState } from './session-rules.js';
export { recallActivityEveryMs } from './recall-port.js';
