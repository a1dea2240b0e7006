export * from './tiers.js';
export * from './errors.js';
export * from './memory.js';
export * from './messages/index.js';
export * from './outcomes.js';
export * from './sessions.js';
export * from './recall.js';
export * from './associations.js';
export * from './ids.js';
export * from './names.js';
export { APOSTROPHE_JOINER, withoutContraction } from './apostrophes.js';
export { Bus } from './bus.js';
export type { Published } from './bus.js';
export { Mailbox } from './actor.js';
export { concurrent } from './mailbox-keys.js';
export { storeKeyOf } from './store-key.js';
export {
  isJsonObject,
  jsonArgumentText,
  jsonDepth,
  jsonTooDeep,
  MAX_JSON_BYTES,
  MAX_JSON_DEPTH,
  parseJsonText,
} from './json.js';
export * from './access.js';
export * from './progress.js';
export { GAP_WAIT_MS, NO_REQUESTS, Pacer, gapBetweenRequests, pauseAfter } from './pace.js';
export type { PacerOptions, RequestLoad } from './pace.js';
export * from './memory-record.js';
export * from './ports/index.js';
export * as settings from './settings.js';
export type { Setting, Schema, SettingsOf, SettingsContext } from './settings.js';
export { lineLogger } from './logger.js';
export type { Logger } from './logger.js';
