import { describe, it, expect } from 'vitest';
import { ConfigError } from '../config.js';
import { loadChdb } from './column.js';

describe('loadChdb', () => {
  it('says the embedded column store is unavailable on this platform, and how to proceed, when its native package is missing', async () => {
    // What chDB's loader throws where npm left out the native package (another platform than the lock file's).
    const missing = () => Promise.reject(new Error('chdb: no native binding for darwin-arm64. Expected optional dependency @chdb/lib-darwin-arm64.'));
    const error = await loadChdb(missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toMatch(/embedded column store \(chDB\) is unavailable on this platform/);
    expect(message).toContain('@chdb/lib-darwin-arm64');
    expect(message).toMatch(/npm install --include=optional/);
    expect(message).toMatch(/set CLICKHOUSE_URL/);
  });

  it('loads chDB where its package is installed', async () => {
    const chdb = await loadChdb();
    expect(typeof chdb.Session).toBe('function');
  });
});
