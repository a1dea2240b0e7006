/**
 * The `total-recall` command line. Every command but init, export and import
 * is a call to the running service's MCP endpoint, in the store of the
 * working directory (store-by-directory.ts).
 *
 * Exit codes: 0 ok; 1 recall (or context) found nothing; 2 usage error or
 * input the service refused; 3 the service is unreachable, shutting down or
 * down in part, or answered "try again" (a retryable code); 4 any other failure.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  initialStore,
  MARKER,
  PIN,
  pinCheckoutStore,
  resolveStore,
  type StoreResolution,
} from './store-by-directory.js';
import { clientToken } from './token.js';
import {
  callTool,
  connectService,
  DEFAULT_URL,
  headerSafe,
  serviceFailure,
  ServiceUnreachable,
  ToolFailure,
  type ServiceOptions,
} from './service.js';
import { runStdioBridge } from './stdio-bridge.js';
import {
  hitLines,
  memoryLine,
  sessionLine,
  visible,
  type HitLike,
  type MemoryLike,
  type SessionLike,
} from './format.js';

/** The checkout this command runs from (its operator token, its export/import scripts). */
const CHECKOUT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export const USAGE = `usage: total-recall <command> [options]

  init [--store NAME]                       mark this directory tree's store (writes ${MARKER})
  remember TEXT [--tier T] [--tag T]...     store a memory
  recall QUESTION [--limit N]               ranked hits with confidences (exit 1 when none)
  context QUESTION [--max-tokens N] [--floor F]
                                            the pack a mind would read: frame line, then memories above the floor
  resume                                    the newest session, identity core, active context and the latest memories
  sessions [--limit N]                      the store's sessions, newest first
  claim ID                                  "this matters to me"
  forget ID --confirm ID --reason R         remove a memory for good (confirm repeats the id)
  status                                    the service, and which store this directory gets
  mcp                                       an MCP server on stdio, relaying to the service (its store on stderr)
  export [DIR] [--store NAME]               a verified cold-storage export (direct to Neo4j) of that store; without
                                            --store of every store (or TOTAL_RECALL_SCOPE_STORES), not the directory's
  import FILE_OR_DIR [--allow-non-empty]    restore an export or a chain of deltas (direct to Neo4j)

options: --store NAME (or TOTAL_RECALL_STORE) overrides the directory's store; --json prints JSON.
The service is at TOTAL_RECALL_URL (default ${DEFAULT_URL}).`;

class UsageError extends Error {
  constructor(
    message: string,
    /** Whether the usage text helps: not when the command was right but what it names is not. */
    readonly showUsage = true,
  ) {
    super(message);
  }
}

interface Io {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

const RECENT_LIMIT = 10;

const EXIT = { ok: 0, nothingFound: 1, usage: 2, unreachable: 3, failure: 4 } as const;

function parse(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        store: { type: 'string' },
        json: { type: 'boolean' },
        'max-tokens': { type: 'string' },
        floor: { type: 'string' },
        limit: { type: 'string' },
        confirm: { type: 'string' },
        reason: { type: 'string' },
        tier: { type: 'string' },
        tag: { type: 'string', multiple: true },
        'allow-non-empty': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

const fraction = (value: string | undefined, flag: string): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(n >= 0 && n <= 1)) throw new UsageError(`${flag} must be a number from 0 to 1`);
  return n;
};

const positiveInt = (value: string | undefined, flag: string): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer`);
  return n;
};

function describeStore(r: StoreResolution, cwd: string): string {
  switch (r.source) {
    case 'flag':
      return `store "${r.store}" (from --store)`;
    case 'env':
      return `store "${r.store}" (from TOTAL_RECALL_STORE)`;
    case 'marker':
      return `store "${r.store}" (the marker ${r.path})`;
    case 'git':
      return (
        `store "${r.store}" (the git checkout, common git dir ${r.path}, ` +
        `${r.pinned ? `store pinned in ${join(r.path!, PIN)}` : 'store named from its path, not pinned'})`
      );
    case 'default':
      return `the service's default store (no ${MARKER} marker and no git checkout above ${cwd})`;
  }
}

