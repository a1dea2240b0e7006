/**
 * Serves GraphQL over HTTP at /graphql with Apollo Server on node:http
 * (no framework: the server has one route). Callers may name themselves with
 * the `x-instance-id` and `x-session-id` headers.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { ApolloServer, HeaderMap } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { formatError } from './errors.js';
import { Admission, admissionPlugin, type AdmissionSettings } from './admission.js';
import type { GraphQLContext, Ports } from './context.js';

export interface GraphQLServer {
  readonly url: string;
  readonly http: Server;
  readonly apollo: ApolloServer<GraphQLContext>;
  /** This process's admission control (null: every operation runs at once). */
  readonly admission: Admission | null;
  stop(): Promise<void>;
}

export interface GraphQLServerOptions {
  /** Bounded concurrency and queue per process (config.admission); null or absent: none. */
  readonly admission?: AdmissionSettings | null;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const header = (req: IncomingMessage, name: string): string | null => {
  const value = req.headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
};

export async function startGraphQLServer(schema: GraphQLSchema, ports: Ports, host: string, port: number, options: GraphQLServerOptions = {}): Promise<GraphQLServer> {
  const admission = options.admission ? new Admission(options.admission) : null;
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    formatError,
    plugins: [admissionPlugin(admission)],
    // Callers get the code and the message; stack traces go to the server log only.
    includeStacktraceInErrorResponses: false,
    introspection: true,
    // Our own shutdown protocol runs on SIGTERM/SIGINT, not Apollo's.
    stopOnTerminationSignals: false,
  });
  await apollo.start();

  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    if (url.pathname !== '/graphql') {
      res.writeHead(url.pathname === '/' ? 302 : 404, url.pathname === '/' ? { location: '/graphql' } : {}).end();
      return;
    }
    try {
      const headers = new HeaderMap();
      for (const [key, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
      }
      const raw = req.method === 'POST' ? await readBody(req) : '';
      const body = raw && (headers.get('content-type') ?? '').includes('json') ? JSON.parse(raw) : raw;
      const result = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method: req.method ?? 'GET', headers, search: url.search, body },
        context: async () => ({ ports, caller: { instanceId: header(req, 'x-instance-id'), sessionId: header(req, 'x-session-id') } }),
      });
      for (const [key, value] of result.headers) res.setHeader(key, value);
      res.statusCode = result.status ?? 200;
      if (result.body.kind === 'complete') res.end(result.body.string);
      else {
        for await (const chunk of result.body.asyncIterator) res.write(chunk);
        res.end();
      }
    } catch (error) {
      const message = error instanceof SyntaxError ? 'request body is not valid JSON' : (error as Error).message;
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] }));
    }
  });
  http.keepAliveTimeout = 65_000;
  // Subscriptions: graphql-ws on the same server and path. A client names
  // itself with connectionParams { instanceId, sessionId } or the same headers.
  const wss = new WebSocketServer({ server: http, path: '/graphql' });
  const subscriptions = useServer<Record<string, unknown>>(
    {
      schema,
      context: (ctx) => {
        const params = ctx.connectionParams ?? {};
        const named = (key: 'instanceId' | 'sessionId', headerName: string) =>
          typeof params[key] === 'string' && (params[key] as string).trim() !== '' ? (params[key] as string).trim() : header(ctx.extra.request, headerName);
        return { ports, caller: { instanceId: named('instanceId', 'x-instance-id'), sessionId: named('sessionId', 'x-session-id') } } satisfies GraphQLContext;
      },
      // Domain errors keep their code, as over HTTP.
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((e) => formatError(e.toJSON(), e)) } : undefined,
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => formatError(e.toJSON(), e)),
    },
    wss,
  );
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => resolve());
  });
  const address = http.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host}:${actualPort}/graphql`,
    http,
    apollo,
    admission,
    async stop() {
      await subscriptions.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await apollo.stop();
    },
  };
}
