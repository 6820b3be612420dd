import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { packagePath } from '../../lib/package-root.js';
import { ENV_DOCS, type EnvName } from '../../lib/config.js';
import { ROUTES } from '../../rest-compat/routes/index.js';

/**
 * The tables of docs/ that restate what the code says: variables with their defaults, routes by method and path.
 * They are written for their page's reader, so they are not generated; this holds them to the code instead.
 */
interface Row {
  file: string;
  line: number;
  header: string[];
  cells: string[];
}

function tableRows(): Row[] {
  const dir = packagePath('docs');
  const rows: Row[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.md'))) {
    const lines = readFileSync(`${dir}/${file}`, 'utf8').split('\n');
    let header: string[] | null = null;
    lines.forEach((text, i) => {
      if (!text.startsWith('|')) {
        header = null;
        return;
      }
      const cells = text.slice(1, text.lastIndexOf('|')).split(/(?<!\\)\|/).map((c) => c.trim());
      if (!header) header = cells;
      else if (!/^-+$/.test(cells[0])) rows.push({ file, line: i + 1, header, cells });
    });
  }
  return rows;
}

const ROWS = tableRows();
const where = (r: Row) => `docs/${r.file}:${r.line}`;

/** The default the README prints for a variable (from its `.default()`), or null when it has none there. */
function schemaDefault(name: EnvName): string | null {
  const m = /\(default ([^;)]*)[;)][^(]*$/.exec(ENV_DOCS[name]);
  return m ? m[1].replace(/^"(.*)"$/, '$1') : null;
}

describe('the tables of docs/', () => {
  it('name only variables the service reads, each with the default it has', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const r of ROWS) {
      const m = /^`([A-Z][A-Z0-9_]+)`$/.exec(r.cells[0]);
      if (!m || !['variable', 'setting'].includes(r.header[0])) continue;
      const name = m[1] as EnvName;
      checked++;
      if (!(name in ENV_DOCS)) {
        problems.push(`${where(r)}: ${name} is not a variable the service reads`);
        continue;
      }
      const column = r.header.indexOf('default');
      const expected = schemaDefault(name);
      if (column < 0 || expected === null) continue;
      const written = r.cells[column].replace(/`/g, '').replace(/\s*\(.*\)$/, '').trim();
      if (written !== expected) problems.push(`${where(r)}: ${name} defaults to ${expected}, the table says ${r.cells[column]}`);
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  it('name only routes the service has', () => {
    const known = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    const problems: string[] = [];
    let checked = 0;
    for (const r of ROWS) {
      if (r.header[0] !== 'route') continue;
      // A cell may give a route and its variants ("GET /v1/x, /v1/x.arrow"); the first is checked.
      const m = /^`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s,]*)`/.exec(r.cells[0]);
      if (!m) continue;
      checked++;
      const path = m[2].split('?')[0];
      if (!known.has(`${m[1]} ${path}`)) problems.push(`${where(r)}: ${m[1]} ${path} is not in the route table`);
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });
});