export async function run(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string, io: Io): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.err(`total-recall: ${(error as Error).message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const { values: flags, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (flags.help || command === 'help') {
    io.out(USAGE);
    return EXIT.ok;
  }
  if (!command) {
    io.err(USAGE);
    return EXIT.usage;
  }
  let where = resolveStore({
    cwd,
    home: homedir(),
    tmp: tmpdir(),
    flag: flags.store ?? null,
    env: env.TOTAL_RECALL_STORE ?? null,
  });
  const service: ServiceOptions = {
    url: env.TOTAL_RECALL_URL?.trim() || DEFAULT_URL,
    token: clientToken(env, CHECKOUT),
    store: where.store,
    instanceId: env.TOTAL_RECALL_INSTANCE_ID?.trim() || null,
  };
  // JSON escapes control characters itself; text shows them (stored text must not drive the terminal).
  const print = (data: unknown, lines: () => string[]) =>
    io.out(flags.json ? JSON.stringify(data, null, 2) : visible(lines().join('\n')));
  const one = (what: string): string => {
    const value = rest.join(' ').trim();
    if (!value) throw new UsageError(`${command} needs ${what}`);
    return value;
  };

  // The store travels as a header (x-total-recall-store), which carries Latin-1 only.
  const checkStore = (store: string | null, from: string) => {
    if (store !== null && !headerSafe(store))
      throw new UsageError(
        `${from} has characters beyond Latin-1 or control characters, which a request header cannot carry; ` +
          'name the store in Latin-1',
        false,
      );
  };
  // A checkout's store, once used, is pinned in its git directory: it follows the checkout when that moves.
  const useStore = () => {
    checkStore(where.store, describeStore(where, cwd));
    if (pinCheckoutStore(where)) where = { ...where, pinned: true };
  };
  let client: Client | null = null;
  const connect = async () => {
    useStore();
    client ??= await connectService(service);
    return client;
  };
  const tool = async <T = Record<string, unknown>>(name: string, args: Record<string, unknown>) =>
    (await callTool<T>(await connect(), name, args)).data;
  // The CLI says when no marker or checkout chose the store (on stderr, so --json stays clean).
  const noteFallback = () => {
    if (where.source === 'default' && !flags.json) io.err(`note: using ${describeStore(where, cwd)}`);
  };

  try {
    switch (command) {
      case 'init': {
        const marker = join(cwd, MARKER);
        if (existsSync(marker)) throw new UsageError(`${marker} exists already; edit or delete it`);
        const store = flags.store?.trim() || initialStore(cwd, homedir(), tmpdir());
        checkStore(store, `store "${store}"`);
        writeFileSync(
          marker,
          `# Total Recall: the store of this directory tree (README: "Which store a directory gets")\n${store}\n`,
        );
        print({ marker, store }, () => [`wrote ${marker}: store "${store}"`]);
        return EXIT.ok;
      }
      case 'remember': {
        const content = one('the TEXT to remember');
        noteFallback();
        const data = await tool<{ memory: MemoryLike; created: boolean }>('remember', {
          content,
          tier: flags.tier,
          tags: flags.tag,
        });
        print(data, () => [`remembered ${data.memory.id} in ${data.memory.tier}`]);
        return EXIT.ok;
      }
      case 'recall': {
        const query = one('a QUESTION');
        noteFallback();
        const data = await tool<{ frame: string; hits: HitLike[] }>('recall', {
          query,
          limit: positiveInt(flags.limit, '--limit'),
        });
        print(data, () => hitLines(data.frame, data.hits));
        return data.hits.length ? EXIT.ok : EXIT.nothingFound;
      }
      case 'context': {
        const query = one('a QUESTION');
        noteFallback();
        const data = await tool<{ text: string; hits: HitLike[] }>('context', {
          query,
          maxTokens: positiveInt(flags['max-tokens'], '--max-tokens'),
          injectFloor: fraction(flags.floor, '--floor'),
        });
        print(data, () => [data.text]);
        return data.hits.length ? EXIT.ok : EXIT.nothingFound;
      }
      case 'resume': {
        noteFallback();
        const state = await tool<{
          store: string;
          session: SessionLike | null;
          identity: MemoryLike[];
          activeContext: MemoryLike[];
        }>('resume', {});
        // What the last process left: the newest memories of the store (a week, ten at most).
        const { candidates } = await tool<{ candidates: { memory: MemoryLike }[] }>('reflect', {
          scope: 'RECENT',
          timeSpanDays: 7,
          limit: RECENT_LIMIT,
        });
        const data = { ...state, recent: candidates.map((c) => c.memory) };
        print(data, () => [
          `store "${data.store}"`,
          data.session ? `last session: ${sessionLine(data.session)}` : 'no earlier session in this store',
          `identity core (${data.identity.length}):`,
          ...data.identity.map(memoryLine),
          `active context (${data.activeContext.length}):`,
          ...data.activeContext.map(memoryLine),
          `latest memories (${data.recent.length}):`,
          ...data.recent.map(memoryLine),
        ]);
        return EXIT.ok;
      }
      case 'sessions': {
        noteFallback();
        const data = await tool<{ sessions: SessionLike[] }>('sessions', {
          limit: positiveInt(flags.limit, '--limit'),
        });
        print(data, () => (data.sessions.length ? data.sessions.map(sessionLine) : ['no sessions in this store']));
        return EXIT.ok;
      }
      case 'claim': {
        const data = await tool<{ memory: MemoryLike }>('claim', { id: one('a memory ID') });
        print(data, () => [
          `claimed ${data.memory.id} (${data.memory.tier}, salience ${data.memory.salience.toFixed(2)})`,
        ]);
        return EXIT.ok;
      }
      case 'forget': {
        const id = one('a memory ID');
        if (!flags.confirm || !flags.reason)
          throw new UsageError('forget needs --confirm ID (the same id again: your consent) and --reason R');
        const data = await tool<{ id: string; forgotten: boolean; consolidatedInto: string[] }>('forget', {
          id,
          confirmId: flags.confirm,
          reason: flags.reason,
        });
        print(data, () => [
          `forgot ${data.id}`,
          ...data.consolidatedInto.map((c) => `still said by ${c}, consolidated from it (forget it too if it must go)`),
        ]);
        return EXIT.ok;
      }
      case 'status': {
        const data = await tool<Record<string, unknown>>('status', {});
        const directory = { store: where.store, source: where.source, path: where.path, pinned: where.pinned };
        print({ ...data, url: service.url, storeSource: where.source, directory }, () => [
          `service ${service.url}: version ${String(data.version)}, ` +
            `${data.accepting ? 'accepting' : 'shutting down'}, neo4j ${data.neo4j ? 'up' : 'DOWN'}, ` +
            `redis ${data.redis ? 'up' : 'DOWN'}, embeddings ${String(data.embeddings)}, ${String(data.memories)} ` +
            `memories`,
          `this directory: ${
            where.source === 'default'
              ? `${describeStore(where, cwd)}: "${String(data.store)}"`
              : describeStore(where, cwd)
          }`,
        ]);
        // A part down, or shutting down: scripts checking the service get "not now", as when it is unreachable.
        return data.accepting && data.neo4j && data.redis ? EXIT.ok : EXIT.unreachable;
      }
      case 'mcp':
        useStore();
        // On stderr: stdout carries JSON-RPC only.
        io.err(visible(`total-recall mcp: ${describeStore(where, cwd)}`));
        await runStdioBridge(service, io.err);
        return EXIT.ok;
      case 'export':
      case 'import': {
        // The existing scripts (they talk to Neo4j directly, as `npm run export` / `npm run import`).
        const script = join(CHECKOUT, 'scripts', `${command}.ts`);
        const args = [...rest.map((a) => resolve(cwd, a)), ...(flags['allow-non-empty'] ? ['--allow-non-empty'] : [])];
        if (command === 'import' && rest.length !== 1) throw new UsageError('import needs one FILE_OR_DIR');
        // The script exports the stores TOTAL_RECALL_SCOPE_STORES names (all when unset): --store names one.
        const store = command === 'export' ? flags.store?.trim() : undefined;
        const child = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
          cwd: CHECKOUT,
          env: store ? { ...env, TOTAL_RECALL_SCOPE_STORES: store } : env,
          stdio: 'inherit',
        });
        return child.status ?? EXIT.failure;
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (caught) {
    // The network or the service's HTTP layer failing, at connecting or at any call, says so like a tool would.
    const error = serviceFailure(caught, service.url) ?? caught;
    if (error instanceof UsageError) {
      io.err(visible(`total-recall: ${error.message}${error.showUsage ? `\n\n${USAGE}` : ''}`));
      return EXIT.usage;
    }
    if (error instanceof ServiceUnreachable) {
      io.err(error.message);
      return EXIT.unreachable;
    }
    if (error instanceof ToolFailure) {
      io.err(visible(`total-recall: ${error.message}`));
      if (error.retryable) return EXIT.unreachable;
      return error.code === 'INTERNAL_SERVER_ERROR' ? EXIT.failure : EXIT.usage;
    }
    io.err(visible(`total-recall: ${(error as Error).message}`));
    return EXIT.failure;
  } finally {
    await (client as Client | null)?.close().catch(() => undefined);
  }
}
