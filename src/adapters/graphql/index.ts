export { buildGraphQLSchema, schemaText } from './schema.js';
export { startGraphQLServer } from './http-server.js';
export type { GraphQLServer } from './http-server.js';
export type { GraphQLContext, Ports, HealthReport } from './context.js';
