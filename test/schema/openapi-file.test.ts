import { describe, it, expect } from 'vitest';
import { readFile } from 'node:fs/promises';
import { OPENAPI_FILE, renderOpenApi } from '../../gateway/openapi-file.js';

describe('schema/openapi.json', () => {
  it('is the document the code serves today (run npm run openapi when this fails)', async () => {
    const committed = await readFile(OPENAPI_FILE, 'utf8');
    expect(committed).toBe(await renderOpenApi());
  });
});
