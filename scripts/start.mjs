// `npm start`: installs what is missing, brings up Neo4j and Redis, serves GraphQL.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureDependencies } from './deps.mjs';
import { bringUpServices, serviceEnv } from './with-services.mjs';
import { projectRoot } from './services/common.mjs';

const t0 = Date.now();
ensureDependencies();
const services = await bringUpServices();
const env = serviceEnv();
const host = env.HOST || '127.0.0.1';
const port = env.PORT || '4000';

const server = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'src', 'main.ts'), ...process.argv.slice(2)], {
  cwd: projectRoot,
  env,
  stdio: ['inherit', 'pipe', 'inherit'],
});
server.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  const ready = /GraphQL ready at (\S+)/.exec(String(chunk));
  if (ready) {
    const seconds = ((Date.now() - t0) / 1000).toFixed(1);
    console.log(`\nTotal Recall is up in ${seconds} s`);
    // The server names the port it took (PORT=0 lets the system choose one).
    console.log(`  GraphQL       ${ready[1] ?? `http://${host}:${port}/graphql`}`);
    if (services.neo4j.browserUrl) console.log(`  Neo4j Browser ${services.neo4j.browserUrl}  (connect to ${services.neo4j.uri}, no authentication)`);
    console.log(`  Redis         ${services.redis.url}`);
    console.log('Stop with Ctrl-C; `npm run services:down` stops Neo4j and Redis.');
  }
});
// Pass signals on: the server runs its own shutdown protocol first.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 1));
