import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Which engine set's run of the full suite (`npm test`) each test file runs in. A file runs in both, embedded
 * (PGlite, chDB) and server (PostgreSQL, a ClickHouse server), when what it shows goes through the engines: the
 * stores, and every subgraph's data behaviour. A file whose behaviour is the same whatever the engines runs in one
 * of them only, named here with the reason: it would spend the machine's time showing the same thing twice.
 * The files of one set are chosen so the two runs, which share the machine's two cores, take about as long.
 *
 * Only the full suite is planned: `scripts/test.sh <set> <files>` and `vitest run <files>` run what they are given.
 */
export type EngineSet = 'embedded' | 'server';

/** A test file outside every test/ folder opens no engine (docs/testing.md): code alone. */
const isUnitTest = (file: string) => !file.split('/').includes('test');

/** Files by their path from the package root, or a folder ending in `/` for every file under it. */
export const ONE_ENGINE_SET: readonly { files: string | ((file: string) => boolean); set: EngineSet; why: string }[] = [
  { files: isUnitTest, set: 'embedded', why: 'unit tests: no engine' },
  { files: 'test/unit/', set: 'embedded', why: 'unit tests: no engine' },
  { files: 'test/schema/', set: 'embedded', why: 'the committed artefacts against the code' },
  // The pages read and write through the API, whose answers on both engine sets the API's own tests show. The
  // costliest browser files run beside the server set, so the two sets share Chromium's time.
  { files: 'web/test/dataset.test.ts', set: 'server', why: 'the pages in a browser' },
  { files: 'web/test/account-pages.test.ts', set: 'server', why: 'the pages in a browser' },
  { files: 'web/', set: 'embedded', why: 'the pages in a browser' },
  // The HTTP layer in front of the subgraphs: parsing, limits, errors, the REST contract.
  { files: 'test/http/pipeline.test.ts', set: 'embedded', why: 'the HTTP pipeline' },
  { files: 'test/http/hardening.test.ts', set: 'server', why: 'the HTTP pipeline' },
  { files: 'test/http/operation-limits.test.ts', set: 'embedded', why: 'operation size and depth limits' },
  { files: 'test/http/openapi.test.ts', set: 'embedded', why: 'the OpenAPI document' },
  { files: 'test/http/openapi-conformance.test.ts', set: 'embedded', why: 'the REST contract' },
  { files: 'test/http/openapi-client.test.ts', set: 'server', why: 'the REST contract through a generated client' },
  { files: 'test/http/subgraphs-disabled.test.ts', set: 'embedded', why: 'composition without some subgraphs' },
  { files: 'test/http/startup.test.ts', set: 'server', why: 'configuration checks at start' },
  { files: 'test/http/compiled-build.test.ts', set: 'embedded', why: 'the production build starts' },
  { files: 'test/http/shared-limits.test.ts', set: 'server', why: 'limits shared through Redis' },
  // Generated hostile input: one fuzzer per engine set, so each set meets one of them.
  { files: 'test/http/fuzz.test.ts', set: 'embedded', why: 'generated REST requests' },
  { files: 'test/http/graphql-fuzz.test.ts', set: 'server', why: 'generated GraphQL operations' },
  // Who may do what: the decisions are the services', made the same on any engines.
  { files: 'test/http/token-scopes.test.ts', set: 'server', why: 'token scopes over every route' },
  { files: 'test/http/access-matrix.test.ts', set: 'server', why: 'the access classes over every route' },
  // Login providers and federation: the flows with other servers.
  { files: 'subgraphs/identity/test/github-login.test.ts', set: 'server', why: 'a login provider flow' },
  { files: 'subgraphs/identity/test/social-login.test.ts', set: 'server', why: 'login provider flows' },
  { files: 'subgraphs/identity/test/institutional.test.ts', set: 'embedded', why: 'institutional login flows' },
  { files: 'subgraphs/identity/test/login-throttle.test.ts', set: 'embedded', why: 'login throttling' },
  { files: 'subgraphs/federation/test/clusters.test.ts', set: 'embedded', why: 'clusters as separate processes' },
  { files: 'subgraphs/federation/test/outbound.test.ts', set: 'embedded', why: 'outbound address checks' },
  { files: 'test/http/federation.test.ts', set: 'server', why: 'clusters as separate processes' },
];

/** The first entry that names a file decides its set. */
const matches = (pattern: string | ((file: string) => boolean), file: string) =>
  typeof pattern === 'function' ? pattern(file) : pattern.endsWith('/') ? file.startsWith(pattern) : file === pattern;

/** Of `files` (paths from the package root), those the run of `set` leaves to the other set's run. */
export function leftToTheOtherSet(set: EngineSet, files: readonly string[]): string[] {
  return files.filter((file) => {
    const planned = ONE_ENGINE_SET.find((f) => matches(f.files, file));
    return planned !== undefined && planned.set !== set;
  });
}

/** Every test file of the package, by its path from `root`. */
export function testFiles(root: string, dir = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const file = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory() && !NOT_SOURCES.has(file) && !entry.name.startsWith('.')) out.push(...testFiles(root, file));
    else if (entry.isFile() && entry.name.endsWith('.test.ts')) out.push(file);
  }
  return out;
}

const NOT_SOURCES = new Set(['node_modules', 'dist', 'data', 'clients']);
