export { Authenticator } from './authenticator.js';
export type { AuthMode, AuthSetting, HeaderSource, CallerHints } from './authenticator.js';
export { TokenStore } from './tokens.js';
export type { TokenRecord, CreateTokenArgs } from './tokens.js';
export { ensureOperatorToken } from './operator-token.js';
export { runTokenCommand } from './token-command.js';
