// Writes schema.graphql from the code (type-graphql). A test fails on drift.
import { writeFileSync } from 'node:fs';
import { buildGraphQLSchema, schemaText } from '../src/adapters/graphql/index.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), schemaText(await buildGraphQLSchema()));
console.log('schema.graphql written');
