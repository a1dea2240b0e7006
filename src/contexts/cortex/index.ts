export { MemoryPort } from './memory-port.js';
export type { Caller, MemoryPortDeps } from './memory-port.js';
