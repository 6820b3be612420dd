import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { SUPERGRAPH_FILE, renderSupergraph } from '../supergraph-file.js';

/** npm run supergraph: writes the composed supergraph SDL to schema/supergraph.graphql. */
const sdl = await renderSupergraph();
await writeFile(SUPERGRAPH_FILE, sdl);
console.log(`wrote ${SUPERGRAPH_FILE} (${sdl.split('\n').length} lines)`);
process.exit(0);
