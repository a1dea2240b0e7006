// What every service script shares: the data folder, the error a person reads, settings from the environment,
// secrets. node: built-ins only: scripts/deps.mjs imports this before `npm ci` has run.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (scripts/services/ is two levels below it). */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The address every local server listens on: loopback only. */
export const HOST = '127.0.0.1';

/** Where service homes and data live: $TOTAL_RECALL_DATA or <root>/.data (git-ignored). */
export function dataDir() {
  const env = process.env.TOTAL_RECALL_DATA;
  return env ? path.resolve(env) : path.join(projectRoot, '.data');
}

/** An error meant for a person: `message` is the cause (one line), `hint` the fix (one line). */
export class ServiceError extends Error {
  /**
   * @param {string} message
   * @param {{hint?: string, service?: string, logFile?: string, logTail?: string[], cause?: unknown}} [opts]
   */
  constructor(message, { hint, service, logFile, logTail, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ServiceError';
    this.hint = hint ?? '';
    this.service = service ?? '';
    this.logFile = logFile ?? '';
    this.logTail = logTail ?? [];
  }
}

/** Accepts a function, a console-like object, or nothing; returns a (msg) => void. */
export function toLogger(log) {
  if (typeof log === 'function') return log;
  if (log && typeof log.info === 'function') return (m) => log.info(m);
  if (log && typeof log.log === 'function') return (m) => log.log(m);
  return () => {};
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A URL with its password replaced by *** (secrets stay in their files, never in output). */
export function redactUrl(url) {
  return String(url).replace(/\/\/([^@/]*):([^@/]*)@/, '//$1:***@');
}

export function lastLine(s) {
  const lines = String(s ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.at(-1) ?? '';
}

/**
 * Whether the local servers this project runs get generated passwords: on
 * unless TOTAL_RECALL_LOCAL_AUTH says off (an explicit opt-out; they listen
 * on loopback only either way). External servers (NEO4J_URI, REDIS_URL) keep
 * their own credentials.
 */
export function localAuthEnabled() {
  return !/^(0|off|false|no)$/i.test((process.env.TOTAL_RECALL_LOCAL_AUTH ?? '').trim());
}

/** A TCP port from an env var, or the default; a bad value stops the start with a clear message. */
export function envPort(name, defPort) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return defPort;
  const v = Number(raw);
  if (Number.isInteger(v) && v >= 1 && v <= 65535) return v;
  // Read when the module loads, before any caller could report a ServiceError: say it and stop.
  process.stderr.write(
    `error: ${name} must be a TCP port (1-65535), got "${raw}"\nfix: unset it or give a free port\n`,
  );
  process.exit(1);
}

/** Seconds from an env var (number), or the default. */
export function envSeconds(name, defSeconds) {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : defSeconds;
}

/** The trimmed contents of a secret file, or null when there is none. */
export function readSecret(file) {
  try {
    return fs.readFileSync(file, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** A secret kept in `file` (mode 0600): the one there, else a new random one. */
export function ensureSecret(file) {
  const known = readSecret(file);
  if (known) return known;
  // Hex, not base64url: one secret in 32 began with '-', and neo4j-admin then read the password as an option.
  const secret = randomBytes(24).toString('hex');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return secret;
}

export function removeFile(file) {
  try {
    fs.unlinkSync(file);
  } catch {
    /* already gone */
  }
}
