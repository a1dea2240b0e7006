export { Neo4jGraph, createDriver } from './graph.js';
export type { Neo4jSettings } from './graph.js';
export { statementText } from './statements.js';
export type { StatementText } from './statements.js';
export { applySchema } from './schema.js';
export { IndexBuilds } from './index-build.js';
export { waitForNeo4j } from './connect.js';
export { checkNeo4jUri } from './uri.js';
