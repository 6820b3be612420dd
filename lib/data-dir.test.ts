import { describe, it, expect } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from './config.js';
import { secureDataDir } from './data-dir.js';

describe('secureDataDir', () => {
  it('refuses a DATA_DIR that is a file, naming the variable', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'neurodata-datadir-'));
    try {
      const file = path.join(dir, 'data');
      await writeFile(file, 'not a directory');
      const error = await secureDataDir(file).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([`DATA_DIR: ${file} is not a directory`]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
