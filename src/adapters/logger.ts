/**
 * The app's one logger, on pino: JSON lines (one object per line, for a log collector) in production,
 * readable lines elsewhere (TOTAL_RECALL_LOG_FORMAT, TOTAL_RECALL_LOG_LEVEL).
 * A readable line is the message alone at info (what `npm start` and the tests read), and `LEVEL message`
 * otherwise; warnings and errors go to stderr.
 */
import { pino, type DestinationStream } from 'pino';
import type { Logger } from '../domain/index.js';

export interface LogSettings {
  readonly level: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  readonly format: 'json' | 'pretty';
}

const LABELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Turns pino's JSON line back into a readable one. */
function readable(out: NodeJS.WritableStream, err: NodeJS.WritableStream): DestinationStream {
  return {
    write(line: string) {
      const entry = JSON.parse(line) as { level: number; msg?: string; err?: { stack?: string; message?: string } };
      const text = entry.msg ?? '';
      const detail = entry.err ? `\n${entry.err.stack ?? entry.err.message ?? ''}` : '';
      if (entry.level === 30) out.write(`${text}\n`);
      else (entry.level >= 40 ? err : out).write(`${LABELS[entry.level] ?? entry.level} ${text}${detail}\n`);
    },
  };
}

export function createLogger(
  settings: LogSettings,
  streams: { out: NodeJS.WritableStream; err: NodeJS.WritableStream } = { out: process.stdout, err: process.stderr },
): Logger {
  const destination = settings.format === 'json' ? streams.out : readable(streams.out, streams.err);
  const log = pino({ level: settings.level, base: { service: 'total-recall' } }, destination);
  return {
    debug: (message) => log.debug(message),
    info: (message) => log.info(message),
    warn: (message) => log.warn(message),
    error: (message, error) => (error === undefined ? log.error(message) : log.error({ err: error }, message)),
  };
}

let processWide: Logger | null = null;

/**
 * The logger for what no app call carries (Apollo's error hook, a route that threw): the one the app
 * was built with (`useProcessLogger`), or, before any app, one made from the same defaults.
 */
export function processLogger(): Logger {
  processWide ??= createLogger({ level: 'info', format: process.env.NODE_ENV === 'production' ? 'json' : 'pretty' });
  return processWide;
}

export function useProcessLogger(logger: Logger): void {
  processWide = logger;
}
