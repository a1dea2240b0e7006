// `npm start`: installs what is missing, brings up Neo4j and Redis, serves GraphQL.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureDependencies } from './deps.mjs';
import { projectRoot } from './services/common.mjs';

const t0 = Date.now();
ensureDependencies();
// Imported once the dependencies are there: the service modules use neo4j-driver and ioredis.
const { bringUpServices, serviceEnv } = await import('./with-services.mjs');
const services = await bringUpServices();
const env = serviceEnv();
const host = env.HOST || '127.0.0.1';
const port = env.PORT || '4000';

const server = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(projectRoot, 'src', 'main.ts'), ...process.argv.slice(2)],
  {
    cwd: projectRoot,
    env,
    stdio: ['inherit', 'pipe', 'inherit'],
  },
);
server.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  const ready = /GraphQL ready at ([^\s"]+)/.exec(String(chunk)); // a readable line or a JSON one
  if (ready) {
    const seconds = ((Date.now() - t0) / 1000).toFixed(1);
    console.log(`\nTotal Recall is up in ${seconds} s`);
    // The server names the port it took (PORT=0 lets the system choose one).
    console.log(`  GraphQL       ${ready[1] ?? `http://${host}:${port}/graphql`}`);
    const n = services.neo4j;
    const signIn = n.external
      ? 'with its own credentials'
      : n.auth
        ? `user neo4j, password in ${n.passwordFile}`
        : n.authOnRestart
          ? 'no authentication yet: it was started without; `npm run services:down` then `npm start` turns it on'
          : 'no authentication (TOTAL_RECALL_LOCAL_AUTH=off), loopback only';
    if (n.browserUrl) console.log(`  Neo4j Browser ${n.browserUrl}  (connect to ${n.uri}, ${signIn})`);
    // The guide lives on this server (/browser/guide.html); the Browser allows the host (services/neo4j-launch.mjs).
    const guide = ready[1]
      ? new URL('/browser/guide.html', ready[1]).href
      : `http://${host}:${port}/browser/guide.html`;
    console.log(`  Browser guide :guide ${guide}   (run it in the Browser's editor; ?store=NAME for another store)`);
    const r = services.redis;
    const redisNote = r.authOnRestart
      ? '  (no password yet: it was started without; `npm run services:down` then `npm start` gives it one)'
      : '';
    console.log(`  Redis         ${String(r.url).replace(/\/\/([^@/]*):([^@/]*)@/, '//$1:***@')}${redisNote}`);
    console.log('Stop with Ctrl-C; `npm run services:down` stops Neo4j and Redis.');
  }
});
// Pass signals on: the server runs its own shutdown protocol first.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 1));
