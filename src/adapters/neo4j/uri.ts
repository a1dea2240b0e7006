/**
 * Which NEO4J_URI schemes the driver takes: `bolt` talks to one server,
 * `neo4j` routes (a cluster or Aura: writes to the leader, reads to any
 * member); `+s` is TLS with a verified certificate, `+ssc` TLS with a
 * self-signed one.
 */
import { ConfigError } from '../../domain/index.js';

export const NEO4J_SCHEMES = ['bolt', 'bolt+s', 'bolt+ssc', 'neo4j', 'neo4j+s', 'neo4j+ssc'] as const;

/** The URI as given, or a ConfigError (CONFIG.NEO4J_URI) that names the schemes taken. */
export function checkNeo4jUri(uri: string): string {
  const match = /^([a-z0-9+]+):\/\/([^/?#]+)/i.exec(uri.trim());
  const scheme = match?.[1]?.toLowerCase();
  if (!match || !(NEO4J_SCHEMES as readonly string[]).includes(scheme ?? '')) {
    throw new ConfigError(
      'CONFIG.NEO4J_URI',
      `NEO4J_URI must be <scheme>://host[:port] with a scheme of ${NEO4J_SCHEMES.join(', ')}; got "${uri}"`,
      { uri },
    );
  }
  return uri.trim();
}
