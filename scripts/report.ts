// `npm run report -- --store S [--out FILE]`: writes a one-page HTML report of a
// store (counts by tier over time, salience, association degree, what faded)
// with SVG charts, to report-<store>.html by default.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { createDriver, Neo4jGraph } from '../src/adapters/neo4j/index.js';
import { readStoreReport, reportHtml } from '../src/adapters/report/index.js';
import { currentSalience } from '../src/contexts/salience/index.js';

const { values } = parseArgs({ options: { store: { type: 'string' }, out: { type: 'string' } } });
const config = loadConfig();
const store = values.store ?? config.defaultStore;
const out = resolve(values.out ?? `report-${store.replace(/[^A-Za-z0-9_.-]/g, '_')}.html`);
const driver = createDriver(config.neo4j.uri, config.neo4j.user, config.neo4j.password);
try {
  const data = await readStoreReport(new Neo4jGraph(driver, config.neo4j.database), store, Date.now(), (m, now) =>
    currentSalience(m, now, config.salience),
  );
  await writeFile(out, await reportHtml(data));
  console.log(
    `wrote ${out}: ${data.tierWeeks.reduce((n, r) => n + r.memories, 0)} memories of store "${store}", ` +
      `${data.faded.length} faded this week`,
  );
} catch (error) {
  console.error(`error: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await driver.close();
}
