import { readFile, writeFile } from 'node:fs/promises';
import { renderEnvTable, README, replaceEnvSection } from '../env-docs.js';

/** npm run docs:env: rewrites the README's configuration table from lib/config.ts. */
const readme = await readFile(README, 'utf8');
await writeFile(README, replaceEnvSection(readme, renderEnvTable()));
console.log('README configuration table updated');
