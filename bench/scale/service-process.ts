/**
 * The service under measurement in a process of its own (forked by bench/scale/service.ts), so that its resident
 * memory is the service's alone, not the benchmark's seeder, vector pool and client: the app (with its embedding
 * worker when the model is on) and its GraphQL server, as `npm start` runs the API, without the job schedulers
 * (the benchmark times its own sweeps). It answers its parent's messages: `idle` once its bus and embedding queue
 * have no work, `stop` by closing.
 */
import 'reflect-metadata';
import { createApp } from '../../src/app.js';
import { buildGraphQLSchema, startGraphQLServer } from '../../src/adapters/graphql/index.js';
import type { Config } from '../../src/config.js';

interface Start {
  readonly config: Config;
}

const send = (message: Record<string, unknown>) => process.send?.(message);
// A benchmark that died must not leave its service running.
process.once('disconnect', () => process.exit(1));

process.once('message', async ({ config }: Start) => {
  const model = config.embeddings.enabled;
  const app = await createApp(config, { embeddingWorker: model, applySchema: false, log: () => undefined });
  if (model) {
    const state = await (app.embedder as { start?: () => Promise<{ state: string }> }).start?.();
    if (state?.state !== 'ready') throw new Error(`the embedding model is not ready (${JSON.stringify(state)})`);
  }
  const server = await startGraphQLServer(await buildGraphQLSchema(), app.ports, '127.0.0.1', 0, {
    activity: app.activity,
  });
  process.on('message', async (message: { type: string }) => {
    if (message.type === 'idle') {
      await app.bus.idle();
      await app.embeddings?.idle(600_000);
      send({ type: 'idle' });
    } else if (message.type === 'stop') {
      await server.stop();
      await app.close();
      process.exit(0);
    }
  });
  send({ type: 'ready', url: server.url });
});
