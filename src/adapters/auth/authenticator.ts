/**
 * Who is calling: the one place a request's credentials become a Caller.
 * GraphQL over HTTP, graphql-ws and MCP over HTTP all call `callerFrom`.
 *
 * - A bearer token must be valid (known, unrevoked); its scope and stores
 *   become the caller's access, and a token bound to an instance fixes the
 *   caller's instance (the x-instance-id header cannot change it); an
 *   operator or mind token without one takes x-instance-id's.
 * - Without a token: refused when authentication is on; with it off the caller
 *   is unrestricted, as before tokens, and may name itself by header.
 */
import { UnauthenticatedError, type Access } from '../../domain/index.js';
import type { Caller } from '../../contexts/cortex/index.js';
import { accessOf, type TokenRecord, type TokenStore } from './tokens.js';
import { bearerOf, hashToken } from './token-format.js';
import { callerName } from '../graphql/caller.js';

export type AuthMode = 'on' | 'off';
/** As configured: auto = on when any token exists when the service starts. */
export type AuthSetting = AuthMode | 'auto';

/** Header values as node:http gives them (lower-case names). */
export type HeaderSource = Readonly<Record<string, string | readonly string[] | undefined>>;

/** How long a verified token is trusted without asking Neo4j again (a revocation takes at most this long). */
const VERIFIED_TTL_MS = 5_000;

const header = (headers: HeaderSource, name: string): string | null => {
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
};

/** A header as sent (callerName trims and checks it). */
const rawHeader = (headers: HeaderSource, name: string): string | undefined => {
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === 'string' ? value : undefined;
};

export interface CallerHints {
  /** Explicit instance and session names (graphql-ws connectionParams), taking precedence over headers. */
  readonly instanceId?: string | null;
  readonly sessionId?: string | null;
  /** A token given outside the headers (graphql-ws connectionParams). */
  readonly token?: string | null;
}

export class Authenticator {
  private readonly verified = new Map<string, { record: TokenRecord; at: number }>();

  constructor(
    readonly mode: AuthMode,
    private readonly tokens: TokenStore | null,
    private readonly clock: () => number = Date.now,
  ) {
    if (mode === 'on' && tokens === null) throw new Error('authentication on needs a token store');
  }

  /** Decides `auto` once: on when any unrevoked token exists now. */
  static async resolve(setting: AuthSetting, tokens: TokenStore): Promise<Authenticator> {
    const mode: AuthMode = setting === 'auto' ? ((await tokens.anyActive()) ? 'on' : 'off') : setting;
    return new Authenticator(mode, tokens);
  }

  /**
   * The caller behind these headers; UNAUTHENTICATED for a bad token, or for none when authentication is on.
   * `maxAgeMs`: the oldest verification trusted (a socket re-checking its token asks for a fresher one).
   */
  async callerFrom(headers: HeaderSource, hints: CallerHints = {}, maxAgeMs = VERIFIED_TTL_MS): Promise<Caller> {
    const authorization = header(headers, 'authorization');
    const token = hints.token ?? bearerOf(authorization);
    if (authorization !== null && token === null && !hints.token)
      throw new UnauthenticatedError('the Authorization header must be "Bearer <token>"');
    // A name holding a control character is refused (CORTEX.INVALID_*_ID) before anything runs.
    const instanceId = callerName(hints.instanceId ?? rawHeader(headers, 'x-instance-id'), 'instance');
    const sessionId = callerName(hints.sessionId ?? rawHeader(headers, 'x-session-id'), 'session');
    if (token === null) {
      if (this.mode === 'on')
        throw new UnauthenticatedError(
          'a token is required: send "Authorization: Bearer <token>" (an operator makes one with `npm run token -- ' +
            'create`)',
        );
      return { instanceId, sessionId };
    }
    const record = await this.verify(token, Math.min(maxAgeMs, VERIFIED_TTL_MS));
    if (!record) throw new UnauthenticatedError('the token is unknown or revoked');
    return callerOf(accessOf(record), instanceId, sessionId);
  }

  private async verify(token: string, maxAgeMs: number): Promise<TokenRecord | null> {
    if (!this.tokens) return null;
    const key = hashToken(token);
    const now = this.clock();
    const cached = this.verified.get(key);
    if (cached && now - cached.at < maxAgeMs) return cached.record;
    const record = await this.tokens.verify(token);
    if (record) this.verified.set(key, { record, at: now });
    else this.verified.delete(key);
    return record;
  }
}

/**
 * The caller a token makes. An instance-bound token is that instance; an
 * operator or a mind token without one names itself by header, as a caller
 * without a token does (it narrows what the caller may act on; its stores stay
 * the token's). A reader names none: it may not act as an instance.
 */
export function callerOf(access: Access, instanceId: string | null, sessionId: string | null): Caller {
  const instance = access.instanceId ?? (access.scope === 'reader' ? null : instanceId);
  return { instanceId: instance, sessionId, access };
}
