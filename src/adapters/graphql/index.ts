export { buildGraphQLSchema, schemaText } from './schema.js';
export { startGraphQLServer } from './http-server.js';
export type { GraphQLServer } from './http-server.js';
export type { AdmissionSettings } from './admission.js';
export type { GraphQLContext, Ports, HealthReport } from './context.js';
export type { GraphQLServerOptions, RouteHandler, RouteScope } from './http-server.js';
export { callerFromRequest, headerValue } from './caller.js';
export { publicError } from './errors.js';
export type { PublicError } from './errors.js';
