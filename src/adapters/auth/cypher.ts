import { loadStatements } from '../neo4j/index.js';

export const Q = loadStatements('auth', {
  createToken: 'create-token',
  findToken: 'find-token',
  touchToken: 'touch-token',
  listTokens: 'list-tokens',
  revokeToken: 'revoke-token',
  anyActiveToken: 'any-active-token',
});
