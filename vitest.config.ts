import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // One graphql instance: Node (and so type-graphql) loads graphql's CommonJS
    // entry, while Vite would pick its .mjs one; two copies break instanceof checks.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: integration files share one Neo4j; run two at a time.
    maxWorkers: 2,
  },
});
