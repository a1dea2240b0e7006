import { ShuttingDownError } from '../../domain/index.js';

/** Every port's first step: once shutdown has begun, new work is refused (SHUTTING_DOWN), reads and writes alike. */
export function admit(accepting: () => boolean): void {
  if (!accepting()) throw new ShuttingDownError();
}
