import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startTestApp, call, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { SEED_DIR } from '../seed.js';
import { expectError } from '../../../test/kit/expect.js';


let seq = 0;
const vocab = () => `import_test_${Date.now().toString(36)}_${seq++}`;

/** A slice of the real Allen hierarchy, children listed before their parents. */
const HIPPOCAMPUS_CHILDREN_FIRST = [
  'code,label,uri,parent_code',
  'MBA:391,"Field CA1, stratum lacunosum-moleculare",https://purl.brain-bican.org/ontology/mbao/MBA_391,MBA:382',
  'MBA:382,Field CA1,https://purl.brain-bican.org/ontology/mbao/MBA_382,MBA:375',
  "MBA:375,Ammon's horn,https://purl.brain-bican.org/ontology/mbao/MBA_375,MBA:1080",
  'MBA:1080,Hippocampal region,https://purl.brain-bican.org/ontology/mbao/MBA_1080,',
  '',
].join('\n');

describe('CSV import', () => {
  let t: TestApp;
  let su: TestUser;
  let regular: TestUser;

  /** `token` null sends no Authorization header. */
  const importJson = (body: Record<string, unknown>, token: string | null = su.accessToken) =>
    call(t.url, 'POST', '/v1/ontology/import/csv', { body, token: token ?? undefined });
  const importRaw = (csv: string, query = '', token: string | null = su.accessToken) =>
    call(t.url, 'POST', `/v1/ontology/import-csv${query}`, { body: csv, token: token ?? undefined, headers: { 'content-type': 'text/csv' } });
  const terms = async (vocabulary: string) => {
    const r = await call(t.url, 'GET', `/v1/ontology/terms?vocabulary=${vocabulary}&limit=1000&include_deprecated=true`);
    return r.status === 200 ? (r.body.items as { id: string; code: string; label: string; parent_id: string | null; uri: string | null; description: string | null }[]) : [];
  };
  const vocabularyNames = async () => (await call(t.url, 'GET', '/v1/ontology/vocabularies')).body.map((v: { name: string }) => v.name);

  beforeAll(async () => {
    t = await startTestApp();
    [su, regular] = await Promise.all([createUser(t, { accountType: 'SUPERUSER' }), createUser(t, { accountType: 'REGULAR' })]);
  });
  afterAll(async () => t?.close());

  describe('POST /v1/ontology/import/csv', () => {
    it('imports a file whose parents come after their children and reports what it created', async () => {
      const v = vocab();
      const r = await importJson({ vocabulary: v, csv_data: HIPPOCAMPUS_CHILDREN_FIRST });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ created: 4, updated: 0, unchanged: 0, vocabularies: [v] });
      const byCode = Object.fromEntries((await terms(v)).map((x) => [x.code, x]));
      expect(byCode['MBA:391'].label).toBe('Field CA1, stratum lacunosum-moleculare');
      const ancestors = await call(t.url, 'GET', `/v1/ontology/terms/${byCode['MBA:391'].id}/ancestors`);
      expect(ancestors.body.map((a: { code: string }) => a.code)).toEqual(['MBA:382', 'MBA:375', 'MBA:1080']);
    });

    it('is idempotent: the same file again changes nothing, and a changed file updates in place', async () => {
      const v = vocab();
      await importJson({ vocabulary: v, csv_data: HIPPOCAMPUS_CHILDREN_FIRST });
      const before = await terms(v);
      const again = await importJson({ vocabulary: v, csv_data: HIPPOCAMPUS_CHILDREN_FIRST });
      expect(again.body).toEqual({ created: 0, updated: 0, unchanged: 4, vocabularies: [v] });
      expect(await terms(v)).toEqual(before);

      const changed = HIPPOCAMPUS_CHILDREN_FIRST.replace('MBA:375,Ammon\'s horn', 'MBA:375,Cornu Ammonis') + 'MBA:399,"Field CA1, stratum oriens",,MBA:382\n';
      const r = await importJson({ vocabulary: v, csv_data: changed });
      expect(r.body).toEqual({ created: 1, updated: 1, unchanged: 3, vocabularies: [v] });
      const after = Object.fromEntries((await terms(v)).map((x) => [x.code, x]));
      expect(after['MBA:375'].id).toBe(before.find((x) => x.code === 'MBA:375')!.id);
      expect(after['MBA:375'].label).toBe('Cornu Ammonis');
      expect(after['MBA:399'].parent_id).toBe(after['MBA:382'].id);
    });

    it('re-imports the whole shipped Allen, fly and worm file without changing a row', async () => {
      const csv = await readFile(path.join(SEED_DIR, 'brain_region.csv'), 'utf8');
      const r = await importJson({ vocabulary: 'brain_region', csv_data: csv });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ created: 0, updated: 0, unchanged: 1411, vocabularies: ['brain_region'] });
    });

    it('reads quoted commas, doubled quotes, line breaks inside quotes, a BOM and CRLF line ends', async () => {
      const v = vocab();
      const csv = '\uFEFFcode,label,uri,parent_code\r\nX:1,"Nucleus, ""deep"" part",,\r\nX:2,"two\nlines",http://example.org/x2,X:1\r\n';
      const r = await importJson({ vocabulary: v, csv_data: csv });
      expect(r.body.created).toBe(2);
      const byCode = Object.fromEntries((await terms(v)).map((x) => [x.code, x]));
      expect(byCode['X:1'].label).toBe('Nucleus, "deep" part');
      expect(byCode['X:2']).toMatchObject({ label: 'two\nlines', uri: 'http://example.org/x2', parent_id: byCode['X:1'].id });
    });

    it('rejects the whole file when one row is bad, naming the row, and writes nothing', async () => {
      const v = vocab();
      await importJson({ vocabulary: v, csv_data: 'code,label,uri,parent_code\nA,Alpha,,\n' });
      const before = await terms(v);
      const bad = 'code,label,uri,parent_code\nA,Alpha renamed,,\nB,Beta,,A\nC,,,A\nD,Delta,,NOPE\n';
      const r = await importJson({ vocabulary: v, csv_data: bad });
      expectError(r, 400, /row 4: label is empty/);
      expect(await terms(v)).toEqual(before);
      const parent = await importJson({ vocabulary: v, csv_data: 'code,label,uri,parent_code\nA,Alpha renamed,,\nB,Beta,,A\nD,Delta,,NOPE\n' });
      expectError(parent, 400, /row 4: parent_code "NOPE" is neither a code in this file nor a term of vocabulary/);
      expect(await terms(v)).toEqual(before);
      const fresh = vocab();
      expectError(await importJson({ vocabulary: fresh, csv_data: 'code,label,uri,parent_code\nA,A,,\nA,again,,\n' }), 400, /row 3: code "A" already appears in row 2/);
      expect(await vocabularyNames()).not.toContain(fresh);
    });

    it('refuses parent links that close a cycle: 409 through stored terms, 400 within the file', async () => {
      const v = vocab();
      await importJson({ vocabulary: v, csv_data: 'code,label,uri,parent_code\nroot,Root,,\nleaf,Leaf,,root\n' });
      expectError(await importJson({ vocabulary: v, csv_data: 'code,label,uri,parent_code\nroot,Root,,leaf\n' }), 409, /row 2: the parent links root -> leaf -> root form a cycle with stored terms/);
      expect((await terms(v)).find((x) => x.code === 'root')!.parent_id).toBeNull();
      expectError(await importJson({ vocabulary: vocab(), csv_data: 'code,label,uri,parent_code\na,A,,b\nb,B,,a\n' }), 400, /form a cycle/);
    });

    it('answers malformed CSV with 400 naming the line', async () => {
      expectError(await importJson({ vocabulary: vocab(), csv_data: 'code,label,uri,parent_code\nA,"unterminated,,\nB,b,,\n' }), 400, /malformed CSV at line \d+: a quoted field is not closed/);
      expectError(await importJson({ vocabulary: vocab(), csv_data: 'code,label,uri,parent_code\nA,a,,,extra\n' }), 400, /malformed CSV at line 2: the row has 5 fields but the header has 4/);
      expectError(await importJson({ vocabulary: vocab(), csv_data: 'id;name\n1;x\n' }), 400, /header must be code,label,uri,parent_code/);
      expectError(await importJson({ vocabulary: vocab(), csv_data: '' }), 400, /csv_data is required/);
      expectError(await importJson({ csv_data: HIPPOCAMPUS_CHILDREN_FIRST }), 400, /^vocabulary is required/);
      expectError(await importJson({ vocabulary: vocab() }), 400, /csv_data/);
    });

    it('imports the older name,vocabulary,parent_name,description form, attaching to a stored term by its label', async () => {
      const csv = 'name,vocabulary,parent_name,description\nCA1 deep sublayer,brain_region,Field CA1,lab-defined\nCA1 deep sublayer, rostral,brain_region,CA1 deep sublayer,\n';
      expectError(await importJson({ csv_data: csv }), 400, /malformed CSV at line 3/);
      const ok = 'name,vocabulary,parent_name,description\nCA1 deep sublayer,brain_region,Field CA1,lab-defined\n"CA1 deep sublayer, rostral",brain_region,CA1 deep sublayer,\n';
      const r = await importJson({ csv_data: ok });
      expect(r.body).toEqual({ created: 2, updated: 0, unchanged: 0, vocabularies: ['brain_region'] });
      const found = await call(t.url, 'GET', '/v1/ontology/terms?vocabulary=brain_region&q=CA1%20deep%20sublayer%2C%20rostral&limit=1');
      const ancestors = await call(t.url, 'GET', `/v1/ontology/terms/${found.body.items[0].id}/ancestors`);
      expect(ancestors.body.slice(0, 3).map((a: { label: string }) => a.label)).toEqual(['CA1 deep sublayer', 'Field CA1', "Ammon's horn"]);
      expect(ancestors.body[0]).toMatchObject({ code: 'CA1 deep sublayer', description: 'lab-defined' });
      expect((await importJson({ csv_data: ok })).body).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    });

    it('needs a SuperUser: anonymous 401, Regular 403, and nothing is written', async () => {
      const v = vocab();
      expectError(await importJson({ vocabulary: v, csv_data: HIPPOCAMPUS_CHILDREN_FIRST }, null), 401);
      expectError(await importJson({ vocabulary: v, csv_data: HIPPOCAMPUS_CHILDREN_FIRST }, regular.accessToken), 403);
      expect(await vocabularyNames()).not.toContain(v);
    });
  });

  describe('POST /v1/ontology/import-csv (text/csv body)', () => {
    it('imports a raw CSV body into the vocabulary named in the query', async () => {
      const v = vocab();
      const r = await importRaw(HIPPOCAMPUS_CHILDREN_FIRST, `?vocabulary=${v}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ created: 4, updated: 0, unchanged: 0, vocabularies: [v] });
      expect((await importRaw(HIPPOCAMPUS_CHILDREN_FIRST, `?vocabulary=${v}`)).body).toMatchObject({ created: 0, unchanged: 4 });
    });

    it('takes the vocabulary from the older form vocabulary column', async () => {
      const v = vocab();
      const r = await importRaw(`name,vocabulary,parent_name,description\nOptic lobe,${v},,\nMedulla,${v},Optic lobe,second neuropil\n`);
      expect(r.body).toEqual({ created: 2, updated: 0, unchanged: 0, vocabularies: [v] });
      const medulla = (await terms(v)).find((x) => x.code === 'Medulla')!;
      expect(medulla.description).toBe('second neuropil');
    });

    it('refuses a current-form body without a vocabulary, a bad row, and callers without SuperUser', async () => {
      expectError(await importRaw(HIPPOCAMPUS_CHILDREN_FIRST), 400, /^vocabulary is required/);
      const v = vocab();
      expectError(await importRaw('code,label,uri,parent_code\nA,,,\n', `?vocabulary=${v}`), 400, /row 2: label is empty/);
      expectError(await importRaw(HIPPOCAMPUS_CHILDREN_FIRST, `?vocabulary=${v}`, null), 401);
      expectError(await importRaw(HIPPOCAMPUS_CHILDREN_FIRST, `?vocabulary=${v}`, regular.accessToken), 403);
      expect(await vocabularyNames()).not.toContain(v);
    });

    it('is documented in the OpenAPI document as a text/csv body', async () => {
      const doc = (await call(t.url, 'GET', '/openapi.json')).body;
      const op = doc.paths['/v1/ontology/import-csv'].post;
      expect(op.requestBody.content['text/csv']).toBeDefined();
      expect(op['x-access-class']).toBe('SuperUser');
      expect(op['x-alternate-form']).toBe(true);
    });
  });
});
