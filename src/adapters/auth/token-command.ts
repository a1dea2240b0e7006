/**
 * `token create|list|revoke`: the operator's commands, as a function the
 * `npm run token` script and the total-recall CLI both call.
 */
import { parseArgs } from 'node:util';
import { SCOPES, TotalRecallError, type Scope } from '../../domain/index.js';
import type { TokenRecord, TokenStore } from './tokens.js';

export const TOKEN_USAGE = `usage:
  token create --store S [--store S2 …] [--instance I] --scope mind|reader|operator [--label L]
  token list
  token revoke ID|TOKEN`;

const when = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

function row(t: TokenRecord): string {
  const stores = t.scope === 'operator' ? '*' : t.stores.join(',');
  return [
    t.id,
    t.scope,
    stores,
    t.instanceId ?? '-',
    when(t.createdAt),
    when(t.lastUsedAt),
    t.revoked ? 'revoked' : 'active',
    t.label ?? '',
  ].join('\t');
}

/** Runs one command; prints with `out` (errors with `err`); returns the exit code. */
export async function runTokenCommand(
  argv: readonly string[],
  tokens: TokenStore,
  out = console.log,
  err = console.error,
): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'create') {
      const { values } = parseArgs({
        args: [...rest],
        options: {
          store: { type: 'string', multiple: true },
          instance: { type: 'string' },
          scope: { type: 'string' },
          label: { type: 'string' },
        },
      });
      const scope = (values.scope ?? 'mind') as Scope;
      if (!SCOPES.includes(scope)) throw new Error(`--scope must be one of ${SCOPES.join(', ')}`);
      const { token, record } = await tokens.create({
        scope,
        stores: values.store ?? [],
        instanceId: values.instance ?? null,
        label: values.label ?? null,
      });
      out(token);
      const reach = record.scope === 'operator' ? ', every store' : ` for ${record.stores.join(', ')}`;
      const instance = record.instanceId ? `, instance ${record.instanceId}` : '';
      err(`token ${record.id} (${record.scope}${reach}${instance}) — shown once, keep it now`);
      return 0;
    }
    if (command === 'list') {
      out(['id', 'scope', 'stores', 'instance', 'created', 'last used', 'state', 'label'].join('\t'));
      for (const t of await tokens.list()) out(row(t));
      return 0;
    }
    if (command === 'revoke' && rest[0]) {
      const revoked = await tokens.revoke(rest[0]);
      if (!revoked) {
        err(`no token ${rest[0]}`);
        return 1;
      }
      out(`revoked ${revoked.id}`);
      return 0;
    }
    err(TOKEN_USAGE);
    return 2;
  } catch (error) {
    err(`error: ${error instanceof TotalRecallError ? `${error.code}: ${error.message}` : (error as Error).message}`);
    return 2;
  }
}
