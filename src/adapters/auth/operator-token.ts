/**
 * The operator token `npm start` makes on first start, kept in
 * `<data>/operator.token` (mode 0600), which the CLI and MCP stdio read.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TokenStore } from './tokens.js';

/** The token a client uses: TOTAL_RECALL_TOKEN, else the trimmed operator token file, else null. */
export async function clientToken(file: string, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  if (env.TOTAL_RECALL_TOKEN?.trim()) return env.TOTAL_RECALL_TOKEN.trim();
  try {
    return (await readFile(file, 'utf8')).trim() || null;
  } catch {
    return null;
  }
}

/** Keeps a working operator token in `file`: the one there when it still verifies, else a new one. */
export async function ensureOperatorToken(tokens: TokenStore, file: string): Promise<{ created: boolean }> {
  const existing = await clientToken(file, {});
  if (existing && (await tokens.verify(existing))?.scope === 'operator') return { created: false };
  const { token } = await tokens.create({ scope: 'operator', label: 'made by npm start' });
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return { created: true };
}
