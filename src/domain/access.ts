/**
 * What a caller may reach: its scope and its stores, decided from its token
 * (src/adapters/auth). Pure functions every port uses the same way.
 */
import { ForbiddenError } from './errors.js';

/** mind: reads and writes its stores; reader: reads its stores; operator: everything. */
export type Scope = 'mind' | 'reader' | 'operator';

export const SCOPES: readonly Scope[] = ['mind', 'reader', 'operator'];

export interface Access {
  readonly scope: Scope;
  /** The stores this caller may reach; null = every store (an operator). */
  readonly stores: readonly string[] | null;
  /** The instance the token binds the caller to (null: none). */
  readonly instanceId: string | null;
  /** The token's id (its lookup prefix), for rate limits and logs; null without a token. */
  readonly tokenId: string | null;
}

/** A caller without restrictions: an operator, or anyone when authentication is off. */
export const OPEN_ACCESS: Access = { scope: 'operator', stores: null, instanceId: null, tokenId: null };

/** Without an access (auth off, internal callers) everything is open, as before tokens. */
const of = (access: Access | undefined): Access => access ?? OPEN_ACCESS;

export function mayReach(access: Access | undefined, store: string): boolean {
  const { stores } = of(access);
  return stores === null || stores.includes(store);
}

/**
 * The stores a command may touch for this caller (null: every store): the owner of the data answers a memory
 * outside them exactly as an unknown one, so a store-bound caller cannot tell the two apart.
 */
export function reachOf(access: Access | undefined): readonly string[] | null {
  return of(access).stores;
}

/** Whether `store` is within a command's reach (absent or null: every store). */
export function withinReach(reach: readonly string[] | null | undefined, store: string): boolean {
  return reach == null || reach.includes(store);
}

/** True when the caller is limited to some stores (reads by id must check the store). */
export function isStoreBound(access: Access | undefined): boolean {
  return of(access).stores !== null;
}

/**
 * The store a call acts on: the named one, else the caller's own (its token's
 * first store), else the service's default. Naming a store the caller may not
 * reach is FORBIDDEN.
 */
export function storeFor(access: Access | undefined, named: string | null | undefined, fallback: string): string {
  const { stores } = of(access);
  const store = named ?? (stores !== null ? (stores[0] ?? fallback) : fallback);
  if (!mayReach(access, store)) throw new ForbiddenError(`this token may not reach store "${store}"`, { store });
  return store;
}

/** A reader only reads: even its recalls are not recorded (README, Security). */
export function isReadOnly(access: Access | undefined): boolean {
  return of(access).scope === 'reader';
}

/** Writes need a mind or an operator token. */
export function requireWrite(access: Access | undefined): void {
  if (of(access).scope === 'reader') throw new ForbiddenError('a reader token may only read');
}

/** Shutdown, export, import and token administration are for operators. */
export function requireOperator(access: Access | undefined, what: string): void {
  if (of(access).scope !== 'operator') throw new ForbiddenError(`${what} needs an operator token`);
}
