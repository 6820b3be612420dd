import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import semver from 'semver';
import { packagePath } from '../../lib/package-root.js';

type LockedPackage = { version?: string; engines?: { node?: string } | string[] };
const readJson = (file: string) => JSON.parse(readFileSync(packagePath(file), 'utf8'));

// What `npm install` warns about as EBADENGINE: a locked package that does not run on every Node the project says it
// runs on.
describe('Node versions', () => {
  const project = readJson('package.json').engines.node as string;
  const lock = readJson('package-lock.json') as { packages: Record<string, LockedPackage> };

  it('the lock file records the engines.node of package.json', () => {
    expect(lock.packages[''] && (lock.packages[''].engines as { node?: string }).node).toBe(project);
  });

  it('every locked package runs on every Node version package.json admits', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([where]) => where !== '')
      .flatMap(([where, p]) => {
        const range = p.engines && !Array.isArray(p.engines) ? p.engines.node : undefined;
        return range && !semver.subset(project, range) ? [`${where}@${p.version}: node ${range}`] : [];
      });
    expect(refusing).toEqual([]);
  });

  it('the Node running here is one package.json admits', () => {
    expect(semver.satisfies(process.version, project)).toBe(true);
  });
});
