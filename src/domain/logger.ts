/**
 * The one logger every part of the app writes to (src/adapters/logger.ts makes it with pino). Contexts and
 * adapters receive it, or one of its level functions as a narrow `log`, and never choose a fallback of their own.
 */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/** A logger that hands every line to one function (a test's `log: () => undefined`, say). */
export function lineLogger(write: (line: string) => void): Logger {
  return {
    debug: write,
    info: write,
    warn: write,
    error: (message, error) => write(error === undefined ? message : `${message} ${describe(error)}`),
  };
}

const describe = (error: unknown): string => (error instanceof Error ? (error.stack ?? error.message) : String(error));
