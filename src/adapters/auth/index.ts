export { Authenticator, callerOf } from './authenticator.js';
export type { AuthMode, AuthSetting, HeaderSource, CallerHints } from './authenticator.js';
export { TokenStore, accessOf, validateCreate } from './tokens.js';
export type { TokenRecord, CreateTokenArgs } from './tokens.js';
export { generateToken, hashToken, tokenId, matchesHash, bearerOf } from './token-format.js';
export { ensureOperatorToken, clientToken } from './operator-token.js';
export { runTokenCommand, TOKEN_USAGE } from './token-command.js';
