export { buildGraphQLSchema, schemaText } from './schema.js';
export { startGraphQLServer } from './http-server.js';
export type { GraphQLServer, GraphQLServerOptions } from './http-server.js';
export { Admission, admissionPlugin } from './admission.js';
export type { AdmissionSettings } from './admission.js';
export type { GraphQLContext, Ports, HealthReport } from './context.js';
