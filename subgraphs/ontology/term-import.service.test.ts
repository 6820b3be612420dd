import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseTermCsv, planImport } from './term-import.service.js';
import { SEED_DIR } from './seed.js';
import type { TermNode } from './store/term.store.js';

const bad = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as Error & { extensions?: { code?: string } });
  }
  throw new Error('expected an error');
};

const node = (code: string, parentId: string | null, id = `id-${code}`, extra: Partial<TermNode> = {}): TermNode => ({
  id,
  code,
  label: code.toUpperCase(),
  uri: null,
  parentId,
  description: null,
  status: 'active',
  ...extra,
});

describe('parseTermCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, a BOM and CRLF line ends', () => {
    const csv = '\uFEFFcode,label,uri,parent_code\r\nA,"Field CA1, stratum oriens",,\r\nB,"say ""hi""\nthere",http://example.org/b,A\r\n';
    const parsed = parseTermCsv(csv, 'brain_region');
    expect(parsed.form).toBe('current');
    expect(parsed.rows.map((r) => [r.code, r.label, r.uri, r.parentRef])).toEqual([
      ['A', 'Field CA1, stratum oriens', null, null],
      ['B', 'say "hi"\nthere', 'http://example.org/b', 'A'],
    ]);
  });

  it('numbers rows like a spreadsheet (header = row 1) and names the line when it differs', () => {
    const e = bad(() => parseTermCsv('code,label,uri,parent_code\nA,a,,\n\nB,,,\n', 'v'));
    expect(e.extensions?.code).toBe('BAD_USER_INPUT');
    expect(e.message).toMatch(/row 3 \(line 4\): label is empty/);
  });

  it('reports every bad row at once', () => {
    const e = bad(() => parseTermCsv('code,label,uri,parent_code\n,a,,\nB,b,not a uri,\nC,c,,\n', 'v'));
    expect(e.message).toMatch(/2 problems/);
    expect(e.message).toMatch(/row 2: code is empty/);
    expect(e.message).toMatch(/row 3: uri "not a uri" is not an absolute URI/);
  });

  it('refuses malformed CSV, naming the line', () => {
    expect(bad(() => parseTermCsv('code,label,uri,parent_code\nA,"open,,\n', 'v')).message).toMatch(/malformed CSV at line \d+: a quoted field is not closed/);
    expect(bad(() => parseTermCsv('code,label,uri,parent_code\nA,a,b,c,d\n', 'v')).message).toMatch(/malformed CSV at line 2: the row has 5 fields but the header has 4/);
  });

  it('refuses unknown headers and columns, and the current form without a vocabulary', () => {
    expect(bad(() => parseTermCsv('id,title\n1,x\n', 'v')).message).toMatch(/header must be code,label,uri,parent_code or name,vocabulary,parent_name,description/);
    expect(bad(() => parseTermCsv('code,lable\nA,a\n', 'v')).message).toMatch(/no label column.*unknown column lable/);
    expect(bad(() => parseTermCsv('code,label\nA,a\n', null)).message).toMatch(/^vocabulary is required/);
  });

  it('reads the older form, taking each row vocabulary from its column or the import', () => {
    const parsed = parseTermCsv('name,vocabulary,parent_name,description\nCortex,brain_region,,outer layer\nLayer 1,,Cortex,\n', 'brain_region');
    expect(parsed.form).toBe('older');
    expect(parsed.rows.map((r) => [r.vocabulary, r.code, r.label, r.parentRef, r.description])).toEqual([
      ['brain_region', 'Cortex', 'Cortex', null, 'outer layer'],
      ['brain_region', 'Layer 1', 'Layer 1', 'Cortex', null],
    ]);
    expect(bad(() => parseTermCsv('name,vocabulary\nX,species\n', 'brain_region')).message).toMatch(/row 2: vocabulary "species" differs/);
    expect(bad(() => parseTermCsv('name,vocabulary\nX,\n', null)).message).toMatch(/row 2: vocabulary is empty and the import names none/);
  });

  it('parses every shipped vocabulary file', () => {
    for (const v of ['brain_region', 'species', 'microscopy_technique', 'neurotransmitter']) {
      const parsed = parseTermCsv(readFileSync(path.join(SEED_DIR, `${v}.csv`), 'utf8'), v);
      expect(parsed.rows.length).toBeGreaterThan(30);
      expect(planImport(parsed.form, parsed.rows, []).creates).toHaveLength(parsed.rows.length);
    }
  });
});

describe('planImport', () => {
  const rows = (csv: string, form: 'current' | 'older' = 'current') => ({ form, rows: parseTermCsv(csv, 'v').rows });

  it('resolves parents that appear after their children and gives new terms their parent ids', () => {
    const { form, rows: r } = rows('code,label,uri,parent_code\nchild,Child,,root\nroot,Root,,\n');
    const plan = planImport(form, r, []);
    const root = plan.creates.find((c) => c.code === 'root')!;
    expect(plan.creates.find((c) => c.code === 'child')!.parentId).toBe(root.id);
    expect(root.parentId).toBeNull();
  });

  it('counts unchanged rows and updates only the fields that differ', () => {
    const existing = [node('a', null, 'id-a', { label: 'A' }), node('b', 'id-a', 'id-b', { label: 'B' })];
    const { form, rows: r } = rows('code,label,uri,parent_code\na,A,,\nb,Bee,,a\nc,C,,b\n');
    const plan = planImport(form, r, existing);
    expect(plan.unchanged).toBe(1);
    expect(plan.updates).toEqual([{ id: 'id-b', label: 'Bee' }]);
    expect(plan.creates.map((c) => [c.code, c.parentId])).toEqual([['c', 'id-b']]);
  });

  it('refuses unknown parents, self parents and codes given twice', () => {
    expect(bad(() => planImport('current', rows('code,label,uri,parent_code\na,A,,zz\n').rows, [])).message).toMatch(/row 2: parent_code "zz" is neither a code in this file nor a term of vocabulary v/);
    expect(bad(() => planImport('current', rows('code,label,uri,parent_code\na,A,,a\n').rows, [])).message).toMatch(/row 2: a term cannot be its own parent/);
    expect(bad(() => planImport('current', rows('code,label,uri,parent_code\na,A,,\na,B,,\n').rows, [])).message).toMatch(/row 3: code "a" already appears in row 2/);
  });

  it('refuses a file whose parent links close a cycle, within the file or through stored terms', () => {
    expect(bad(() => planImport('current', rows('code,label,uri,parent_code\na,A,,b\nb,B,,a\n').rows, [])).message).toMatch(/form a cycle/);
    // stored: b's parent is a; the file makes a a child of b
    const existing = [node('a', null), node('b', 'id-a')];
    const e = bad(() => planImport('current', rows('code,label,uri,parent_code\na,A,,b\n').rows, existing));
    expect(e.message).toMatch(/row 2: the parent links a -> b -> a form a cycle with stored terms/);
    expect(e.extensions?.code).toBe('CONFLICT');
    expect(bad(() => planImport('current', rows('code,label,uri,parent_code\na,A,,b\nb,B,,a\n').rows, [])).extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('lets the older form name a parent by the label of a stored term', () => {
    const existing = [node('MBA:382', null, 'id-ca1', { label: 'Field CA1' })];
    const { rows: r } = rows('name,vocabulary,parent_name,description\nCA1 deep layer,v,Field CA1,\n', 'older');
    const plan = planImport('older', r, existing);
    expect(plan.creates[0]).toMatchObject({ code: 'CA1 deep layer', label: 'CA1 deep layer', parentId: 'id-ca1' });
  });
});
