/**
 * Context boundaries (docs/architecture.md): a module may import another
 * context only through its public index.ts; a context depends on the domain
 * (its ports included) and on other contexts, never on an adapter; only tests
 * and benchmarks import a `testing.ts` entry; and src/ has no import cycles.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string, pattern = /\.ts$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path, pattern) : pattern.test(path) ? [path] : [];
  });
}

/** Relative imports of a file (type-only imports included: they couple too). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ];
  return specs.map((m) => resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts')));
}

const contextOf = (file: string): string | null => {
  const parts = relative(SRC, file).split('/');
  return parts[0] === 'contexts' ? (parts[1] ?? null) : null;
};

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f)]));
/** Production code outside src/: the scripts (with their .mjs helpers). */
const scripts = sourceFiles(join(ROOT, 'scripts'), /\.(ts|mjs)$/);
const isTestingEntry = (file: string) => file.endsWith('/testing.ts');

describe('context boundaries', () => {
  it('imports another context only through its index.ts', () => {
    const deep: string[] = [];
    for (const [file, imports] of graph) {
      for (const target of imports) {
        const to = contextOf(target);
        if (to && to !== contextOf(file) && relative(join(SRC, 'contexts', to), target) !== 'index.ts') {
          deep.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
        }
      }
    }
    expect(deep).toEqual([]);
  });

  it('keeps each context to itself and the domain: no adapter, no other context (they talk through messages)', () => {
    const leaks = files
      .filter((f) => contextOf(f) !== null)
      .flatMap((f) =>
        (graph.get(f) ?? [])
          .filter((t) => !relative(SRC, t).startsWith('domain/') && contextOf(t) !== contextOf(f))
          .map((t) => `${relative(SRC, f)} → ${relative(SRC, t)}`),
      );
    expect(leaks).toEqual([]);
  });

  it('lets only tests and benchmarks import a testing entry', () => {
    const leaks = [...files, ...scripts].flatMap((f) =>
      (graph.get(f) ?? importsOf(f)).filter(isTestingEntry).map((t) => `${relative(ROOT, f)} → ${relative(ROOT, t)}`),
    );
    expect(leaks).toEqual([]);
  });

  it('keeps the domain free of contexts and adapters', () => {
    const leaks = files
      .filter((f) => relative(SRC, f).startsWith('domain/'))
      .flatMap((f) =>
        (graph.get(f) ?? [])
          .filter((t) => !relative(SRC, t).startsWith('domain/'))
          .map((t) => `${relative(SRC, f)} → ${relative(SRC, t)}`),
      );
    expect(leaks).toEqual([]);
  });

  it('has no import cycles', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, 'visiting');
      stack.push(file);
      for (const next of graph.get(file) ?? []) {
        if (!graph.has(next)) continue;
        if (state.get(next) === 'visiting')
          cycles.push([...stack.slice(stack.indexOf(next)), next].map((f) => relative(SRC, f)).join(' → '));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it('finds the imports it checks (the check itself is not empty)', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(graph.get(join(SRC, 'app.ts'))).toContain(join(SRC, 'contexts/hippocampus/index.ts'));
    expect(scripts.length).toBeGreaterThan(5);
    expect(files.filter(isTestingEntry).length).toBeGreaterThan(0);
  });
});
