export { Neo4jGraph, createDriver, toPlain, CypherParamError } from './graph.js';
export type { GraphPort, Tx, Params, Row, Neo4jSettings } from './graph.js';
export {
  loadStatements,
  registeredFiles,
  cypherFilesOnDisk,
  parseStatement,
  usedParams,
  CYPHER_ROOT,
} from './statements.js';
export type { Statement } from './statements.js';
export { applySchema, schemaStatements } from './schema.js';
export { failingFast, inBackground, isPoolTimeout, POOL_WAIT_MS } from './pool-wait.js';
export { waitForNeo4j } from './connect.js';
export { checkNeo4jUri, NEO4J_SCHEMES } from './uri.js';
