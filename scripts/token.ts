// `npm run token -- create --store S [--instance I] --scope mind|reader|operator`,
// `npm run token -- list`, `npm run token -- revoke ID`: API tokens in the
// configured Neo4j. A new token is printed once (stdout); only its hash is kept.
import { loadConfig } from '../src/config.js';
import { createDriver, Neo4jGraph } from '../src/adapters/neo4j/index.js';
import { runTokenCommand, TokenStore } from '../src/adapters/auth/index.js';

const config = loadConfig();
const driver = createDriver(config.neo4j.uri, config.neo4j.user, config.neo4j.password);
try {
  process.exitCode = await runTokenCommand(
    process.argv.slice(2),
    new TokenStore(new Neo4jGraph(driver, config.neo4j.database)),
  );
} finally {
  await driver.close();
}
