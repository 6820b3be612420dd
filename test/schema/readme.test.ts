import { describe, it, expect } from 'vitest';
import { readFile } from 'node:fs/promises';
import { README, envSection, renderEnvTable } from '../../gateway/env-docs.js';

describe('README', () => {
  it('lists every configuration variable as lib/config.ts documents it (run npm run docs:env when this fails)', async () => {
    expect(envSection(await readFile(README, 'utf8'))).toBe(renderEnvTable());
  });

  it('starts with the install-and-start command and the test command', async () => {
    const head = (await readFile(README, 'utf8')).split('\n').slice(0, 12).join('\n');
    expect(head).toContain('npm install && npm start');
    expect(head).toContain('npm install && npm test');
  });
});
