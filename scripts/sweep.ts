// `npm run sweep -- [--store S] [--now T]`: runs one decay sweep against the
// configured Neo4j, as the background job will (SweepDecay on the bus), and
// prints the report. A sweep that crashed resumes when re-run with the same
// --now (epoch ms or ISO time; printed at the start).
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';
import { message } from '../src/domain/index.js';
import { showProgress } from './progress-bars.js';

const { values } = parseArgs({ options: { store: { type: 'string' }, now: { type: 'string' } } });
const now =
  values.now === undefined ? Date.now() : /^\d+$/.test(values.now) ? Number(values.now) : Date.parse(values.now);
if (!Number.isFinite(now)) {
  console.error(`error: --now must be epoch milliseconds or an ISO time, got "${values.now}"`);
  process.exit(2);
}

const app = await createApp(loadConfig());
try {
  const scope = values.store ?? 'every store';
  console.log(`sweeping ${scope} at ${new Date(now).toISOString()} (--now ${now} resumes it after a crash)`);
  const stopBars = showProgress(app.progress);
  const report = await app.bus
    .ask(message('SweepDecay', { store: values.store ?? null, now }, 'subconscious'))
    .finally(stopBars);
  const rate = report.ms > 0 ? Math.round((report.scanned / report.ms) * 1000) : report.scanned;
  console.log(JSON.stringify(report));
  console.log(
    `${report.scanned} memories in ${(report.ms / 1000).toFixed(1)} s (${rate}/s): ${report.updated} written, ` +
      `${report.promoted} promoted, ${report.demoted} demoted${report.resumed ? ', resumed' : ''}`,
  );
} finally {
  await app.close();
}
