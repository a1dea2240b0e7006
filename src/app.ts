/**
 * The composition root: one Neo4j driver, one bus, the contexts wired to it.
 * The GraphQL server and the background worker are built from this.
 */
import type { Driver } from 'neo4j-driver';
import { Bus } from './domain/index.js';
import { createDriver, Neo4jGraph, applySchema, type GraphPort } from './adapters/neo4j/index.js';
import { Hippocampus } from './contexts/hippocampus/index.js';
import { MemoryPort } from './contexts/cortex/index.js';
import { currentSalience } from './contexts/salience/index.js';
import type { Config } from './config.js';
import type { HealthReport, Ports } from './adapters/graphql/index.js';
import { pingRedis } from './adapters/redis.js';

export interface App {
  readonly config: Config;
  readonly driver: Driver;
  readonly graph: GraphPort;
  readonly bus: Bus;
  readonly hippocampus: Hippocampus;
  readonly ports: Ports;
  accepting: boolean;
  close(): Promise<void>;
}

export interface AppOptions {
  readonly clock?: () => number;
  /** Apply constraints and indexes at start (default true). */
  readonly applySchema?: boolean;
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const clock = options.clock ?? Date.now;
  const driver = createDriver(config.neo4j.uri, config.neo4j.user, config.neo4j.password);
  await driver.verifyConnectivity({ database: config.neo4j.database });
  if (options.applySchema !== false) await applySchema(driver, config.neo4j.database);

  const graph = new Neo4jGraph(driver, config.neo4j.database);
  const bus = new Bus();
  bus.onFailure((error, message, actor) => console.error(`[${actor}] failed on ${message.type}:`, error));
  const hippocampus = new Hippocampus({ graph, bus, limits: config, clock }).register();

  const app: App = {
    config,
    driver,
    graph,
    bus,
    hippocampus,
    accepting: true,
    ports: undefined as unknown as Ports,
    async close() {
      app.accepting = false;
      await bus.idle();
      await driver.close();
    },
  };
  const memory = new MemoryPort({ bus, hippocampus, defaultStore: config.defaultStore, accepting: () => app.accepting });
  const health = async (): Promise<HealthReport> => {
    const [neo4jUp, memories] = await hippocampus.count().then(
      (n) => [true, n] as const,
      () => [false, 0] as const,
    );
    return { neo4j: neo4jUp, redis: await pingRedis(config.redisUrl), version: config.version, memories, accepting: app.accepting };
  };
  (app as { ports: Ports }).ports = { memory, salienceOf: (m) => currentSalience(m, clock()), health };
  return app;
}
