export * from './tiers.js';
export * from './errors.js';
export * from './memory.js';
export * from './messages.js';
export * from './ids.js';
export { Bus } from './bus.js';
export type { Asked, Published } from './bus.js';
export { Mailbox } from './actor.js';
export { storeKeyOf } from './store-key.js';
