// How a failed start reads on the terminal: `error: <cause>`, `fix: <hint>`, then the log tail.

import { ServiceError } from './common.mjs';

export function reportError(err, write = (m) => process.stderr.write(m)) {
  if (err instanceof ServiceError) {
    write(`error: ${err.service ? `${err.service}: ` : ''}${err.message}\n`);
    if (err.hint) write(`fix: ${err.hint}\n`);
    if (err.logTail?.length) {
      write(`--- last ${err.logTail.length} log lines${err.logFile ? ` of ${err.logFile}` : ''} ---\n`);
      for (const l of err.logTail) write(`  ${l}\n`);
    }
  } else {
    write(`${err?.stack ?? err}\n`);
    write(`error: ${err?.message ?? err}\n`);
    write('fix: unexpected failure in scripts/services (see the stack above)\n');
  }
}
