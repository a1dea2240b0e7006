/**
 * The token the CLI and the stdio bridge send (`Authorization: Bearer …`):
 * TOTAL_RECALL_TOKEN when set, else the local operator token of the checkout
 * they were installed from (`<data dir>/operator.token`), else none.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function clientToken(env: NodeJS.ProcessEnv, checkoutRoot: string): string | null {
  const fromEnv = env.TOTAL_RECALL_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  // The data directory as src/config.ts reads it.
  const dataDir = env.TOTAL_RECALL_DATA ? resolve(env.TOTAL_RECALL_DATA) : join(checkoutRoot, '.data');
  try {
    return readFileSync(join(dataDir, 'operator.token'), 'utf8').trim() || null;
  } catch {
    return null;
  }
}
