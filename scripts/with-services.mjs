// Brings up Neo4j and Redis (or uses NEO4J_URI / REDIS_URL), reporting failures
// as one cause line and one fix line. Returns what it started, so a caller can
// stop exactly that. Import it after scripts/deps.mjs has run: it uses neo4j-driver and ioredis.
import { reportError } from './services/report.mjs';
import { ensureNeo4j, stopNeo4j } from './services/neo4j.mjs';
import { ensureRedis, stopRedis } from './services/redis.mjs';
import { provisionModel } from './services/model.mjs';

export async function bringUpServices(log = (m) => process.stderr.write(`${m}\n`)) {
  const t0 = Date.now();
  const neo4jUp = ensureNeo4j({ log });
  // The embedding model once Neo4j's provisioning has Java and Maven; it never fails the start.
  const model = neo4jUp.catch(() => undefined).then(() => provisionModel(log));
  const results = await Promise.allSettled([neo4jUp, ensureRedis({ log })]);
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length > 0) {
    for (const { reason } of failed) reportError(reason);
    // Leave nothing half-started behind.
    const [neo4j, redis] = results;
    if (neo4j.status === 'fulfilled' && neo4j.value.started) await stopNeo4j({ log });
    if (redis.status === 'fulfilled' && redis.value.started) await stopRedis({ log });
    process.exit(1);
  }
  const [neo4j, redis] = results.map((r) => r.value);
  return { neo4j, redis, model: await model, seconds: (Date.now() - t0) / 1000 };
}

export async function stopStarted({ neo4j, redis }, log = (m) => process.stderr.write(`${m}\n`)) {
  await Promise.all([neo4j.started ? stopNeo4j({ log }) : null, redis.started ? stopRedis({ log }) : null]);
}

/** The environment for the server and tests: the local defaults need no variables. */
export function serviceEnv() {
  return { ...process.env };
}
