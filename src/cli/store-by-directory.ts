/**
 * Which store a directory gets (seed 003, plate 07): walking up from the
 * working directory, the first `.total-recall` marker wins; then the git
 * checkout, keyed by the repository's common git directory so that every
 * worktree of one repository shares one store. Both walks stop at $HOME and
 * at the system temp directory (and at the filesystem root): a `.git` at
 * $HOME (a dotfiles repository) gives no store, a marker at $HOME counts, a
 * marker in the temp directory itself captures nothing. `--store` and
 * TOTAL_RECALL_STORE override the walk; with nothing found, the service's
 * configured default store is used.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

export const MARKER = '.total-recall';

export type StoreSource = 'flag' | 'env' | 'marker' | 'git' | 'default';

export interface StoreResolution {
  /** The store to use; null: the service's configured default store. */
  readonly store: string | null;
  readonly source: StoreSource;
  /** The marker file or the common git directory the store came from. */
  readonly path: string | null;
}

export interface ResolveOptions {
  readonly cwd: string;
  /** The user's home directory (os.homedir()); null when there is none. */
  readonly home: string | null;
  /** The system temp directory (os.tmpdir()). */
  readonly tmp: string;
  /** `--store NAME`. */
  readonly flag?: string | null;
  /** TOTAL_RECALL_STORE. */
  readonly env?: string | null;
}

const real = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The directory and each of its parents, up to the root. */
function ancestors(dir: string): string[] {
  const out = [dir];
  for (let d = dir; dirname(d) !== d; d = dirname(d)) out.push(dirname(d));
  return out;
}

/**
 * A readable name plus a short hash of the path it stands for: two projects named alike stay apart. The name travels
 * as a header, which carries Latin-1 only: beyond it accents are dropped (ő → o) and other letters make one dash
 * (日本語 → store-…); names within Latin-1 keep the form they always had.
 */
export function derivedStoreName(name: string, realPath: string): string {
  const readable =
    name
      .replace(/\.git$/, '')
      .replace(/[\u{100}-\u{10ffff}]/gu, (c) => c.normalize('NFKD').replace(/\p{M}/gu, ''))
      .replace(/-*[\u{100}-\u{10ffff}]+-*/gu, '-')
      .replace(/[^\p{L}\p{N}._-]+/gu, '-')
      .replace(/^-+|-+$/g, '') || 'store';
  return `${readable.slice(0, 80)}-${createHash('sha256').update(realPath).digest('hex').slice(0, 8)}`;
}

/**
 * The store a marker names: its first line that is neither empty nor a # comment; an empty marker names its directory.
 */
export function markerStore(markerPath: string): string {
  const text = readFileSync(markerPath, 'utf8');
  const line = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('#'));
  const dir = dirname(markerPath);
  return line ?? derivedStoreName(basename(dir), real(dir));
}

/**
 * The common git directory of a checkout whose `.git` (a directory, or a file `gitdir: …` in a worktree or submodule)
 * is at `dotGit`.
 */
export function commonGitDir(dotGit: string): string | null {
  let gitDir: string;
  if (isFile(dotGit)) {
    const match = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    if (!match) return null;
    gitDir = resolve(dirname(dotGit), match[1]!.trim());
  } else if (existsSync(dotGit)) {
    gitDir = dotGit;
  } else {
    return null;
  }
  const commondir = join(gitDir, 'commondir');
  return real(isFile(commondir) ? resolve(gitDir, readFileSync(commondir, 'utf8').trim()) : gitDir);
}

/** The store of a repository, from its common git directory: `<repository name>-<hash of the directory>`. */
export function gitStoreName(commonDir: string): string {
  const name = basename(commonDir) === '.git' ? basename(dirname(commonDir)) : basename(commonDir);
  return derivedStoreName(name, commonDir);
}

export function resolveStore(o: ResolveOptions): StoreResolution {
  const explicit = o.flag?.trim() || null;
  if (explicit) return { store: explicit, source: 'flag', path: null };
  const fromEnv = o.env?.trim() || null;
  if (fromEnv) return { store: fromEnv, source: 'env', path: null };

  const dirs = ancestors(real(o.cwd));
  const home = o.home ? real(o.home) : null;
  const tmp = real(o.tmp);
  const root = (d: string) => dirname(d) === d;

  // The deliberate marker: $HOME itself still counts, the temp directory and the root do not.
  for (const dir of dirs) {
    if (dir === tmp || root(dir)) break;
    const marker = join(dir, MARKER);
    if (isFile(marker)) return { store: markerStore(marker), source: 'marker', path: marker };
    if (dir === home) break;
  }
  // The inferred checkout: stricter, $HOME itself does not count either.
  for (const dir of dirs) {
    if (dir === tmp || dir === home || root(dir)) break;
    const common = commonGitDir(join(dir, '.git'));
    if (common) return { store: gitStoreName(common), source: 'git', path: common };
  }
  return { store: null, source: 'default', path: null };
}

/**
 * The store `total-recall init` writes into a new marker when none is named: the checkout's, else one for the
 * directory.
 */
export function initialStore(cwd: string, home: string | null, tmp: string): string {
  const found = resolveStore({ cwd, home, tmp });
  return found.source === 'git' && found.store ? found.store : derivedStoreName(basename(real(cwd)), real(cwd));
}
