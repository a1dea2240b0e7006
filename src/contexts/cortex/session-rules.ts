/** Input rules for sessions and who may see them: pure functions, tested without a database. */
import {
  InvalidInputError,
  isName,
  jsonArgumentText,
  NAME_CHARACTERS,
  NOT_WELL_FORMED,
  type WorkingMode,
} from '../../domain/index.js';
import type { SessionRecord } from './session-records.js';

export const MAX_NAME_CHARS = 200;
export const MAX_TASK_CHARS = 1000;
export const MAX_TEXT_CHARS = 4000;
export const MAX_STATE_BYTES = 64 * 1024;
export const DEFAULT_AUDIT_LIMIT = 200;

const invalid = (code: string, message: string, details?: Record<string, unknown>) =>
  new InvalidInputError(`CORTEX.${code}`, message, details);

/** A required short name (instance, mind type, store). */
/** A store a call names, checked as a name (an empty one is a mistake, not "unset"); null when it names none. */
export function namedStore(named: string | null | undefined): string | null {
  return named == null ? null : requireName(named, 'store');
}

export function requireName(value: unknown, field: string): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!isName(name, MAX_NAME_CHARS)) {
    throw invalid(
      `INVALID_${field.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`,
      `${field} must be a non-empty string of at most ${MAX_NAME_CHARS} characters, ${NAME_CHARACTERS}`,
    );
  }
  return name;
}

/**
 * A client-chosen session id. It ends up in job ids and notification ids, so
 * it is kept to a safe alphabet.
 */
export function validateSessionId(id: string): string {
  const trimmed = id.trim();
  if (!/^[A-Za-z0-9_.-]{1,200}$/.test(trimmed)) {
    throw invalid('INVALID_ID', 'a session id is 1 to 200 characters of letters, digits, "_", "." or "-"');
  }
  return trimmed;
}

/** An optional text (task, project): trimmed; empty means none. */
export function optionalText(value: string | null | undefined, field: string, max = MAX_TASK_CHARS): string | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (text.length > max) throw invalid('TEXT_TOO_LONG', `${field} must be at most ${max} characters`, { field });
  if (!text.isWellFormed()) throw invalid('INVALID_TEXT', `${field} ${NOT_WELL_FORMED}`, { field });
  return text === '' ? null : text;
}

export function requireText(value: string | null | undefined, field: string): string {
  const text = optionalText(value, field, MAX_TEXT_CHARS);
  if (text === null) throw invalid('TEXT_REQUIRED', `${field} must not be empty`, { field });
  return text;
}

/** The session's state as JSON text (null keeps the previous state). */
export function validateState(context: unknown): string | null {
  if (context === undefined || context === null) return null;
  const text = jsonArgumentText(context);
  if (Buffer.byteLength(text, 'utf8') > MAX_STATE_BYTES)
    throw invalid('STATE_TOO_LARGE', `context is larger than ${MAX_STATE_BYTES} bytes as JSON`);
  return text;
}

/** A session starts in TASK mode when it names a task, else in CONVERSATION. */
export function initialMode(task: string | null): WorkingMode {
  return task === null ? 'CONVERSATION' : 'TASK';
}

export function validateLimit(limit: number, max = 100): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > max)
    throw invalid('INVALID_LIMIT', `limit must be an integer from 1 to ${max}`);
  return limit;
}

/**
 * Invariant 8: a caller that names itself (x-instance-id) acts on and sees
 * only its own sessions; an anonymous caller (an operator, a UI) sees all.
 */
export function checkOwnInstance(callerInstanceId: string | null, instanceId: string): void {
  if (callerInstanceId !== null && callerInstanceId !== instanceId) {
    throw invalid(
      'FOREIGN_INSTANCE',
      `this caller is instance "${callerInstanceId}" and may not act on or read instance "${instanceId}"`,
    );
  }
}

/**
 * The caller as the instance a call's `instanceId` argument names (for clients that cannot send x-instance-id): the
 * same as the header; naming another instance than the connection's (or its token's) is refused.
 */
export function asInstance<C extends { readonly instanceId: string | null }>(
  caller: C,
  instanceId: string | null | undefined,
): C {
  if (instanceId === null || instanceId === undefined) return caller;
  const name = requireName(instanceId, 'instanceId');
  checkOwnInstance(caller.instanceId, name);
  return { ...caller, instanceId: name };
}

export function visibleTo(callerInstanceId: string | null, session: Pick<SessionRecord, 'instanceId'>): boolean {
  return callerInstanceId === null || callerInstanceId === session.instanceId;
}
