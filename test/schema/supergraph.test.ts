import { describe, it, expect } from 'vitest';
import { readFile } from 'node:fs/promises';
import { SUPERGRAPH_FILE, renderSupergraph } from '../../gateway/supergraph-file.js';

describe('schema/supergraph.graphql', () => {
  it('is what the subgraphs compose to today (run npm run supergraph when this fails)', async () => {
    const committed = await readFile(SUPERGRAPH_FILE, 'utf8');
    expect(committed).toBe(await renderSupergraph());
  });
});
