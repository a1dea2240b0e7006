/**
 * Subscriptions: graphql-ws on the HTTP server's own port and path, with the
 * same Host and Origin checks, the same parsing limits and validation rules,
 * and a caller admitted once per connection.
 */
import type { IncomingMessage, Server } from 'node:http';
import {
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { InvalidInputError } from '../../domain/index.js';
import type { Caller } from '../../contexts/cortex/index.js';
import type { Authenticator, HeaderSource } from '../auth/index.js';
import type { RequestLimits } from '../../settings/request-limits.js';
import { formatError } from './errors.js';
import { hostAllowed, originAllowed } from './http-guards.js';
import type { GraphQLContext } from './context.js';

export interface SubscriptionDeps {
  readonly http: Server;
  readonly schema: GraphQLSchema;
  readonly host: string;
  readonly limits: RequestLimits;
  readonly validationRules: readonly ValidationRule[];
  readonly contextFor: (caller: Caller) => GraphQLContext;
  readonly admit: (headers: HeaderSource, hints?: Parameters<Authenticator['callerFrom']>[1]) => Promise<Caller>;
}

/** Serves subscriptions until the returned stop is called. */
export function serveSubscriptions(deps: SubscriptionDeps): { stop(): Promise<void> } {
  const { http, schema, host, limits, contextFor, admit } = deps;
  const wss = new WebSocketServer({
    server: http,
    path: '/graphql',
    maxPayload: 1024 * 1024,
    verifyClient: ({ req }: { req: IncomingMessage }) =>
      hostAllowed(req.headers.host, host, limits.allowedHosts) && originAllowed(req.headers.origin, req.headers.host),
  });
  const subscriptions = useServer<Record<string, unknown>, { caller?: Caller; refusal?: InvalidInputError }>(
    {
      schema,
      // The same limits as over HTTP: tokens while parsing, then depth, aliases, cost.
      onSubscribe: (ctx, _id, payload) => {
        const refusal = ctx.extra.refusal;
        if (refusal) return [new GraphQLError(refusal.message, { extensions: { code: refusal.code } })];
        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: limits.maxTokens });
        } catch (error) {
          return [error instanceof GraphQLError ? error : new GraphQLError('the query could not be parsed')];
        }
        const errors = validate(schema, document, [...specifiedRules, ...deps.validationRules]);
        if (errors.length > 0) return errors;
        return {
          schema,
          document,
          variableValues: payload.variables,
          operationName: payload.operationName,
          contextValue: contextFor(ctx.extra.caller as Caller),
        };
      },
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const text = (key: string) =>
          typeof params[key] === 'string' && (params[key] as string).trim() !== ''
            ? (params[key] as string).trim()
            : null;
        const bearer = text('authorization')?.replace(/^Bearer\s+/i, '') ?? null;
        const raw = (key: string) => (typeof params[key] === 'string' ? (params[key] as string) : null);
        try {
          ctx.extra.caller = await admit(ctx.extra.request.headers, {
            token: text('token') ?? bearer,
            instanceId: raw('instanceId'),
            sessionId: raw('sessionId'),
          });
          return true;
        } catch (error) {
          // A bad name is answered as each operation's typed error (a refused connection could carry no code).
          if (error instanceof InvalidInputError) {
            ctx.extra.refusal = error;
            return true;
          }
          return false;
        }
      },
      context: (ctx) => contextFor(ctx.extra.caller as Caller) satisfies GraphQLContext,
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
