/**
 * Which store a directory gets, as a pure function over temporary trees: real
 * git repositories and worktrees, nested repositories, a .git at a fake
 * $HOME, a marker in a fake temp directory, symlinked paths.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commonGitDir,
  derivedStoreName,
  gitStoreName,
  initialStore,
  MARKER,
  markerStore,
  PIN,
  pinCheckoutStore,
  resolveStore,
} from '../../src/cli/store-by-directory.js';

let root: string;
let home: string;
let tmp: string;

const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.email=t@example.org', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args],
    { cwd, stdio: 'pipe' },
  );
const dir = (...parts: string[]) => {
  const path = join(root, ...parts);
  mkdirSync(path, { recursive: true });
  return path;
};
const resolveIn = (cwd: string, extra: { flag?: string; env?: string } = {}) =>
  resolveStore({ cwd, home, tmp, ...extra });

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tr-store-')));
  home = dir('home', 'ana');
  tmp = dir('tmp');
  // A repository with two extra worktrees, one of them outside the repository's folder.
  const repo = dir('home', 'ana', 'src', 'project');
  git(repo, 'init', '-q');
  writeFileSync(join(repo, 'README'), 'x');
  git(repo, 'add', 'README');
  git(repo, 'commit', '-qm', 'first');
  git(repo, 'worktree', 'add', '-q', join(home, 'src', 'project-feature'), '-b', 'feature');
  git(repo, 'worktree', 'add', '-q', join(root, 'elsewhere', 'hotfix'), '-b', 'hotfix');
  dir('home', 'ana', 'src', 'project', 'deep', 'er');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('store by directory', () => {
  it('gives every worktree of one repository the same store, keyed by the common git dir', () => {
    const main = resolveIn(join(home, 'src', 'project', 'deep', 'er'));
    expect(main.source).toBe('git');
    expect(main.path).toBe(join(home, 'src', 'project', '.git'));
    expect(main.store).toMatch(/^project-[0-9a-f]{8}$/);
    expect(resolveIn(join(home, 'src', 'project-feature')).store).toBe(main.store);
    expect(resolveIn(join(root, 'elsewhere', 'hotfix')).store).toBe(main.store);
    expect(commonGitDir(join(root, 'elsewhere', 'hotfix', '.git'))).toBe(join(home, 'src', 'project', '.git'));
  });

  it('keeps two repositories of the same name apart', () => {
    const a = dir('home', 'ana', 'a', 'same');
    const b = dir('home', 'ana', 'b', 'same');
    git(a, 'init', '-q');
    git(b, 'init', '-q');
    expect(resolveIn(a).store).not.toBe(resolveIn(b).store);
    expect(resolveIn(a).store).toMatch(/^same-/);
  });

  it('gives a nested repository its own store', () => {
    const inner = dir('home', 'ana', 'src', 'project', 'vendor', 'lib');
    git(inner, 'init', '-q');
    const outer = resolveIn(join(home, 'src', 'project'));
    const nested = resolveIn(join(inner));
    expect(nested.store).toMatch(/^lib-/);
    expect(nested.store).not.toBe(outer.store);
  });

  it('lets a marker win over the checkout, its first line naming the store', () => {
    const marked = dir('home', 'ana', 'src', 'project', 'docs');
    writeFileSync(join(marked, MARKER), '# a comment\n  team-notes  \n');
    const below = dir('home', 'ana', 'src', 'project', 'docs', 'drafts');
    expect(resolveIn(below)).toEqual({ store: 'team-notes', source: 'marker', path: join(marked, MARKER) });
    rmSync(join(marked, MARKER));
  });

  it('names an empty marker after its directory', () => {
    const d = dir('home', 'ana', 'notes');
    writeFileSync(join(d, MARKER), '');
    expect(markerStore(join(d, MARKER))).toMatch(/^notes-[0-9a-f]{8}$/);
    rmSync(join(d, MARKER));
  });

  it('gives no store from a .git at $HOME (a dotfiles repository)', () => {
    git(home, 'init', '-q');
    const plain = dir('home', 'ana', 'letters', '2026');
    expect(resolveIn(plain)).toEqual({ store: null, source: 'default', path: null });
    // …while a checkout below $HOME still gets its own.
    expect(resolveIn(join(home, 'src', 'project')).source).toBe('git');
    rmSync(join(home, '.git'), { recursive: true, force: true });
  });

  it('counts a marker somebody made at $HOME', () => {
    writeFileSync(join(home, MARKER), 'ana\n');
    expect(resolveIn(dir('home', 'ana', 'letters'))).toMatchObject({ store: 'ana', source: 'marker' });
    rmSync(join(home, MARKER));
  });

  it('lets the nearest scope win: a checkout below a marker gets its own store, a marker inside it wins', () => {
    const project = join(home, 'src', 'project');
    const own = resolveIn(project);
    expect(own.source).toBe('git');
    const markers = [
      join(home, MARKER),
      join(home, 'src', MARKER),
      join(project, 'deep', MARKER),
      join(project, MARKER),
    ];
    try {
      // Somebody once ran `init` in ~ (or in ~/src): the checkouts below keep their own stores.
      writeFileSync(join(home, MARKER), 'ana\n');
      writeFileSync(join(home, 'src', MARKER), 'sources\n');
      expect(resolveIn(join(project, 'deep', 'er'))).toMatchObject({ store: own.store, source: 'git' });
      expect(resolveIn(join(home, 'src', 'project-feature')).store).toBe(own.store);
      expect(resolveIn(dir('home', 'ana', 'src', 'loose'))).toMatchObject({ store: 'sources', source: 'marker' });
      expect(resolveIn(dir('home', 'ana', 'letters'))).toMatchObject({ store: 'ana', source: 'marker' });
      // `init` in a checkout below such a marker writes the checkout's store.
      expect(initialStore(dir('home', 'ana', 'src', 'project', 'sub'), home, tmp)).toBe(own.store);
      // A marker in the checkout itself, or between it and the directory, is nearer still.
      writeFileSync(join(project, 'deep', MARKER), 'deep-notes\n');
      expect(resolveIn(join(project, 'deep', 'er'))).toMatchObject({ store: 'deep-notes', source: 'marker' });
      writeFileSync(join(project, MARKER), 'chosen\n');
      expect(resolveIn(project)).toMatchObject({ store: 'chosen', source: 'marker' });
    } finally {
      for (const marker of markers) rmSync(marker, { force: true });
    }
  });

  it('keeps a checkout its store when it is moved or renamed: the name is pinned inside the git directory', () => {
    const before = dir('home', 'ana', 'old-place', 'app');
    git(before, 'init', '-q');
    writeFileSync(join(before, 'README'), 'x');
    git(before, 'add', 'README');
    git(before, 'commit', '-qm', 'first');
    git(before, 'worktree', 'add', '-q', join(home, 'old-place', 'app-wt'), '-b', 'wt');
    const first = resolveIn(before);
    // As before: a checkout never pinned is found under the name its path gives (an existing store stays found).
    expect(first).toMatchObject({ store: gitStoreName(join(before, '.git')), source: 'git', pinned: false });
    expect(pinCheckoutStore(first)).toBe(true);
    expect(readFileSync(join(before, '.git', PIN), 'utf8')).toContain(`\n${first.store}\n`);
    expect(pinCheckoutStore(resolveIn(before))).toBe(false); // pinned once, never rewritten
    // Moved and renamed: the store follows.
    dir('home', 'ana', 'new-place');
    const after = join(home, 'new-place', 'renamed-app');
    renameSync(before, after);
    expect(resolveIn(join(after))).toEqual({
      store: first.store,
      source: 'git',
      path: join(after, '.git'),
      pinned: true,
    });
    expect(gitStoreName(join(after, '.git'))).not.toBe(first.store);
    // Its worktree, repaired after the move as git asks, shares it.
    git(after, 'worktree', 'repair');
    expect(resolveIn(join(home, 'old-place', 'app-wt')).store).toBe(first.store);
    // An edited pin names another store; an empty one counts for nothing.
    writeFileSync(join(after, '.git', PIN), '# mine\n  renamed-store \n');
    expect(resolveIn(after).store).toBe('renamed-store');
    writeFileSync(join(after, '.git', PIN), '');
    expect(resolveIn(after)).toMatchObject({ store: gitStoreName(join(after, '.git')), pinned: false });
  });

  it('does without a pin where none can be written, and never throws for it', () => {
    const odd = dir('home', 'ana', 'odd');
    git(odd, 'init', '-q');
    mkdirSync(join(odd, '.git', PIN)); // neither readable nor writable as a file
    const found = resolveIn(odd);
    expect(found).toMatchObject({ store: gitStoreName(join(odd, '.git')), pinned: false });
    expect(pinCheckoutStore(found)).toBe(false);
    expect(resolveIn(odd)).toEqual(found);
    expect(pinCheckoutStore({ ...found, path: join(root, 'gone', '.git') })).toBe(false);
    expect(existsSync(join(root, 'gone'))).toBe(false);
  });

  it('lets a stray marker in the temp directory capture nothing, and a .git above a ceiling count for nothing', () => {
    writeFileSync(join(tmp, MARKER), 'stray\n');
    expect(resolveIn(dir('tmp', 'build-123', 'out'))).toEqual({ store: null, source: 'default', path: null });
    // A deliberate marker inside a folder of the temp directory does count.
    writeFileSync(join(tmp, 'build-123', MARKER), 'build\n');
    expect(resolveIn(join(tmp, 'build-123', 'out')).store).toBe('build');
    rmSync(join(tmp, MARKER));
    // Nothing above $HOME counts: a marker in its parent is ignored from below $HOME.
    writeFileSync(join(root, 'home', MARKER), 'everyone\n');
    expect(resolveIn(dir('home', 'ana', 'letters')).source).toBe('default');
    rmSync(join(root, 'home', MARKER));
  });

  it('follows symlinks to the real directory', () => {
    const link = join(root, 'link-to-feature');
    symlinkSync(join(home, 'src', 'project-feature'), link);
    expect(resolveIn(link).store).toBe(resolveIn(join(home, 'src', 'project')).store);
    // A symlinked $HOME is the same ceiling.
    const linkedHome = join(root, 'home-link');
    symlinkSync(home, linkedHome);
    git(home, 'init', '-q');
    expect(resolveStore({ cwd: join(home, 'letters'), home: linkedHome, tmp }).source).toBe('default');
    rmSync(join(home, '.git'), { recursive: true, force: true });
  });

  it('lets --store and then TOTAL_RECALL_STORE override the walk', () => {
    const cwd = join(home, 'src', 'project');
    expect(resolveIn(cwd, { flag: ' chosen ', env: 'from-env' })).toEqual({
      store: 'chosen',
      source: 'flag',
      path: null,
    });
    expect(resolveIn(cwd, { env: 'from-env' })).toEqual({ store: 'from-env', source: 'env', path: null });
    expect(resolveIn(cwd, { flag: '  ', env: '' }).source).toBe('git');
  });

  it('falls back to the default store with neither marker nor checkout', () => {
    expect(resolveIn(dir('home', 'ana', 'empty'))).toEqual({ store: null, source: 'default', path: null });
  });

  it('has init name the checkout store inside a checkout, else one for the directory', () => {
    expect(initialStore(join(home, 'src', 'project-feature'), home, tmp)).toBe(
      resolveIn(join(home, 'src', 'project')).store,
    );
    expect(initialStore(dir('home', 'ana', 'journal'), home, tmp)).toMatch(/^journal-[0-9a-f]{8}$/);
    expect(gitStoreName('/srv/git/tools.git')).toMatch(/^tools-[0-9a-f]{8}$/);
  });

  it('names a directory so a header carries it: Latin-1 as is, accents beyond dropped, other scripts a dash', () => {
    const hash = (name: string) => derivedStoreName(name, '/x').slice(-9);
    const named = (name: string) => derivedStoreName(name, '/x').slice(0, -9);
    expect(named('café ß')).toBe('café-ß');
    expect(named('Łódź-Kraków')).toBe('ódz-Kraków'); // Ł has no accent to drop
    expect(named('日本語')).toBe('store');
    expect(named('notes-日本語-v2')).toBe('notes-v2');
    expect(named('Ελληνικά')).toBe('store');
    for (const name of ['日本語', 'Łódź', 'emoji 🎉 dir'])
      expect(derivedStoreName(name, '/x')).toMatch(/^[\x20-\xff]+$/);
    expect(hash('日本語')).toBe(hash('café ß'));
  });
});
