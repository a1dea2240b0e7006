/**
 * `serve`: the GraphQL API (and, from issue 8, the background worker) on one
 * Neo4j and one Redis. Expects the servers to be up (npm start brings them up).
 */
import 'reflect-metadata';
import { loadConfig } from './config.js';
import { createApp } from './app.js';
import { buildGraphQLSchema, startGraphQLServer } from './adapters/graphql/index.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  const server = await startGraphQLServer(await buildGraphQLSchema(), app.ports, config.host, config.port);
  console.log(`GraphQL ready at ${server.url}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    app.accepting = false;
    await server.stop();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`error: ${(error as Error).message}`);
  process.exit(1);
});
