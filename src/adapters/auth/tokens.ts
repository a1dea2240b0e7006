/**
 * API tokens in Neo4j (label ApiToken): created, listed, revoked and verified.
 * Used by the service (verification) and by `npm run token` (administration).
 */
import {
  InvalidInputError,
  isName,
  NAME_CHARACTERS,
  SCOPES,
  type Access,
  type GraphPort,
  type Scope,
} from '../../domain/index.js';
import { Q } from './cypher.js';
import { generateToken, matchesHash, tokenId } from './token-format.js';

export interface TokenRecord {
  readonly id: string;
  readonly scope: Scope;
  readonly stores: readonly string[];
  readonly instanceId: string | null;
  readonly label: string | null;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
  readonly revoked: boolean;
}

export interface CreateTokenArgs {
  readonly scope: Scope;
  /** The stores a mind or reader token reaches (at least one); an operator token reaches every store. */
  readonly stores?: readonly string[];
  readonly instanceId?: string | null;
  readonly label?: string | null;
}

/** How often a token's lastUsedAt is written at most (a write per request would cost more than the request). */
const TOUCH_EVERY_MS = 60_000;

const invalid = (code: string, text: string) => new InvalidInputError(`AUTH.${code}`, text);

function toRecord(row: Record<string, unknown>): TokenRecord {
  return {
    id: String(row.id),
    scope: row.scope as Scope,
    stores: Array.isArray(row.stores) ? row.stores.map(String) : [],
    instanceId: typeof row.instanceId === 'string' ? row.instanceId : null,
    label: typeof row.label === 'string' ? row.label : null,
    createdAt: Number(row.createdAt),
    lastUsedAt: typeof row.lastUsedAt === 'number' ? row.lastUsedAt : null,
    revoked: row.revoked === true,
  };
}

/** The access a token grants. */
export function accessOf(token: TokenRecord): Access {
  return {
    scope: token.scope,
    stores: token.scope === 'operator' ? null : token.stores,
    instanceId: token.instanceId,
    tokenId: token.id,
  };
}

/** Checks what `token create` was given; returns it normalised. */
export function validateCreate(args: CreateTokenArgs): Required<CreateTokenArgs> {
  if (!SCOPES.includes(args.scope)) throw invalid('INVALID_SCOPE', `scope must be one of ${SCOPES.join(', ')}`);
  const stores = [...new Set((args.stores ?? []).map((s) => s.trim()))];
  if (stores.some((s) => !isName(s, 200)))
    throw invalid('INVALID_STORE', `a store is 1 to 200 characters, ${NAME_CHARACTERS}`);
  if (args.scope !== 'operator' && stores.length === 0)
    throw invalid('STORE_REQUIRED', `a ${args.scope} token needs --store`);
  const instanceId = args.instanceId?.trim() || null;
  if (instanceId !== null && !isName(instanceId, 200))
    throw invalid('INVALID_INSTANCE', `an instance id is 1 to 200 characters, ${NAME_CHARACTERS}`);
  const label = args.label?.trim() || null;
  if (label !== null && label.length > 200) throw invalid('INVALID_LABEL', 'a label is at most 200 characters');
  return { scope: args.scope, stores, instanceId, label };
}

export class TokenStore {
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly graph: GraphPort,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Makes a token; the secret is in the answer only (it cannot be read back). */
  async create(args: CreateTokenArgs): Promise<{ token: string; record: TokenRecord }> {
    const valid = validateCreate(args);
    const made = generateToken();
    const rows = await this.graph.write<{ token: Record<string, unknown> }>(Q.createToken, {
      id: made.id,
      hash: made.hash,
      scope: valid.scope,
      stores: [...valid.stores],
      instanceId: valid.instanceId,
      label: valid.label,
      now: this.clock(),
    });
    return { token: made.token, record: toRecord(rows[0]?.token ?? {}) };
  }

  async list(): Promise<TokenRecord[]> {
    return (await this.graph.read<{ token: Record<string, unknown> }>(Q.listTokens)).map((r) => toRecord(r.token));
  }

  /** Revokes by id (the prefix `token list` shows) or by the whole token. Null when unknown. */
  async revoke(idOrToken: string): Promise<TokenRecord | null> {
    const id = tokenId(idOrToken) ?? idOrToken.trim();
    const rows = await this.graph.write<{ token: Record<string, unknown> }>(Q.revokeToken, { id, now: this.clock() });
    return rows[0] ? toRecord(rows[0].token) : null;
  }

  async anyActive(): Promise<boolean> {
    const rows = await this.graph.read<{ exists: boolean }>(Q.anyActiveToken);
    return rows[0]?.exists === true;
  }

  /** The token's record when it is well formed, known, unrevoked and its hash matches; else null. */
  async verify(token: string): Promise<TokenRecord | null> {
    const id = tokenId(token);
    if (id === null) return null;
    const rows = await this.graph.read<{ token: Record<string, unknown> }>(Q.findToken, { id });
    const row = rows[0]?.token;
    if (!row || typeof row.hash !== 'string' || !matchesHash(token, row.hash)) return null;
    const record = toRecord(row);
    if (record.revoked) return null;
    const now = this.clock();
    if (now - (this.touched.get(id) ?? 0) >= TOUCH_EVERY_MS) {
      this.touched.set(id, now);
      // Bookkeeping only: a failure here must not refuse the caller.
      void this.graph.write(Q.touchToken, { id, now }).catch(() => this.touched.delete(id));
    }
    return record;
  }
}
