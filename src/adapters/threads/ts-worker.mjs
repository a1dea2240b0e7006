// Entry of the service's worker threads. The service runs its TypeScript
// through tsx, whose loader a worker thread does not inherit: register it
// here, then load the module named by the thread's first argument (its .js
// twin instead, should the sources ever be compiled).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = new URL(process.argv[2] ?? '');
const compiled = new URL(source.href.replace(/\.ts$/, '.js'));
if (existsSync(fileURLToPath(compiled))) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
}
