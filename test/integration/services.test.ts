/** The project's own service scripts: a second `up` reuses what runs. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const cli = (...args: string[]) =>
  JSON.parse(
    execFileSync(process.execPath, ['scripts/services/cli.mjs', ...args, '--json', '--quiet'], { encoding: 'utf8' }),
  );

// With NEO4J_URI / REDIS_URL the project starts nothing, so there is nothing to reuse.
describe.skipIf(Boolean(process.env.NEO4J_URI || process.env.REDIS_URL))('services', () => {
  it('reuses the running Neo4j and Redis when brought up again', () => {
    const before = cli('status');
    const up = cli('up');
    expect(up.ok).toBe(true);
    expect(up.neo4j.started).toBe(false);
    expect(up.redis.started).toBe(false);
    const after = cli('status');
    expect(after.neo4j.pid ?? null).toBe(before.neo4j.pid ?? null);
    expect(after.redis.pid ?? null).toBe(before.redis.pid ?? null);
    expect(up.seconds).toBeLessThan(10);
  });
});
