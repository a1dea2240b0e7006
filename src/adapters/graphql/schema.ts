import 'reflect-metadata';
import { buildSchema } from 'type-graphql';
import { printSchema, lexicographicSortSchema, type GraphQLSchema } from 'graphql';
import { MemoryResolver } from './memory-resolver.js';
import { RecallResolver } from './recall-resolver.js';
import { AssociationResolver } from './association-resolver.js';
import { SessionResolver } from './session-resolver.js';
import { NotificationResolver, PORTS_PUBSUB } from './session-notifications.js';
import { AdminResolver } from './session-admin.js';
import { ReflectionResolver } from './reflection-resolver.js';

export async function buildGraphQLSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: [
      MemoryResolver,
      RecallResolver,
      AssociationResolver,
      SessionResolver,
      NotificationResolver,
      AdminResolver,
      ReflectionResolver,
    ],
    validate: false,
    pubSub: PORTS_PUBSUB,
  });
}

export const SCHEMA_HEADER = '# Generated from the code by `npm run schema`; do not edit by hand.\n\n';

export function schemaText(schema: GraphQLSchema): string {
  return `${SCHEMA_HEADER + printSchema(lexicographicSortSchema(schema))}\n`;
}
