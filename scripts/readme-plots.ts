/**
 * Writes the plots the README shows (npm run docs:plots): the forest plot of the BCG vaccine trials (seed/meta/,
 * Colditz et al. 1994), pooled as risk ratios by REML. A test checks the committed file is what this writes.
 */
import { writeFileSync } from 'node:fs';
import { packagePath } from '../lib/package-root.js';
import { bcgForestPlot } from '../subgraphs/graph/meta/test/fixtures/readme-plot.js';

const file = packagePath('docs', 'img', 'bcg-forest-plot.svg');
writeFileSync(file, bcgForestPlot());
console.log(`wrote ${file}`);
