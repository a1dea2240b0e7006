/** The token and caller rules, for tests only (production code may not import this file). */
export { callerOf } from './authenticator.js';
export { validateCreate } from './tokens.js';
export { generateToken, hashToken, tokenId, matchesHash, bearerOf } from './token-format.js';
