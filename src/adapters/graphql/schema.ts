import 'reflect-metadata';
import { buildSchema } from 'type-graphql';
import { printSchema, lexicographicSortSchema, type GraphQLSchema } from 'graphql';
import { MemoryResolver } from './memory-resolver.js';

export async function buildGraphQLSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: [MemoryResolver],
    validate: false,
  });
}

export const SCHEMA_HEADER = '# Generated from the code by `npm run schema`; do not edit by hand.\n\n';

export function schemaText(schema: GraphQLSchema): string {
  return SCHEMA_HEADER + printSchema(lexicographicSortSchema(schema)) + '\n';
}
