/** Writes the README's configuration table from the declared settings (src/settings/readme-table.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { withConfigurationTable } from '../src/settings/readme-table.js';

const file = new URL('../README.md', import.meta.url);
const before = readFileSync(file, 'utf8');
const after = withConfigurationTable(before);
if (after !== before) writeFileSync(file, after);
console.log(after === before ? 'README.md: the configuration table is up to date' : 'README.md: table rewritten');
