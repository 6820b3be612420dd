import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openColumn } from '../../../lib/column/column.js';
import { configFrom } from '../../../lib/config.js';
import { engineEnvFromProcess } from '../../../test/kit/settings.js';
import { dataStoreSuite, dropDatabase } from './data-store.suite.js';

// chDB without CLICKHOUSE_URL, the server with it; a fresh data directory and database for this file either way.
// The column store is opened alone: these tests need none of the other stores.
const env = engineEnvFromProcess();
let dataDir: string;

dataStoreSuite(env.CLICKHOUSE_URL ? 'a ClickHouse server' : 'chDB', {
  async open() {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'neurodata-test-'));
    const database = `nd_test_${process.pid}_${Date.now().toString(36)}`;
    return openColumn(configFrom({ LOG_LEVEL: 'silent', ...env, DATA_DIR: dataDir, CLICKHOUSE_DATABASE: database }).column);
  },
  async cleanup(column) {
    if (column.kind === 'clickhouse') await dropDatabase(column);
    await column.close();
    await rm(dataDir, { recursive: true, force: true });
  },
});
