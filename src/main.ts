/**
 * `serve`: the GraphQL API and the background worker on one Neo4j and one
 * Redis (both by default; `--api-only` or `--worker-only` runs one of them, so
 * either scales out on its own). Expects the servers to be up (npm start
 * brings them up). SIGTERM, SIGINT and the `shutdown` mutation run the
 * shutdown protocol, print its steps and exit (0 when ready).
 */
import 'reflect-metadata';
import { checkAuthPosture, loadConfig } from './config.js';
import { ensureOperatorToken } from './adapters/auth/index.js';
import { createApp } from './app.js';
import { buildGraphQLSchema, startGraphQLServer, type GraphQLServer } from './adapters/graphql/index.js';
import type { ShutdownReport } from './contexts/subconscious/index.js';
import { signalReader } from './signals.js';
import { createMcpHandler } from './adapters/mcp/index.js';
import { workerName } from './adapters/bullmq/index.js';
import type { Embedder } from './adapters/embeddings/index.js';
import { createLogger } from './adapters/logger.js';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const apiOnly = args.includes('--api-only');
  const workerOnly = args.includes('--worker-only');
  if (apiOnly && workerOnly) throw new Error('choose one of --api-only and --worker-only (or neither, for both)');
  const config = loadConfig();
  checkAuthPosture(config);
  const logger = createLogger(config.log);
  const say = logger.info;
  const app = await createApp(config, { workers: !apiOnly, logger });

  let finishing = false;
  let server: GraphQLServer | null = null;
  const finish = async (report: ShutdownReport) => {
    if (finishing) return;
    finishing = true;
    say(
      report.ready
        ? `ready: cold storage verified at ${report.coldStoragePath}`
        : 'shutdown protocol did not complete; see the steps above',
    );
    await server?.stop();
    await app.close();
    process.exit(report.ready ? 0 : 1);
  };

  if (!workerOnly) {
    const ports = {
      ...app.ports,
      // The mutation answers with the report; the process exits right after.
      shutdown: async (dir: string | null) => {
        const report = await app.ports.shutdown(dir);
        setTimeout(() => void finish(report), 200).unref();
        return report;
      },
    };
    const file = config.security.operatorTokenFile;
    if (config.security.auth !== 'off') {
      const { created } = await ensureOperatorToken(app.tokens, file);
      const made = created ? 'Operator token created' : 'Operator token';
      say(`${made}: ${file} (mode 0600; send it as "Authorization: Bearer <token>")`);
    }
    const options = await app.serverOptions();
    // MCP (Streamable HTTP) on the same server and port, over the same ports, admitted like GraphQL.
    const mcp = createMcpHandler({ defaultStore: config.defaultStore, version: config.version });
    server = await startGraphQLServer(await buildGraphQLSchema(), ports, config.host, config.port, {
      ...options,
      admission: config.admission,
      routes: { '/mcp': mcp },
      defaultStore: config.defaultStore,
    });
    const off =
      options.authenticator.mode === 'off' ? ' (TOTAL_RECALL_AUTH=off: every caller reaches every store)' : '';
    say(`Authentication ${options.authenticator.mode}${off}`);
    say(`GraphQL ready at ${server.url}${apiOnly ? ' (API only: no background worker)' : ''}`);
    say(`MCP (Streamable HTTP) ready at ${server.url.replace(/\/graphql$/, '/mcp')}`);
  }
  // The name its jobs record as processedBy: which worker process ran what.
  if (!apiOnly) {
    say(`Background worker ready (queues under "${config.subconscious.queuePrefix}", worker ${workerName()})`);
  }
  onceReady(app.embedder, () => say(`Embedding model ready (${app.embedder.model})`));
  if (!workerOnly) app.synapse.warmUp();

  const readSignal = signalReader(1000);
  const onSignal = (signal: string) => {
    const action = readSignal();
    if (action === 'shut down') {
      say(`${signal}: shutdown protocol (send it again a second later to exit without it)`);
      void app.shutdown().then(finish);
    } else if (action === 'exit now') {
      say(`${signal} again: exiting without finishing the shutdown protocol`);
      process.exit(130);
    }
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
}

/** Says once that the model is loaded: from then on this process embeds (a worker) or searches by meaning (an API). */
function onceReady(embedder: Embedder, then: () => void): void {
  let told = false;
  const check = () => {
    if (!told && embedder.status().state === 'ready') {
      told = true;
      then();
    }
  };
  embedder.onChange(check);
  check();
}

main().catch((error: unknown) => {
  // A typed start-up error (ConfigError) names its code, so a supervisor's log says which setting to fix.
  // Written directly: a bad setting can stop the start before the logger exists.
  const code = (error as { code?: unknown }).code;
  const named = typeof code === 'string' && code.startsWith('CONFIG.') ? `${code}: ` : '';
  console.error(`error: ${named}${(error as Error).message}`);
  process.exit(1);
});
