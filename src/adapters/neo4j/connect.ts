/**
 * Start-up's first contact with Neo4j: wait for the server (a supervisor may
 * start the service before it), then check that the configured database is
 * there. An unknown database is a setting to fix, not an outage to wait out.
 */
import neo4j, { Neo4jError, type Driver } from 'neo4j-driver';
import { ConfigError } from '../../domain/index.js';
import { outageOf } from '../outage.js';

const DATABASE_NOT_FOUND = 'Neo.ClientError.Database.DatabaseNotFound';

/**
 * Resolves once `database` answers a read; keeps trying for `waitMs` while
 * the server is unreachable or the database is still starting. A database the
 * server does not have fails at once with a ConfigError
 * (CONFIG.NEO4J_DATABASE_NOT_FOUND) naming the databases it does have.
 */
export async function waitForNeo4j(
  driver: Driver,
  database: string,
  waitMs: number,
  log: (line: string) => void,
): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (let told = false; ; ) {
    try {
      // A routing driver resolves the database here; a direct one (bolt://) at the first query.
      await driver.verifyConnectivity({ database });
      await answers(driver, database);
      return;
    } catch (error) {
      if (error instanceof Neo4jError && error.code === DATABASE_NOT_FOUND) {
        throw await unknownDatabase(driver, database);
      }
      if (outageOf(error) !== 'neo4j' || Date.now() > deadline) throw error;
      const cause = (error as Error).message.split('.')[0];
      if (!told) log(`waiting up to ${Math.round(waitMs / 1000)} s for Neo4j (${cause})`);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** One read in the database, tried once: the loop above decides on retries (executeQuery would retry for 30 s). */
async function answers(driver: Driver, database: string): Promise<void> {
  const session = driver.session({ database, defaultAccessMode: neo4j.session.READ });
  try {
    await session.run('RETURN 1');
  } finally {
    await session.close().catch(() => undefined);
  }
}

async function unknownDatabase(driver: Driver, database: string): Promise<ConfigError> {
  let names: string[] = [];
  try {
    const list = 'SHOW DATABASES YIELD name RETURN DISTINCT name ORDER BY name';
    const result = await driver.executeQuery(list, {}, { database: 'system' });
    names = result.records.map((r) => String(r.get('name'))).filter((n) => n !== 'system');
  } catch {
    // Listing needs the system database; the error stays useful without the list.
  }
  const has = names.length > 0 ? `; the server has ${names.map((n) => `"${n}"`).join(', ')}` : '';
  return new ConfigError(
    'CONFIG.NEO4J_DATABASE_NOT_FOUND',
    `NEO4J_DATABASE "${database}" does not exist on this Neo4j${has}. ` +
      'Neo4j Community has one user database, "neo4j"; ' +
      'on Enterprise or Aura, create the database first or name one that exists.',
    { database, databases: names },
  );
}
