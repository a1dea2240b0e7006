/**
 * For tests only (test/unit/architecture.test.ts keeps src/ from importing it): the registry on disk, and how
 * statement parameters travel.
 */
export { cypherFilesOnDisk, parseStatement, usedParams, CYPHER_ROOT } from './statements.js';
export { schemaStatements } from './schema.js';
export { toNeo4jParams } from './graph.js';
