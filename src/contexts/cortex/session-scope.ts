/**
 * A session named as the scope of a read (search's sessionId filter, contextFor's current session) must be one the
 * store read knows: a mistyped id, or one of another store, would narrow the read to nothing and be answered as if
 * the store had nothing to say. Refused as unknown, with the code an unknown session gets elsewhere.
 */
import { NotFoundError } from '../../domain/index.js';
import { foreignSession, type Caller, type SessionStores } from './memory-port.js';

/** Cortex's sessions as far as a scope check needs them. */
export interface SessionScope {
  /** Whether the store has a session of this id, or memories stored with it (a session never opened here). */
  knows(id: string, store: string): Promise<boolean>;
}

const sessionNotFound = (id: string, store: string) =>
  new NotFoundError('CORTEX.SESSION_NOT_FOUND', `no session with id ${id} in store "${store}"`, { id });

/** Refuses a named session the store does not know; no session named, or no sessions to ask, passes. */
export async function checkSessionScope(
  sessions: SessionScope | undefined,
  sessionId: string | null | undefined,
  store: string,
): Promise<void> {
  if (sessionId === null || sessionId === undefined || !sessions) return;
  if (!(await sessions.knows(sessionId, store))) throw sessionNotFound(sessionId, store);
}

/**
 * The caller's own session (x-session-id) is written into what a read records: one of another store than the one
 * read (so also of one the token may not reach) is refused, before anything is read. One no store knows passes: an
 * agent may name its session before it stores anything, as `store` allows.
 */
export async function checkCallerScope(
  sessions: SessionStores | undefined,
  caller: Caller,
  store: string,
): Promise<void> {
  const { sessionId } = caller;
  if (!sessionId || !sessions) return;
  const sessionStore = (await sessions.storesOf([sessionId])).get(sessionId);
  if (sessionStore !== undefined && sessionStore !== store) throw foreignSession(sessionId, `store "${store}"`);
}
