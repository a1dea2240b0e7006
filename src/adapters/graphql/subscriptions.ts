/**
 * Subscriptions: graphql-ws on the HTTP server's own port and path, with the
 * same Host and Origin checks, the same parsing limits, validation rules,
 * introspection and suggestion policy. Only subscriptions are served here (the
 * contract has no other use for a socket; queries and mutations go over HTTP).
 * Each operation is admitted as an HTTP request is: its token checked again,
 * one count against its rate limit, its token's entry share and a slot while
 * it is set up; and a socket's open subscriptions end once its token is revoked.
 */
import type { IncomingMessage, Server } from 'node:http';
import {
  GraphQLError,
  getOperationAST,
  NoSchemaIntrospectionCustomRule,
  OperationTypeNode,
  parse,
  specifiedRules,
  subscribe,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { CloseCode, type Context } from 'graphql-ws';
import { WebSocketServer } from 'ws';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import { InvalidInputError, UnauthenticatedError } from '../../domain/index.js';
import type { Caller } from '../../contexts/cortex/index.js';
import type { CallerHints, HeaderSource } from '../auth/index.js';
import type { RequestLimits } from '../../settings/request-limits.js';
import { formatError, publicError } from './errors.js';
import { hostAllowed, originAllowed } from './http-guards.js';
import { neverQueued, type Admission } from './admission.js';
import type { GraphQLContext } from './context.js';

export interface SubscriptionDeps {
  readonly http: Server;
  readonly schema: GraphQLSchema;
  readonly host: string;
  readonly limits: RequestLimits;
  readonly validationRules: readonly ValidationRule[];
  readonly contextFor: (caller: Caller) => GraphQLContext;
  /** The token checked and one count against its rate limit, as for an HTTP request. */
  readonly admit: (headers: HeaderSource, hints?: CallerHints) => Promise<Caller>;
  /** The token checked alone, trusting a verification at most `maxAgeMs` old. */
  readonly authenticate: (headers: HeaderSource, hints: CallerHints, maxAgeMs: number) => Promise<Caller>;
  /** One token's requests in the process at once (null: no share), as over HTTP. */
  readonly entryShare: Admission | null;
  /** The process's slots (null: every operation runs at once). */
  readonly admission: Admission | null;
}

/** What a socket keeps between its operations. */
type Connection = {
  hints?: CallerHints;
  refusal?: InvalidInputError;
  recheck?: NodeJS.Timeout;
};

type SocketContext = Context<Record<string, unknown>, Extra & Partial<Connection>>;

/**
 * A socket with open subscriptions checks its token this often, trusting a verification at most this old: a revoked
 * token's subscriptions end within RECHECK_MS + RECHECK_MAX_AGE_MS and one lookup, inside the 5 s the README promises.
 */
const RECHECK_MS = 1_000;
const RECHECK_MAX_AGE_MS = 3_000;
/** What armor's suggestion blocking leaves over HTTP. */
const SUGGESTION = /Did you mean ".+"/g;
const SUGGESTION_MASK = '[Suggestion hidden]';

/** Serves subscriptions until the returned stop is called. */
export function serveSubscriptions(deps: SubscriptionDeps): { stop(): Promise<void> } {
  const { http, schema, host, limits, contextFor, admit, authenticate, entryShare, admission } = deps;
  // Apollo's introspection switch and armor's suggestion blocking act over HTTP only: the same policy here.
  const rules = [
    ...specifiedRules,
    ...deps.validationRules,
    ...(limits.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
  ];
  /** What each operation holds while it is set up (its entry share, its slot), by its context. */
  const held = new WeakMap<object, () => void>();
  const wss = new WebSocketServer({
    server: http,
    path: '/graphql',
    maxPayload: 1024 * 1024,
    verifyClient: ({ req }: { req: IncomingMessage }) =>
      hostAllowed(req.headers.host, host, limits.allowedHosts) && originAllowed(req.headers.origin, req.headers.host),
  });

  /** Ends the socket's subscriptions once its token no longer verifies (an idle socket's next operation is refused). */
  const watchRevocation = (ctx: SocketContext): NodeJS.Timeout => {
    let checking = false;
    return setInterval(() => {
      // Only running subscriptions: an operation still being set up checks the token itself.
      if (checking || !Object.values(ctx.subscriptions).some((running) => running !== null)) return;
      checking = true;
      authenticate(ctx.extra.request.headers, ctx.extra.hints ?? {}, RECHECK_MAX_AGE_MS)
        .catch((error: unknown) => {
          // An outage while checking is no revocation: the subscriptions go on and are checked again.
          if (error instanceof UnauthenticatedError)
            ctx.extra.socket.close(CloseCode.Forbidden, 'UNAUTHENTICATED: the token is unknown or revoked');
        })
        .finally(() => {
          checking = false;
        });
    }, RECHECK_MS).unref();
  };

  const subscriptions = useServer<Record<string, unknown>, Connection>(
    {
      schema,
      onSubscribe: async (ctx, _id, payload) => {
        if (ctx.extra.refusal) return refused(ctx.extra.refusal);
        const holding: (() => void)[] = [];
        const release = () => {
          for (const done of holding.splice(0)) done();
        };
        try {
          // In HTTP's order: token and rate limit, the token's entry share, the document's limits, then a slot.
          const caller = await admit(ctx.extra.request.headers, ctx.extra.hints);
          const tokenId = caller.access?.tokenId ?? null;
          if (entryShare && tokenId) holding.push(await entryShare.enter(tokenId));
          let document: DocumentNode;
          try {
            document = parse(payload.query, { maxTokens: limits.maxTokens });
          } catch (error) {
            release();
            const parseError =
              error instanceof GraphQLError ? error : new GraphQLError('the query could not be parsed');
            return coded([parseError], 'GRAPHQL_PARSE_FAILED');
          }
          const errors = validate(schema, document, rules);
          if (errors.length > 0) {
            release();
            return coded(errors, 'GRAPHQL_VALIDATION_FAILED', !limits.fieldSuggestions);
          }
          const operation = getOperationAST(document, payload.operationName);
          if (operation?.operation !== OperationTypeNode.SUBSCRIPTION) {
            release();
            return [
              new GraphQLError('only subscriptions are served over graphql-ws: send queries and mutations over HTTP', {
                extensions: { code: 'BAD_REQUEST' },
              }),
            ];
          }
          if (admission && !neverQueued(operation)) holding.push(await admission.enter(tokenId));
          const contextValue = contextFor(caller);
          held.set(contextValue, release);
          return {
            schema,
            document,
            variableValues: payload.variables,
            operationName: payload.operationName,
            contextValue,
          };
        } catch (error) {
          release();
          return refused(error);
        }
      },
      // The entry share and the slot are held while the subscription is set up, not for its whole life.
      subscribe: async (args) => {
        try {
          return await subscribe(args);
        } finally {
          held.get(args.contextValue as object)?.();
        }
      },
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const text = (key: string) =>
          typeof params[key] === 'string' && (params[key] as string).trim() !== ''
            ? (params[key] as string).trim()
            : null;
        const bearer = text('authorization')?.replace(/^Bearer\s+/i, '') ?? null;
        const raw = (key: string) => (typeof params[key] === 'string' ? (params[key] as string) : null);
        ctx.extra.hints = {
          token: text('token') ?? bearer,
          instanceId: raw('instanceId'),
          sessionId: raw('sessionId'),
        };
        try {
          const caller = await admit(ctx.extra.request.headers, ctx.extra.hints);
          // The socket may have closed while it was admitted: onClose has run then, and would never clear a watch.
          if (caller.access && ctx.extra.socket.readyState === ctx.extra.socket.OPEN)
            ctx.extra.recheck = watchRevocation(ctx);
          return true;
        } catch (error) {
          // A bad name is answered as each operation's typed error (a refused connection could carry no code).
          if (error instanceof InvalidInputError) {
            ctx.extra.refusal = error;
            return true;
          }
          // Refused (4403, graphql-ws's refused connection) with the code HTTP gives in the reason, as a revoked
          // token's subscriptions end; graphql-ws's own close after this one is a no-op.
          const { code, message } = publicError(error, 'graphql-ws');
          ctx.extra.socket.close(CloseCode.Forbidden, `${code}: ${message}`.slice(0, 120));
          return false;
        }
      },
      onClose: (ctx) => clearInterval(ctx.extra.recheck),
      // Domain errors keep their code, as over HTTP.
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((e) => formatError(e.toJSON(), e)) } : undefined,
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => formatError(e.toJSON(), e)),
    },
    wss,
  );
  return {
    async stop() {
      await subscriptions.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** A refusal before anything ran as the operation's typed error, with the code and retry hint HTTP gives. */
function refused(error: unknown): GraphQLError[] {
  const { code, message, details, retryAfterMs } = publicError(error, 'graphql-ws');
  const retry = retryAfterMs === undefined ? {} : { retryable: true, retryAfterMs };
  return [new GraphQLError(message, { extensions: { code, ...retry, ...(details ? { details } : {}) } })];
}

/** graphql-js's own errors with the code Apollo gives them over HTTP, suggestions masked when HTTP masks them. */
function coded(errors: readonly GraphQLError[], code: string, maskSuggestions = false): GraphQLError[] {
  return errors.map(
    (e) =>
      new GraphQLError(maskSuggestions ? e.message.replace(SUGGESTION, SUGGESTION_MASK) : e.message, {
        nodes: e.nodes,
        source: e.source,
        positions: e.positions,
        extensions: { ...e.extensions, code },
      }),
  );
}
