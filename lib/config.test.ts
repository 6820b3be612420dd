import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, ConfigError, ENV_DOCS } from './config.js';

describe('loadConfig', () => {
  it('runs on embedded defaults with no variables at all', () => {
    const c = loadConfig({});
    expect(c.http.port).toBe(8080);
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.relational.kind).toBe('pglite');
    expect(c.column.kind).toBe('chdb');
    expect(c.objects.kind).toBe('local');
    expect(c.search.kind).toBe('none');
    expect(c.limits).toMatchObject({ requestTimeoutMs: 60_000, bodyLimitBytes: 100 * 1024 * 1024 });
  });

  it('finds the shipped seed data beside the code, whatever the working directory, unless SEED_DIR names another folder', () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    expect(loadConfig({}).seedDir).toBe(path.join(root, 'seed'));
    expect(loadConfig({ SEED_DIR: 'elsewhere/seed' }).seedDir).toBe(path.resolve('elsewhere/seed'));
  });

  it('refuses a DATA_DIR that holds the seed data, which deleting the data directory would delete too', () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    expect(() => loadConfig({ DATA_DIR: root })).toThrow(/DATA_DIR: .* holds the seed folder .*seed; choose a directory for the service's own state only/);
    expect(() => loadConfig({ DATA_DIR: '/srv/nd', SEED_DIR: '/srv/nd/seed' })).toThrow(/DATA_DIR: \/srv\/nd holds the seed folder \/srv\/nd\/seed/);
    expect(loadConfig({ DATA_DIR: '/srv/nd/data', SEED_DIR: '/srv/nd/seed' }).dataDir).toBe('/srv/nd/data');
  });

  it('selects the servers when their URLs are set', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1/db', CLICKHOUSE_URL: 'http://127.0.0.1:8123', S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9000' });
    expect(c.relational).toEqual({ kind: 'postgres', url: 'postgres://u@127.0.0.1/db' });
    expect(c.column.kind).toBe('clickhouse');
    expect(c.objects).toMatchObject({ kind: 's3', bucket: 'b', forcePathStyle: true });
  });

  it('reports every problem at once', () => {
    try {
      loadConfig({ PORT: 'eighty', CLICKHOUSE_URL: 'not a url', TYPESENSE_URL: 'http://127.0.0.1:8108' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const problems = (e as ConfigError).problems.join('\n');
      expect(problems).toMatch(/PORT/);
      expect(problems).toMatch(/CLICKHOUSE_URL/);
    }
  });

  it('refuses to start in production without explicit secrets', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/TOKEN_SECRET_KEY[\s\S]*API_DOMAIN|API_DOMAIN[\s\S]*TOKEN_SECRET_KEY/);
  });

  it('turns introspection and the documentation pages off in production unless asked for', () => {
    const production = { NODE_ENV: 'production', TOKEN_SECRET_KEY: 'k4.secret.x', API_DOMAIN: 'https://nd.example.org' };
    expect(loadConfig({}).api).toEqual({ introspection: true, docs: true, directExecution: true, compiledExecution: true });
    expect(loadConfig(production).api).toEqual({ introspection: false, docs: false, directExecution: true, compiledExecution: true });
    expect(loadConfig({ ...production, GRAPHQL_INTROSPECTION: 'true', API_DOCS: 'true' }).api).toEqual({ introspection: true, docs: true, directExecution: true, compiledExecution: true });
    expect(loadConfig({ GRAPHQL_INTROSPECTION: 'false', API_DOCS: 'false', GATEWAY_DIRECT_EXECUTION: 'false', GRAPHQL_COMPILED_EXECUTION: 'false' }).api).toEqual({
      introspection: false,
      docs: false,
      directExecution: false,
      compiledExecution: false,
    });
    expect(() => loadConfig({ API_DOCS: 'yes' })).toThrow(/API_DOCS/);
    expect(() => loadConfig({ GATEWAY_DIRECT_EXECUTION: 'sometimes' })).toThrow(/GATEWAY_DIRECT_EXECUTION/);
    expect(() => loadConfig({ GRAPHQL_COMPILED_EXECUTION: 'yes' })).toThrow(/GRAPHQL_COMPILED_EXECUTION/);
  });

  it('documents every variable it reads, and nothing else in the code reads the environment (the tests and benchmarks read their own settings)', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const hits = execFileSync('git', ['grep', '-l', 'process\\.env', '--', '*.ts', ':!**/*.test.ts', ':!test/kit/**', ':!bench/settings.ts'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    expect(hits.filter((f) => f !== 'lib/config.ts')).toEqual([]);
    expect(Object.keys(ENV_DOCS).length).toBeGreaterThan(20);
  });
});
