// Entry of the model's worker thread. The service runs its TypeScript through
// tsx, whose loader a worker thread does not inherit: register it here, then
// load embed-worker.ts (or embed-worker.js, should the sources ever be compiled).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('./embed-worker.js', import.meta.url);
if (existsSync(fileURLToPath(compiled))) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('./embed-worker.ts', import.meta.url).href);
}
