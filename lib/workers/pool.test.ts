import { describe, it, expect } from 'vitest';
import { taskModuleHref } from './pool.js';

// From the compiled build the same names resolve to the .js files of dist/: test/http/compiled-build.test.ts.
describe('taskModuleHref, running from the sources', () => {
  it('keeps the name of a task module that exists', () => {
    const url = new URL('./pool.ts', import.meta.url);
    expect(taskModuleHref(url)).toBe(url.href);
  });

  it('names the .ts file for a .js name whose file does not exist', () => {
    expect(taskModuleHref(new URL('./pool.js', import.meta.url))).toBe(new URL('./pool.ts', import.meta.url).href);
  });
});
