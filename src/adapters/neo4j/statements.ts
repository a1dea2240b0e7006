/**
 * Reads the registered statements (src/domain/ports/statements.ts): each file
 * `cypher/<context>/<name>.cypher` once, at its first use, into the body that
 * is sent and the params and returns its header declares.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Statement } from '../../domain/index.js';

export const CYPHER_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../cypher');

export interface StatementText {
  readonly file: string;
  /** What is sent to Neo4j: the file without its comment lines. */
  readonly text: string;
  readonly params: readonly string[];
  readonly returns: readonly string[];
}

function headerList(lines: string[], key: string): string[] {
  const at = lines.findIndex((l) => l.toLowerCase().startsWith(`// ${key}:`));
  if (at < 0) return [];
  let value = lines[at]!.slice(lines[at]!.indexOf(':') + 1).trim();
  // A long list goes on in indented comment lines ("//   more, names"), so a header keeps to 120 columns.
  for (let i = at + 1; i < lines.length && /^\/\/ {3}\S/.test(lines[i]!); i++) value += ` ${lines[i]!.trim().slice(2)}`;
  if (value === '' || value === 'none') return [];
  return value
    .split(',')
    .map((p) => p.trim().replace(/^\$/, ''))
    .filter((p) => p !== '');
}

/**
 * A statement file's header and body. Only the body travels: the driver
 * writes a statement in 1400-byte pieces, one system call each, and the
 * comments were half of a hot statement's bytes (filter-memories: 3 writes → 2).
 */
export function parseStatement(file: string, text: string): StatementText {
  const lines = text.split('\n');
  const header = lines.filter((l) => l.startsWith('//'));
  const body = lines.filter((l) => l.trim() !== '' && !l.trimStart().startsWith('//')).join('\n');
  return { file, text: body, params: headerList(header, 'params'), returns: headerList(header, 'returns') };
}

/** The `$name` parameters a statement's body really uses. */
export function usedParams(text: string): string[] {
  const body = text
    .split('\n')
    .filter((l) => !l.trimStart().startsWith('//'))
    .join('\n')
    .replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''");
  return [...new Set([...body.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string))].sort();
}

const read = new Map<string, StatementText>();

/** A statement's body and header, read from its file the first time it is run. */
export function statementText(statement: Statement): StatementText {
  let parsed = read.get(statement.file);
  if (!parsed) {
    parsed = parseStatement(statement.file, readFileSync(join(CYPHER_ROOT, statement.file), 'utf8'));
    read.set(statement.file, parsed);
  }
  return parsed;
}

export function cypherFilesOnDisk(): string[] {
  const files: string[] = [];
  for (const dir of readdirSync(CYPHER_ROOT, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const f of readdirSync(join(CYPHER_ROOT, dir.name))) if (f.endsWith('.cypher')) files.push(`${dir.name}/${f}`);
  }
  return files.sort();
}
