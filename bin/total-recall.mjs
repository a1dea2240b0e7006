#!/usr/bin/env node
// The `total-recall` command (package.json "bin"): runs the TypeScript CLI with tsx.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../src/cli/main.ts');
const code = await run(process.argv.slice(2), process.env, process.cwd(), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
process.exitCode = code;
