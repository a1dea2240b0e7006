/** The protocol's header and error key, for tests only (production code may not import this file). */
export { STORE_HEADER, ERROR_META_KEY } from './protocol.js';
