/**
 * A session named as the scope of a read (search's sessionId filter, contextFor's current session) must be one the
 * store read knows: a mistyped id, or one of another store, would narrow the read to nothing and be answered as if
 * the store had nothing to say. Refused as unknown, with the code an unknown session gets elsewhere.
 */
import { NotFoundError } from '../../domain/index.js';

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
