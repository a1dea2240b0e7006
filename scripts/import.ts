// `npm run import -- FILE_OR_DIR [--allow-non-empty]`: restores a cold-storage
// chain (docs/cold-storage.md) into an empty database exactly — a full export,
// or the chain ending in a delta (FILE) or in a folder's newest file (DIR) —
// then checks the database against it. Refuses a non-empty database or a
// broken chain. Exit codes: 0 restored and verified, 1 restored but not
// matching, 2 refused (nothing written), 3 failed (Neo4j unreachable, or an
// error while writing, whose writes were removed).
import { resolve } from 'node:path';
import { applySchema, createDriver } from '../src/adapters/neo4j/index.js';
import { ColdStorage, ImportFailed, ImportRefused } from '../src/adapters/cold-storage/index.js';
import { outageOf } from '../src/adapters/outage.js';
import { progress } from '../src/cli/progress.js';
import { configOrExit } from './script-config.js';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: npm run import -- FILE_OR_DIR [--allow-non-empty]');
  process.exit(2);
}
const config = configOrExit();

/** Constraints and indexes, as a running service would have them: only once the file is known good. */
async function schema(): Promise<void> {
  const driver = createDriver(config.neo4j.uri, config.neo4j.user, config.neo4j.password);
  try {
    await applySchema(driver, config.neo4j.database);
  } finally {
    await driver.close();
  }
}

const cold = new ColdStorage({ neo4j: config.neo4j, stores: null, service: `total-recall ${config.version}` });
let status = 0;
try {
  let bar: ReturnType<typeof progress> | null = null;
  const report = await cold
    .import(resolve(file), {
      allowNonEmpty: args.includes('--allow-non-empty'),
      beforeWrite: schema,
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
  const message = (error as Error).message.split('\n')[0];
  console.error(
    // A failure while writing says itself what became of its writes.
    !(error instanceof ImportFailed) && outageOf(error) === 'neo4j'
      ? `error: Neo4j is not reachable at ${config.neo4j.uri} (${message}); nothing was restored`
      : `error: ${message}`,
  );
  status = error instanceof ImportRefused ? 2 : 3;
} finally {
  await cold.close();
}
process.exit(status);
