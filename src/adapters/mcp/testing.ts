/** For tests only (production code may not import this file): the protocol's header and error key, time parsing. */
export { STORE_HEADER, ERROR_META_KEY } from './protocol.js';
export { parseTime } from './tool-args.js';
