/**
 * Which store a directory gets (seed 003, plate 07): walking up from the
 * working directory, the nearest scope wins: a `.total-recall` marker, or a
 * git checkout, keyed by the repository's common git directory so that every
 * worktree of one repository shares one store (in one directory a marker wins
 * over the checkout). A marker above a checkout (at $HOME, say) does not take
 * the checkout's store; a marker inside the checkout, between it and the
 * working directory, does. Both kinds stop at $HOME and at the system temp
 * directory (and at the filesystem root): a `.git` at $HOME (a dotfiles
 * repository) gives no store, a marker at $HOME counts, a marker in the temp
 * directory itself captures nothing. `--store` and TOTAL_RECALL_STORE
 * override the walk; with nothing found, the service's configured default
 * store is used.
 *
 * A checkout's store is named from the path of its common git directory the
 * first time it is used, and then pinned: written to `total-recall-store`
 * inside that git directory (pinCheckoutStore), which moves with the checkout,
 * so a moved or renamed checkout keeps its store. A checkout never pinned is
 * found under the name its path gives, as before pins existed.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

export const MARKER = '.total-recall';
/** The file in a repository's common git directory that pins its store (it moves with the checkout). */
export const PIN = 'total-recall-store';

export type StoreSource = 'flag' | 'env' | 'marker' | 'git' | 'default';

export interface StoreResolution {
  /** The store to use; null: the service's configured default store. */
  readonly store: string | null;
  readonly source: StoreSource;
  /** The marker file or the common git directory the store came from. */
  readonly path: string | null;
  /** For a checkout: whether its store was read from the pin in its git directory (false: named from its path). */
  readonly pinned?: boolean;
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
  const dir = dirname(markerPath);
  return firstLine(readFileSync(markerPath, 'utf8')) ?? derivedStoreName(basename(dir), real(dir));
}

/** A marker's or a pin's first line that is neither empty nor a # comment. */
const firstLine = (text: string): string | undefined =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('#'));

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

/**
 * The store of the checkout whose common git directory is `commonDir`: the name pinned there, else the one its path
 * gives (gitStoreName).
 */
export function checkoutStore(commonDir: string): StoreResolution {
  let pinned: string | undefined;
  try {
    pinned = firstLine(readFileSync(join(commonDir, PIN), 'utf8'));
  } catch {
    pinned = undefined;
  }
  return { store: pinned ?? gitStoreName(commonDir), source: 'git', path: commonDir, pinned: pinned !== undefined };
}

/**
 * Pins a checkout's store in its git directory, so it follows the checkout when it is moved or renamed. Writes only
 * when no pin was there (never overwrites one); where the git directory cannot be written, the checkout goes on
 * unpinned. Whether it wrote.
 */
export function pinCheckoutStore(r: StoreResolution): boolean {
  if (r.source !== 'git' || r.pinned !== false || !r.store || !r.path) return false;
  try {
    writeFileSync(
      join(r.path, PIN),
      '# Total Recall: the store of this repository (README: "Which store a directory gets"), kept in its git\n' +
        '# directory so that it follows the checkout when it is moved or renamed. Edit it to use another store.\n' +
        `${r.store}\n`,
      { flag: 'wx' },
    );
    return true;
  } catch {
    return false;
  }
}

export function resolveStore(o: ResolveOptions): StoreResolution {
  const explicit = o.flag?.trim() || null;
  if (explicit) return { store: explicit, source: 'flag', path: null };
  const fromEnv = o.env?.trim() || null;
  if (fromEnv) return { store: fromEnv, source: 'env', path: null };

  const home = o.home ? real(o.home) : null;
  const tmp = real(o.tmp);
  // One walk, the nearest scope first; in one directory the deliberate marker before the inferred checkout.
  for (const dir of ancestors(real(o.cwd))) {
    // The temp directory and the root count for neither.
    if (dir === tmp || dirname(dir) === dir) break;
    const marker = join(dir, MARKER);
    if (isFile(marker)) return { store: markerStore(marker), source: 'marker', path: marker };
    // $HOME itself counts for a marker, not for a checkout (a dotfiles repository); nothing above it counts.
    if (dir === home) break;
    const common = commonGitDir(join(dir, '.git'));
    if (common) return checkoutStore(common);
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
