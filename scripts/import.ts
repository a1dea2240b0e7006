// `npm run import -- FILE_OR_DIR [--allow-non-empty]`: restores a cold-storage
// chain (docs/cold-storage.md) into an empty database exactly — a full export,
// or the chain ending in a delta (FILE) or in a folder's newest file (DIR) —
// then checks the database against it. Refuses a non-empty database or a
// broken chain.
import { resolve } from 'node:path';
import { loadConfig } from '../src/config.js';
import { applySchema, createDriver } from '../src/adapters/neo4j/index.js';
import { ColdStorage, ImportRefused } from '../src/adapters/cold-storage/index.js';
import { progress } from '../src/cli/progress.js';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: npm run import -- FILE_OR_DIR [--allow-non-empty]');
  process.exit(2);
}
const config = loadConfig();
// Constraints and indexes first, as a running service would have them.
const driver = createDriver(config.neo4j.uri, config.neo4j.user, config.neo4j.password);
await applySchema(driver, config.neo4j.database);
await driver.close();

const cold = new ColdStorage({ neo4j: config.neo4j, stores: null, service: `total-recall ${config.version}` });
let status = 0;
try {
  let bar: ReturnType<typeof progress> | null = null;
  const report = await cold
    .import(resolve(file), {
      allowNonEmpty: args.includes('--allow-non-empty'),
      log: (line) => console.log(line),
      // A bar on a terminal only.
      onProgress: (done, total) => {
        bar ??= progress('importing', total);
        bar.update(done);
      },
    })
    .finally(() => bar?.stop());
  const { totalNodes, totalRelationships } = report.counts;
  console.log(
    `restored ${totalNodes} nodes and ${totalRelationships} relationships from ${report.files.length} file(s)`,
  );
  for (const [label, n] of Object.entries(report.counts.nodes)) console.log(`  ${label}: ${n}`);
  if (report.verified) console.log('verified: the database matches the export (counts and content digest)');
  else {
    console.error(`error: the database does not match the export: ${report.problems.join('; ')}`);
    status = 1;
  }
} catch (error) {
  console.error(`error: ${(error as Error).message}`);
  status = error instanceof ImportRefused ? 2 : 1;
} finally {
  await cold.close();
}
process.exit(status);
