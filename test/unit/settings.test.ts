import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/domain/index.js';
import { SECTIONS, withConfigurationTable } from '../../src/settings/readme-table.js';

const README = new URL('../../README.md', import.meta.url);

describe('settings', () => {
  it("README's configuration table is the one the declarations give (npm run docs:config)", () => {
    const readme = readFileSync(README, 'utf8');
    expect(withConfigurationTable(readme)).toBe(readme);
  });

  it('declares each variable once', () => {
    const names = SECTIONS.flatMap(([, rows]) => rows.map((row) => row.env));
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it('refuses a bad value at start with a ConfigError naming the variable', () => {
    for (const [name, value] of [
      ['TOTAL_RECALL_MAX_BATCH', 'lots'],
      ['TOTAL_RECALL_SYNAPSE_HOP_DECAY', '2'],
      ['TOTAL_RECALL_EMBEDDINGS', 'maybe'],
      ['TOTAL_RECALL_NEO4J_BOLT_PORT', 'x'],
      ['TOTAL_RECALL_LOG_LEVEL', 'loud'],
      ['TOTAL_RECALL_EMBEDDING_JOB_ATTEMPTS', '0'],
    ] as const) {
      const thrown = (() => {
        try {
          loadConfig({ [name]: value });
        } catch (error) {
          return error;
        }
      })();
      expect(thrown, name).toBeInstanceOf(ConfigError);
      expect((thrown as ConfigError).code).toBe(`CONFIG.${name}`);
      expect((thrown as Error).message).toContain(name);
    }
  });

  it('honours NEO4J_USERNAME, and resolves every path default under TOTAL_RECALL_DATA', () => {
    expect(loadConfig({ NEO4J_USERNAME: 'app', NEO4J_PASSWORD: 'pw' }).neo4j.user).toBe('app');
    expect(loadConfig({ NEO4J_USERNAME: 'app', NEO4J_USER: 'other', NEO4J_PASSWORD: 'pw' }).neo4j.user).toBe('other');
    const config = loadConfig({ TOTAL_RECALL_DATA: '/srv/recall' });
    expect(config.coldStorageDir).toBe('/srv/recall/cold-storage');
    expect(config.embeddings.modelDir).toBe('/srv/recall/models/e5-small-v2-q');
    expect(config.security.operatorTokenFile).toBe('/srv/recall/operator.token');
  });
});
