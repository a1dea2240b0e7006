/**
 * What a token looks like and how it is checked, without a database:
 * `tr_<id>_<secret>`, where the id (10 lowercase hex characters) is the lookup
 * prefix kept in clear and the secret is 32 random bytes (base64url). Only the
 * SHA-256 of the whole token is stored; it is compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const TOKEN = /^tr_([0-9a-f]{10})_([A-Za-z0-9_-]{43})$/;

export interface NewToken {
  readonly id: string;
  readonly token: string;
  readonly hash: string;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function generateToken(): NewToken {
  const id = randomBytes(5).toString('hex');
  const token = `tr_${id}_${randomBytes(32).toString('base64url')}`;
  return { id, token, hash: hashToken(token) };
}

/** The lookup id of a well-formed token, or null. */
export function tokenId(token: string): string | null {
  return TOKEN.exec(token)?.[1] ?? null;
}

/** Whether `token` hashes to `storedHash`, in time independent of where they differ. */
export function matchesHash(token: string, storedHash: string): boolean {
  const given = Buffer.from(hashToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The bearer token of an Authorization header value, or null when there is none. */
export function bearerOf(header: string | null | undefined): string | null {
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? (match[1] as string) : null;
}
