/**
 * Serves GraphQL over HTTP at /graphql with Apollo Server on node:http (no
 * framework: the server has one route), and subscriptions over graphql-ws on
 * the same path. Every request is admitted in this order: Host and Origin
 * (DNS rebinding, web pages), body size (413), the caller's token
 * (Authenticator.callerFrom, 401), its rate limit (429), its share of requests
 * in the process (more wait behind its own, or BUSY); then graphql-armor's
 * limits on depth, aliases, tokens and cost, and a bounded share of the pool.
 * Other routes (/mcp) are checked for Host, Origin and token the same way, and
 * get the rate limit, admission and pool share on their first port call; each
 * graphql-ws operation gets all of them too (subscriptions.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ApolloServer, HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { GraphQLSchema, ValidationRule } from 'graphql';
import { RequestScope, type Caller } from '../../contexts/cortex/index.js';
import { Authenticator, type HeaderSource } from '../auth/index.js';
import type { TokenRateLimit } from '../auth/rate-limit.js';
import { DEFAULT_LIMITS, type RequestLimits } from '../../settings/request-limits.js';
import { formatError } from './errors.js';
import { admitted } from './caller.js';
import { failingFast } from '../../domain/index.js';
import { hostAllowed, originAllowed, readBody, refuse, sendError } from './http-guards.js';
import { serveSubscriptions } from './subscriptions.js';
import { limitedPorts } from './limited-ports.js';
import type { RequestActivity } from '../request-activity.js';
import { Admission, admissionPlugin, type AdmissionSettings } from './admission.js';
import type { GraphQLContext, Ports } from './context.js';
import { serveBrowserContent } from '../browser/index.js';
import { processLogger } from '../logger.js';

export interface GraphQLServer {
  readonly url: string;
  readonly http: Server;
  readonly apollo: ApolloServer<GraphQLContext>;
  /** This process's admission control (null: every operation runs at once). */
  readonly admission: Admission | null;
  stop(): Promise<void>;
}

/**
 * Another handler on the same server and port (the MCP endpoint at /mcp). It
 * gets the request's view of the ports: the same share of the Neo4j pool as a
 * GraphQL request, and the caller's rate limit and an admission slot taken
 * when it first reaches them (a refusal is that call's typed error).
 */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, scope: RouteScope) => Promise<void>;

export interface RouteScope {
  readonly ports: Ports;
  /**
   * Runs the handling of one message of a request that carries several (an MCP JSON-RPC batch): its first port
   * call counts against the rate limit on its own, so a batch of n calls counts n times, as n requests would.
   */
  eachMessage<T>(handle: () => T): T;
}

/** One message of a batched route request: whether (and how) it has been counted against the rate limit yet. */
interface MessageCount {
  counted: Promise<void> | null;
}
const messageCounts = new AsyncLocalStorage<MessageCount>();

export interface ServerOptions {
  /**
   * Extra paths served beside /graphql, by exact pathname: Host, Origin and token checked as for /graphql; rate limit,
   * admission and pool share through their RouteScope.
   */
  readonly routes?: Readonly<Record<string, RouteHandler>>;
  /** Who is calling (default: authentication off, as before tokens). */
  readonly authenticator?: Authenticator;
  /** Requests per token (none: unlimited). */
  readonly rateLimit?: TokenRateLimit | null;
  readonly limits?: RequestLimits;
  /** Bounded concurrency and queue per process (config.admission); null or absent: none. */
  readonly admission?: AdmissionSettings | null;
  /** The store the Neo4j Browser guide (/browser/guide.html) shows when it names none. */
  readonly defaultStore?: string;
  /** Marks each request while it runs, so background work yields to it. */
  readonly activity?: RequestActivity;
}

export type GraphQLServerOptions = ServerOptions;

