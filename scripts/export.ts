// `npm run export -- [DIR]`: writes a verified full cold-storage export of the
// database (or of TOTAL_RECALL_SCOPE_STORES), which starts a new chain: the
// shutdown protocol's next delta follows it when DIR is its folder. Run it
// while nothing writes (verification fails otherwise, and the chain stays).
import { resolve } from 'node:path';
import { configOrExit } from './script-config.js';
import { ColdStorage } from '../src/adapters/cold-storage/index.js';
import { progress } from '../src/cli/progress.js';

const config = configOrExit();
const dir = resolve(process.argv[2] ?? config.coldStorageDir);
const cold = new ColdStorage({
  neo4j: config.neo4j,
  stores: config.scopeStores,
  service: `total-recall ${config.version}`,
});
let status = 0;
try {
  // A counter on a terminal only (the total is known once the export is read).
  const bar = progress('exporting', null);
  const written = await cold
    .write(dir, { full: true, onProgress: (records) => bar.update(records) })
    .finally(() => bar.stop());
  console.log(
    `wrote ${written.path}: ${written.nodes} nodes, ${written.relationships} relationships, ${written.bytes} bytes`,
  );
  const check = await cold.verify(written.path);
  if (check.verified) console.log('verified against Neo4j');
  else {
    // Writers that kept running while it was read make this expected; shutdown stops them first.
    console.error(`not verified: ${check.problems.join('; ')}`);
    status = 1;
  }
} catch (error) {
  console.error(`error: ${(error as Error).message}`);
  status = 1;
} finally {
  await cold.close();
}
process.exit(status);
