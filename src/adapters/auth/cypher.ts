import { declareStatements } from '../../domain/index.js';

export const Q = declareStatements('auth', {
  createToken: 'create-token',
  findToken: 'find-token',
  touchToken: 'touch-token',
  listTokens: 'list-tokens',
  revokeToken: 'revoke-token',
  anyActiveToken: 'any-active-token',
});
