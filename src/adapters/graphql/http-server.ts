/**
 * Serves GraphQL over HTTP at /graphql with Apollo Server on node:http
 * (no framework: the server has /graphql and the routes it is given, such as
 * the MCP endpoint at /mcp). Callers may name themselves with the
 * `x-instance-id` and `x-session-id` headers (caller.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { formatError } from './errors.js';
import type { GraphQLContext, Ports } from './context.js';
import { callerFromRequest, callerName } from './caller.js';

export interface GraphQLServer {
  readonly url: string;
  readonly http: Server;
  readonly apollo: ApolloServer<GraphQLContext>;
  stop(): Promise<void>;
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

/** A header's raw value (callerName trims and checks it). */
const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** Another handler on the same server and port (the MCP endpoint at /mcp). */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface GraphQLServerOptions {
  /** Extra paths served beside /graphql, by exact pathname. */
  readonly routes?: Readonly<Record<string, RouteHandler>>;
}

export async function startGraphQLServer(
  schema: GraphQLSchema,
  ports: Ports,
  host: string,
  port: number,
  options: GraphQLServerOptions = {},
): Promise<GraphQLServer> {
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    formatError,
    // Callers get the code and the message; stack traces go to the server log only.
    includeStacktraceInErrorResponses: false,
    introspection: true,
    // Our own shutdown protocol runs on SIGTERM/SIGINT, not Apollo's.
    stopOnTerminationSignals: false,
  });
  await apollo.start();

  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    const route = options.routes?.[url.pathname];
    if (route) {
      await route(req, res).catch((error: unknown) => {
        console.error(`[http] ${url.pathname} failed`, error);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'internal error' }));
        else res.end();
      });
      return;
    }
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
        context: async () => ({ ports, caller: await callerFromRequest(req) }),
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
  const socketCaller = (ctx: { connectionParams?: Readonly<Record<string, unknown>>; extra: { request: IncomingMessage } }) => {
    const params = ctx.connectionParams ?? {};
    const named = (key: 'instanceId' | 'sessionId', headerName: string, what: 'instance' | 'session') =>
      callerName(typeof params[key] === 'string' && (params[key] as string).trim() !== '' ? params[key] : header(ctx.extra.request, headerName), what);
    return { instanceId: named('instanceId', 'x-instance-id', 'instance'), sessionId: named('sessionId', 'x-session-id', 'session') };
  };
  const subscriptions = useServer<Record<string, unknown>>(
    {
      schema,
      context: (ctx) => ({ ports, caller: socketCaller(ctx) }) satisfies GraphQLContext,
      // A bad name is refused as the operation's error (context() cannot answer with one).
      onSubscribe: (ctx) => {
        try {
          socketCaller(ctx);
          return undefined;
        } catch (error) {
          if (error instanceof GraphQLError) return [error];
          throw error;
        }
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
    async stop() {
      await subscriptions.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await apollo.stop();
    },
  };
}