/** Accesses deferred by reads are written once the whole request succeeded (a failed read writes nothing). */
const requestScopePlugin: ApolloServerPlugin<GraphQLContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ contextValue, response }) {
        const scope = contextValue.caller.request;
        if (!scope) return;
        const body = response.body;
        const failed = body.kind === 'single' ? (body.singleResult.errors?.length ?? 0) > 0 : true;
        if (failed) scope.discard();
        else
          await scope
            .commit()
            .catch((error: unknown) =>
              processLogger().error('[graphql] could not record the accesses of a read:', error),
            );
      },
    };
  },
};

export async function startGraphQLServer(
  schema: GraphQLSchema,
  ports: Ports,
  host: string,
  port: number,
  options: ServerOptions = {},
): Promise<GraphQLServer> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const authenticator = options.authenticator ?? new Authenticator('off', null);
  const rateLimit = options.rateLimit ?? null;
  // One token's requests in this process at once, counted from authentication on, so that its flood (parsing,
  // validating, answering, refusals included) waits behind itself and leaves the event loop to others.
  const entryShare =
    options.admission?.maxPerCaller === undefined
      ? null
      : new Admission({
          maxConcurrent: Number.MAX_SAFE_INTEGER,
          maxQueued: options.admission.maxQueued,
          maxWaitMs: options.admission.maxWaitMs,
          maxPerCaller: options.admission.maxPerCaller,
        });
  // Slots are given by the same counts: a heavy caller's request parsed while a lighter caller's runs waits for it.
  const admission = options.admission ? new Admission(options.admission, { load: entryShare }) : null;
  const armor = new ApolloArmor({
    maxDepth: { n: limits.maxDepth, ignoreIntrospection: true },
    maxAliases: { n: limits.maxAliases },
    maxTokens: { n: limits.maxTokens },
    maxDirectives: { n: limits.maxDirectives },
    costLimit: { maxCost: limits.maxCost, ignoreIntrospection: true },
    blockFieldSuggestion: { enabled: !limits.fieldSuggestions },
  }).protect();
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    formatError,
    plugins: [
      admissionPlugin(admission),
      ...(armor.plugins as ApolloServerPlugin<GraphQLContext>[]),
      requestScopePlugin,
    ],
    validationRules: armor.validationRules as ValidationRule[],
    // Callers get the code and the message; stack traces go to the server log only.
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    introspection: limits.introspection,
    // Our own shutdown protocol runs on SIGTERM/SIGINT, not Apollo's.
    stopOnTerminationSignals: false,
  });
  await apollo.start();

  /** The caller of a request, with this request's own scope and share of the pool. */
  const contextFor = (caller: Caller): GraphQLContext => ({
    ports: limitedPorts(ports, limits.requestConcurrency),
    caller: { ...caller, request: new RequestScope() },
  });

  const admit = async (headers: HeaderSource, hints?: Parameters<Authenticator['callerFrom']>[1]): Promise<Caller> => {
    const caller = await failingFast(() => authenticator.callerFrom(headers, hints));
    if (rateLimit && caller.access?.tokenId) await rateLimit.consume(caller.access.tokenId);
    return caller;
  };

  /**
   * A route's request counts once against its token's rate limit (each message
   * of a batch once, through eachMessage) and takes one admission slot (given
   * back when the response closes), both on its first port call: a refusal is
   * then the call's own typed error (an MCP error result with the code GraphQL
   * gives). Health is never queued, as over GraphQL.
   */
  const routeScope = (caller: Caller, res: ServerResponse): RouteScope => {
    const request: MessageCount = { counted: null };
    let slot: Promise<void> | null = null;
    let release: (() => void) | null = null;
    res.once('close', () => release?.());
    const count = () => {
      const message = messageCounts.getStore() ?? request;
      message.counted ??=
        rateLimit && caller.access?.tokenId ? rateLimit.consume(caller.access.tokenId) : Promise.resolve();
      return message.counted;
    };
    const enter = () =>
      (slot ??= admission
        ? admission.enter(caller.access?.tokenId ?? null).then((done) => {
            if (res.closed) done();
            else release = done;
          })
        : Promise.resolve());
    const guard = async (port: keyof Ports) => {
      await count();
      if (port !== 'health') await enter();
    };
    return {
      ports: limitedPorts(ports, limits.requestConcurrency, guard),
      eachMessage: (handle) => messageCounts.run({ counted: null }, handle),
    };
  };

  const http = createServer(async (req, res) => {
    if (options.activity) res.once('close', options.activity.begin());
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!hostAllowed(req.headers.host, host, limits.allowedHosts))
      return sendError(res, 403, 'FORBIDDEN_HOST', 'this Host is not served here');
    // The Browser guide and style are public pages the Neo4j Browser (another origin) fetches.
    if (serveBrowserContent(req, res, url, options.defaultStore ?? 'default')) return;
    if (!originAllowed(req.headers.origin, req.headers.host))
      return sendError(res, 403, 'FORBIDDEN_ORIGIN', 'requests from web pages of other origins are refused');
    const route = options.routes?.[url.pathname];
    if (route) {
      let caller: Caller;
      try {
        // The route's callerFromRequest(req) gets this authenticated caller.
        caller = await failingFast(() => authenticator.callerFrom(req.headers));
        admitted.set(req, caller);
      } catch (error) {
        return refuse(res, error, limits.maxBodyBytes);
      }
      await route(req, res, routeScope(caller, res)).catch((error: unknown) => {
        processLogger().error(`[http] ${url.pathname} failed`, error);
        if (!res.headersSent)
          res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'internal error' }));
        else res.end();
      });
      return;
    }
    if (url.pathname !== '/graphql') {
      res.writeHead(url.pathname === '/' ? 302 : 404, url.pathname === '/' ? { location: '/graphql' } : {}).end();
      return;
    }
    try {
      const raw = req.method === 'POST' ? await readBody(req, limits.maxBodyBytes) : '';
      const caller = await admit(req.headers);
      const tokenId = caller.access?.tokenId;
      if (entryShare && tokenId) {
        const leave = await entryShare.enter(tokenId);
        // A client that hung up while it waited gives its place back at once ('close' has already fired).
        if (res.closed) return leave();
        res.once('close', leave);
      }
      const headers = new HeaderMap();
      for (const [key, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
      }
      const body = raw && (headers.get('content-type') ?? '').includes('json') ? JSON.parse(raw) : raw;
      const result = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method: req.method ?? 'GET', headers, search: url.search, body },
        context: async () => contextFor(caller),
      });
      for (const [key, value] of result.headers) res.setHeader(key, value);
      res.statusCode = result.status ?? 200;
      // A query refused while parsing (graphql-armor's token limit, a syntax error) comes back 500 from Apollo: it is
      // the request's fault.
      if (
        res.statusCode === 500 &&
        result.body.kind === 'complete' &&
        !result.body.string.includes('INTERNAL_SERVER_ERROR')
      )
        res.statusCode = 400;
      if (result.body.kind === 'complete') res.end(result.body.string);
      else {
        for await (const chunk of result.body.asyncIterator) res.write(chunk);
        res.end();
      }
    } catch (error) {
      refuse(res, error, limits.maxBodyBytes);
    }
  });
  http.keepAliveTimeout = 65_000;
  http.headersTimeout = 30_000;
  http.requestTimeout = 120_000;
  const subscriptions = serveSubscriptions({
    http,
    schema,
    host,
    limits,
    validationRules: armor.validationRules as ValidationRule[],
    contextFor,
    admit,
    authenticate: (headers, hints, maxAgeMs) => failingFast(() => authenticator.callerFrom(headers, hints, maxAgeMs)),
    entryShare,
    admission,
  });
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
      await subscriptions.stop();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await apollo.stop();
      await rateLimit?.close();
    },
  };
}
