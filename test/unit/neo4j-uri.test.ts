/** NEO4J_URI: the driver's schemes for one server (bolt) and for a cluster or Aura (neo4j), plain or TLS. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/domain/index.js';

const config = (uri: string) => loadConfig({ NEO4J_URI: uri, NEO4J_PASSWORD: 'pw' });

describe('NEO4J_URI', () => {
  const taken = [
    'bolt://db:7687',
    'bolt+s://db.example.com',
    'bolt+ssc://10.0.0.5:7687',
    'neo4j://db-0.internal:7687',
    'neo4j+s://abcd1234.databases.neo4j.io',
    'neo4j+ssc://db:7687',
  ];
  it.each(taken)('takes %s', (uri) => {
    expect(config(uri).neo4j).toMatchObject({ uri, password: 'pw', database: 'neo4j' });
  });

  it('defaults to the local server on its bolt port (an empty NEO4J_URI is unset)', () => {
    const port = { TOTAL_RECALL_NEO4J_BOLT_PORT: '17687' };
    expect(loadConfig(port).neo4j.uri).toBe('bolt://127.0.0.1:17687');
    expect(loadConfig({ ...port, NEO4J_URI: '' }).neo4j.uri).toBe('bolt://127.0.0.1:17687');
  });

  const refused = ['http://db:7474', 'db:7687', 'neo4j+x://db', 'neo4j://'];
  it.each(refused)('refuses %j with a typed CONFIG.NEO4J_URI', (uri) => {
    let thrown: unknown;
    try {
      config(uri);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect(thrown).toMatchObject({ code: 'CONFIG.NEO4J_URI' });
    expect((thrown as Error).message).toContain('neo4j+s');
  });
});
