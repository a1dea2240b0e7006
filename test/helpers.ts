/**
 * Integration helpers: a real app on the real Neo4j and Redis the project
 * started, served over real HTTP, with a random store per test that is
 * removed afterwards.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { loadConfig, type Config } from '../src/config.js';
import { createApp, type App, type AppOptions } from '../src/app.js';
import { buildGraphQLSchema, startGraphQLServer, type GraphQLServer } from '../src/adapters/graphql/index.js';
import { createMcpHandler } from '../src/adapters/mcp/index.js';
import { deleteKeysWithPrefix } from '../src/adapters/redis.js';

export interface GraphQLResponse<T = Record<string, any>> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; [k: string]: unknown } }[];
}

export interface TestApp {
  readonly app: App;
  readonly server: GraphQLServer;
  readonly config: Config;
  gql<T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<GraphQLResponse<T>>;
  /** Like gql, but fails the test on any GraphQL error. */
  ok<T = Record<string, any>>(query: string, variables?: Record<string, unknown>): Promise<T>;
  /** Runs raw Cypher for checks and clean-up (never for the code under test). */
  cypher<T = Record<string, any>>(text: string, params?: Record<string, unknown>): Promise<T[]>;
  /** Counts every node that belongs to a store (memories and events). */
  countNodes(store: string): Promise<number>;
  dropStore(store: string): Promise<void>;
  stop(): Promise<void>;
}

export function randomStore(label = 'test'): string {
  return `${label}-${randomUUID()}`;
}

/** A BullMQ queue prefix of its own, so test apps and test files never share queues or Redis keys. */
export function queuePrefix(): string {
  return `test-${randomUUID().slice(0, 8)}`;
}

/**
 * Starts an app and its GraphQL server. Without a TOTAL_RECALL_QUEUE_PREFIX in
 * `env` it gets a random one, whose Redis keys stop() removes: a job it enqueues
 * (a session audit, say) never lands in the shared default queues.
 */
export async function startTestApp(options: AppOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<TestApp> {
  const ownPrefix = env.TOTAL_RECALL_QUEUE_PREFIX ? null : queuePrefix();
  const config = { ...loadConfig(ownPrefix ? { ...env, TOTAL_RECALL_QUEUE_PREFIX: ownPrefix } : env), port: 0 };
  const app = await createApp(config, options);
  // The MCP endpoint too, as src/main.ts serves it.
  const mcp = createMcpHandler({ defaultStore: config.defaultStore, version: config.version });
  const server = await startGraphQLServer(await buildGraphQLSchema(), app.ports, '127.0.0.1', 0, {
    ...(await app.serverOptions()),
    routes: { '/mcp': mcp },
  });
  const gql = async <T>(
    query: string,
    variables: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as GraphQLResponse<T>;
  };
  const cypher = async <T>(text: string, params: Record<string, unknown> = {}) => {
    const result = await app.driver.executeQuery(text, params, { database: config.neo4j.database });
    return result.records.map((r) => r.toObject() as T);
  };
  return {
    app,
    server,
    config,
    gql,
    async ok<T>(query: string, variables: Record<string, unknown> = {}) {
      const res = await gql<T>(query, variables);
      if (res.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(res.errors)}`);
      return res.data as T;
    },
    cypher,
    async countNodes(store: string) {
      const rows = await cypher<{ n: number }>('MATCH (n) WHERE n.store = $store RETURN count(n) AS n', { store });
      return rows[0]?.n ?? 0;
    },
    async dropStore(store: string) {
      await cypher('MATCH (n) WHERE n.store = $store DETACH DELETE n', { store });
    },
    async stop() {
      await server.stop();
      await app.close();
      if (ownPrefix) await deleteKeysWithPrefix(config.redisUrl, ownPrefix);
    },
  };
}

/** An app with authentication on (TOTAL_RECALL_AUTH=on) and `env` besides; its own queues, as startTestApp's. */
export function startAuthApp(env: NodeJS.ProcessEnv = {}, options: AppOptions = {}): Promise<TestApp> {
  return startTestApp(options, { ...process.env, TOTAL_RECALL_AUTH: 'on', ...env });
}

/**
 * The tokens tests make on one app, removed together: a token belongs to no store, so dropStore leaves it behind.
 * `app` is read at each call (the app is started in a beforeAll).
 */
export class TestTokens {
  /** The ids made so far, in order. */
  readonly ids: string[] = [];

  constructor(private readonly app: () => TestApp | undefined) {}

  /** Makes a token and keeps its id for removeAll: its secret, and its id. */
  async issue(args: Parameters<App['tokens']['create']>[0]): Promise<{ token: string; id: string }> {
    const app = this.app();
    if (!app) throw new Error('TestTokens.issue: the app is not started');
    const made = await app.app.tokens.create(args);
    this.ids.push(made.record.id);
    return { token: made.token, id: made.record.id };
  }

  async removeAll(): Promise<void> {
    await this.app()?.cypher('MATCH (k:ApiToken) WHERE k.id IN $ids DETACH DELETE k', { ids: this.ids });
  }
}

/** The SDK's own MCP client, connected to a test app's /mcp endpoint with these headers (a store, a bearer token). */
export async function connectMcp(t: TestApp, name: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const url = new URL(t.server.url.replace(/\/graphql$/, '/mcp'));
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

export const MEMORY_FIELDS =
  `id store content tier claimed tags people emotions metadata occurredAt createdAt ` +
  `lastAccessedAt accessCount salience sessionId`;
