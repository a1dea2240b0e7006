/**
 * What one GraphQL request may ask for, and which hosts count as this machine: read by the configuration
 * and by the GraphQL adapter, so they live with the settings rather than in either.
 */
import { settings } from '../domain/index.js';
import { SERVER_SETTINGS } from './server.js';

type Server = settings.SettingsOf<typeof SERVER_SETTINGS>;

/** What one GraphQL request may ask for (graphql-armor, the body reader and the per-request pool share). */
export interface RequestLimits {
  readonly maxBodyBytes: number;
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxTokens: number;
  readonly maxCost: number;
  readonly maxDirectives: number;
  /** Port calls one request runs at once (its share of the Neo4j pool). */
  readonly requestConcurrency: number;
  readonly introspection: boolean;
  /** "Did you mean …?" in validation errors (off outside development: they map the schema for an attacker). */
  readonly fieldSuggestions: boolean;
  /** Host header names accepted besides loopback ones and HOST (DNS rebinding). */
  readonly allowedHosts: readonly string[];
}

/** What one request may ask for when no setting says otherwise. */
export const DEFAULT_LIMITS: RequestLimits = requestLimits(settings.readSettings(SERVER_SETTINGS, {}));

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
export const isLoopback = (host: string): boolean =>
  LOOPBACK.has(host.trim().toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host.trim());

export function requestLimits(s: Server): RequestLimits {
  return {
    maxBodyBytes: s.maxBodyBytes,
    maxDepth: s.maxDepth,
    maxAliases: s.maxAliases,
    maxTokens: s.maxTokens,
    maxCost: s.maxCost,
    maxDirectives: s.maxDirectives,
    requestConcurrency: s.requestConcurrency,
    introspection: s.introspection,
    fieldSuggestions: s.nodeEnv === 'development',
    allowedHosts: s.allowedHosts ?? [],
  };
}
