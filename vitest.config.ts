import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'data/**'],
    // Each test file gets its own process: chDB allows one data directory per process.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ['./lib/testkit/setup.ts'],
    env: { TZ: 'UTC' },
  },
  esbuild: { target: 'es2022' },
});
