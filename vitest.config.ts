import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { useMemoryScratch } from './test/kit/scratch-dir.js';
import { leftToTheOtherSet, testFiles } from './test/kit/suite-plan.js';
import { testEngineSet } from './test/kit/settings.js';

// Node loads graphql's CommonJS build for every package (it has no "exports" map); Vite would give the project's own
// files the ES module build instead, and graphql refuses schemas made by the other copy. One copy for everyone.
const graphqlCjs = createRequire(import.meta.url).resolve('graphql');

// Set before the test processes start, so they inherit it.
useMemoryScratch();

// The full suite's run of one engine set (scripts/test.sh sets TEST_ENGINE_SET) leaves the files planned for the
// other set's run to it (test/kit/suite-plan.ts).
const engineSet = testEngineSet();
const planned = engineSet ? leftToTheOtherSet(engineSet, testFiles(path.dirname(fileURLToPath(import.meta.url)))) : [];

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'data/**', 'seed/**', ...planned],
    // Child processes rather than threads: chDB is a native library with process-wide state. Test files take turns
    // in each process without re-importing the service's modules (isolate off), which halves the suite's CPU time;
    // chDB opens one data directory per process at a time, so the kit closes whatever a file left running
    // (test/kit/setup.ts).
    pool: 'forks',
    isolate: false,
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ['./test/kit/setup.ts'],
    env: { TZ: 'UTC' },
  },
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlCjs }] },
  esbuild: { target: 'es2022' },
});
