import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestApp, call, gql, type TestApp } from '../../../test/kit/app.js';
import { createUser, type TestUser } from '../../../test/kit/users.js';
import { isUuidV7 } from '../../../lib/ids.js';
import { expectError } from '../../../test/kit/expect.js';


let seq = 0;
/** A vocabulary name of its own per test, so tests never see each other's terms. */
const vocab = () => `test_vocab_${Date.now().toString(36)}_${seq++}`;

describe('ontology writes', () => {
  let t: TestApp;
  let su: TestUser;
  let regular: TestUser;
  let academic: TestUser;

  const create = (body: Record<string, unknown>, token = su.accessToken) => call(t.url, 'POST', '/v1/ontology/terms', { body, token });
  const get = (id: string) => call(t.url, 'GET', `/v1/ontology/terms/${id}`);
  const termByCode = async (vocabulary: string, code: string) =>
    (await call(t.url, 'GET', `/v1/ontology/terms?vocabulary=${vocabulary}&q=${encodeURIComponent(code)}&limit=1&include_deprecated=true`)).body.items[0];

  beforeAll(async () => {
    t = await startTestApp();
    [su, regular, academic] = await Promise.all([createUser(t, { accountType: 'SUPERUSER' }), createUser(t, { accountType: 'REGULAR' }), createUser(t, { accountType: 'ACADEMIC' })]);
  });
  afterAll(async () => t?.close());

  describe('POST /v1/ontology/terms', () => {
    it('creates a term in the current form under a real atlas parent and answers 201 with it', async () => {
      const ca1 = await termByCode('brain_region', 'MBA:382');
      const r = await create({
        vocabulary: 'brain_region',
        code: 'LAB:ca1-deep',
        label: 'Field CA1, deep pyramidal sublayer',
        parent_id: ca1.id,
        uri: 'https://example.org/regions/ca1-deep',
        metadata: { source: 'lab atlas', layer: { depth_um: [120, 180] } },
      });
      expect(r.status).toBe(201);
      expect(isUuidV7(r.body.id)).toBe(true);
      expect(r.body).toMatchObject({
        vocabulary: 'brain_region',
        code: 'LAB:ca1-deep',
        label: 'Field CA1, deep pyramidal sublayer',
        parent_id: ca1.id,
        uri: 'https://example.org/regions/ca1-deep',
        metadata: { source: 'lab atlas', layer: { depth_um: [120, 180] } },
        status: 'active',
        deprecated: false,
        replaced_by: null,
      });
      expect((await get(r.body.id)).body).toEqual(r.body);
      const ancestors = await call(t.url, 'GET', `/v1/ontology/terms/${r.body.id}/ancestors`);
      expect(ancestors.body.map((a: { code: string }) => a.code)).toEqual(['MBA:382', 'MBA:375', 'MBA:1080', 'MBA:1089', 'MBA:695', 'MBA:688', 'MBA:567', 'MBA:8', 'MBA:997']);
      const children = await call(t.url, 'GET', `/v1/ontology/terms/${ca1.id}/children`);
      expect(children.body.map((c: { code: string }) => c.code)).toContain('LAB:ca1-deep');
    });

    it('creates a term in the older form: the name is code and label, with a description', async () => {
      const v = vocab();
      const parent = await create({ name: 'Cortex', vocabulary: v });
      expect(parent.status).toBe(201);
      const r = await create({ name: 'Layer 1', vocabulary: v, parent_id: parent.body.id, description: 'molecular layer' });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ code: 'Layer 1', label: 'Layer 1', name: 'Layer 1', description: 'molecular layer', parent_id: parent.body.id, vocabulary: v });
    });

    it('creates a vocabulary on its first term', async () => {
      const v = vocab();
      await create({ vocabulary: v, code: 'A', label: 'Alpha' });
      const list = await call(t.url, 'GET', '/v1/ontology/vocabularies');
      expect(list.body.find((x: { name: string }) => x.name === v)).toEqual({ name: v, description: null, term_count: 1, deprecated_count: 0 });
    });

    it('answers 409 for a code already used in the vocabulary, and for an older-form name already used as a label', async () => {
      const v = vocab();
      await create({ vocabulary: v, code: 'X:1', label: 'Thing' });
      expectError(await create({ vocabulary: v, code: 'X:1', label: 'Other' }), 409, /code "X:1" already exists in vocabulary/);
      expectError(await create({ vocabulary: v, name: 'Thing' }), 409, /named "Thing" already exists.*code X:1/);
      // the same code in another vocabulary is a different term
      expect((await create({ vocabulary: vocab(), code: 'X:1', label: 'Thing' })).status).toBe(201);
    });

    it('refuses a parent from another vocabulary, an unknown parent and malformed fields with 400', async () => {
      const v = vocab();
      const mouse = await termByCode('species', 'NCBITaxon:10090');
      expectError(await create({ vocabulary: v, code: 'A', label: 'A', parent_id: mouse.id }), 400, /parent_id: .*in vocabulary species; a parent must be in the same vocabulary/);
      expectError(await create({ vocabulary: v, code: 'A', label: 'A', parent_id: '0190f3a4-5b6c-7d8e-9f00-112233445566' }), 400, /parent_id: no term/);
      expectError(await create({ vocabulary: v, code: 'A', label: 'A', parent_id: 'CA1' }), 400, /parent_id: expected a term id/);
      expectError(await create({ vocabulary: v, code: 'A' }), 400, /label is required/);
      expectError(await create({ vocabulary: v, code: 'A', label: 'A', name: 'A' }), 400, /either code and label .* or name/);
      expectError(await create({ vocabulary: v, code: 'A', label: 'A', uri: 'not a uri' }), 400, /^uri:/);
      expectError(await create({ vocabulary: 'Brain Region', code: 'A', label: 'A' }), 400, /^vocabulary:/);
      expectError(await create({ vocabulary: v, code: 'A', label: 'A', metadata: 'text' }), 400);
      expectError(await create({ code: 'A', label: 'A' }), 400);
      expect((await call(t.url, 'GET', '/v1/ontology/vocabularies')).body.some((x: { name: string }) => x.name === v)).toBe(false);
    });

    it('shows a new term in every page read after the write, aliases of one query included', async () => {
      const v = vocab();
      expect((await create({ vocabulary: v, code: 'B', label: 'Bbb' })).status).toBe(201);
      const page = `terms(vocabulary: "${v}", limit: 1) { total items { code } }`;
      expect((await gql(t.url, `{ a: ${page} b: ${page} }`)).body.data).toEqual({ a: { total: 1, items: [{ code: 'B' }] }, b: { total: 1, items: [{ code: 'B' }] } });
      expect((await create({ vocabulary: v, code: 'A', label: 'Aaa' })).status).toBe(201);
      expect((await gql(t.url, `{ a: ${page} b: ${page} }`)).body.data).toEqual({ a: { total: 2, items: [{ code: 'A' }] }, b: { total: 2, items: [{ code: 'A' }] } });
    });

    it('needs a SuperUser: anonymous 401, Regular and Academic 403, and nothing is written', async () => {
      const v = vocab();
      expectError(await call(t.url, 'POST', '/v1/ontology/terms', { body: { vocabulary: v, code: 'A', label: 'A' } }), 401);
      expectError(await create({ vocabulary: v, code: 'A', label: 'A' }, regular.accessToken), 403, /SuperUser/);
      expectError(await create({ vocabulary: v, code: 'A', label: 'A' }, academic.accessToken), 403);
      expectError(await create({ vocabulary: v, code: 'A', label: 'A' }, 'not-a-token'), 401);
      expect((await call(t.url, 'GET', '/v1/ontology/vocabularies')).body.some((x: { name: string }) => x.name === v)).toBe(false);
    });
  });

  describe('PUT /v1/ontology/terms/{id}', () => {
    const put = (id: string, body: unknown, token = su.accessToken) => call(t.url, 'PUT', `/v1/ontology/terms/${id}`, { body, token });

    it('changes label, uri and metadata (current form), and search follows the new label', async () => {
      const v = vocab();
      const term = (await create({ vocabulary: v, code: 'R:1', label: 'Old label', uri: 'https://example.org/1', metadata: { a: 1 } })).body;
      const r = await put(term.id, { label: 'Nucleus accumbens shell', metadata: { b: 2 } });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: term.id, code: 'R:1', label: 'Nucleus accumbens shell', uri: 'https://example.org/1', metadata: { b: 2 } });
      expect(new Date(r.body.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(term.updated_at).getTime());
      const found = await call(t.url, 'GET', `/v1/ontology/terms?vocabulary=${v}&q=nucleus%20accumbens`);
      expect(found.body.items.map((i: { id: string }) => i.id)).toEqual([term.id]);
      expect((await call(t.url, 'GET', `/v1/ontology/terms?vocabulary=${v}&q=old%20label`)).body.total).toBe(0);
      expect((await put(term.id, { uri: null })).body.uri).toBeNull();
    });

    it('changes the description (older form)', async () => {
      const term = (await create({ vocabulary: vocab(), name: 'Striatum' })).body;
      const r = await put(term.id, { description: 'dorsal and ventral' });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ name: 'Striatum', description: 'dorsal and ventral' });
    });

    it('refuses an empty change with 400 and answers 404 for unknown or malformed ids', async () => {
      const term = (await create({ vocabulary: vocab(), code: 'E', label: 'E' })).body;
      expectError(await put(term.id, {}), 400, /nothing to update/);
      expectError(await put(term.id, { label: '  ' }), 400, /label/);
      expectError(await put('0190f3a4-5b6c-7d8e-9f00-112233445566', { label: 'x' }), 404);
      expectError(await put('nope', { label: 'x' }), 404);
    });

    it('answers 409 when a new parent would close a cycle, and 400 for a parent from another vocabulary', async () => {
      const v = vocab();
      const a = (await create({ vocabulary: v, code: 'a', label: 'A' })).body;
      const b = (await create({ vocabulary: v, code: 'b', label: 'B', parent_id: a.id })).body;
      const c = (await create({ vocabulary: v, code: 'c', label: 'C', parent_id: b.id })).body;
      expectError(await put(a.id, { parent_id: c.id }), 409, /cycle/);
      expectError(await put(a.id, { parent_id: a.id }), 409, /cycle/);
      const mouse = await termByCode('species', 'NCBITaxon:10090');
      expectError(await put(c.id, { parent_id: mouse.id }), 400, /same vocabulary/);
      // a legal move still works, and so does making a term a root
      expect((await put(c.id, { parent_id: a.id })).body.parent_id).toBe(a.id);
      expect((await put(c.id, { parent_id: null })).body.parent_id).toBeNull();
      expect((await get(a.id)).body.parent_id).toBeNull();
    });

    it('needs a SuperUser: anonymous 401, Regular 403, and nothing changes', async () => {
      const term = (await create({ vocabulary: vocab(), code: 'P', label: 'Protected' })).body;
      expectError(await call(t.url, 'PUT', `/v1/ontology/terms/${term.id}`, { body: { label: 'x' } }), 401);
      expectError(await put(term.id, { label: 'x' }, regular.accessToken), 403);
      expect((await get(term.id)).body.label).toBe('Protected');
    });
  });

  describe('DELETE /v1/ontology/terms/{id} and PATCH /v1/ontology/terms/{term_id}/deprecate', () => {
    it('deprecates: the term stays stored, readable and findable in searches and children, flagged with its replacement', async () => {
      const v = vocab();
      const parent = (await create({ vocabulary: v, code: 'p', label: 'Parent region' })).body;
      const successor = (await create({ vocabulary: v, code: 'new', label: 'Successor region', parent_id: parent.id })).body;
      const term = (await create({ vocabulary: v, code: 'old', label: 'Obsolete region', parent_id: parent.id })).body;
      const r = await call(t.url, 'DELETE', `/v1/ontology/terms/${term.id}`, { token: su.accessToken });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: term.id, status: 'deprecated', deprecated: true, replaced_by: null });
      expect(r.body.deprecated_at).toEqual(expect.any(String));
      await call(t.url, 'DELETE', `/v1/ontology/terms/${term.id}?replaced_by=${successor.id}`, { token: su.accessToken });

      expect((await get(term.id)).body).toMatchObject({ deprecated: true, label: 'Obsolete region' });
      // Spec 2.3: deprecated terms are flagged, not hidden; include_deprecated=false is the opt-out.
      const found = await call(t.url, 'GET', `/v1/ontology/terms?vocabulary=${v}&q=obsolete`);
      expect(found.body.items).toEqual([expect.objectContaining({ id: term.id, deprecated: true, status: 'deprecated', replaced_by: successor.id })]);
      expect((await call(t.url, 'GET', `/v1/ontology/terms?vocabulary=${v}&q=obsolete&include_deprecated=false`)).body.total).toBe(0);
      expect((await call(t.url, 'GET', `/v1/ontology/terms?vocabulary=${v}`)).body.total).toBe(3);
      expect((await call(t.url, 'GET', `/v1/ontology/terms?vocabulary=${v}&include_deprecated=false`)).body.total).toBe(2);
      const children = (await call(t.url, 'GET', `/v1/ontology/terms/${parent.id}/children`)).body;
      expect(children).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: successor.id, deprecated: false }),
          expect.objectContaining({ id: term.id, deprecated: true, replaced_by: successor.id }),
        ]),
      );
      expect(children).toHaveLength(2);
      expect((await call(t.url, 'GET', `/v1/ontology/terms/${parent.id}/children?include_deprecated=false`)).body).toEqual([
        expect.objectContaining({ id: successor.id }),
      ]);
      const vocabularies = (await call(t.url, 'GET', '/v1/ontology/vocabularies')).body;
      expect(vocabularies.find((x: { name: string }) => x.name === v)).toMatchObject({ term_count: 2, deprecated_count: 1 });
      // deprecating again is harmless
      expect((await call(t.url, 'DELETE', `/v1/ontology/terms/${term.id}`, { token: su.accessToken })).status).toBe(200);
    });

    it('deprecates through the older PATCH form, with no body or with a replacement', async () => {
      const v = vocab();
      const a = (await create({ vocabulary: v, code: 'a', label: 'Area A' })).body;
      const b = (await create({ vocabulary: v, code: 'b', label: 'Area B' })).body;
      const bare = await call(t.url, 'PATCH', `/v1/ontology/terms/${a.id}/deprecate`, { token: su.accessToken });
      expect(bare.status).toBe(200);
      expect(bare.body).toMatchObject({ id: a.id, deprecated: true, replaced_by: null });
      const replaced = await call(t.url, 'PATCH', `/v1/ontology/terms/${a.id}/deprecate`, { token: su.accessToken, body: { replaced_by: b.id } });
      expect(replaced.body).toMatchObject({ deprecated: true, replaced_by: b.id });
      const c = (await create({ vocabulary: v, code: 'c', label: 'Area C' })).body;
      const viaDelete = await call(t.url, 'DELETE', `/v1/ontology/terms/${c.id}?replaced_by=${b.id}`, { token: su.accessToken });
      expect(viaDelete.body).toMatchObject({ deprecated: true, replaced_by: b.id });
    });

    it('refuses a replacement that is the term itself, deprecated, unknown or in another vocabulary', async () => {
      const v = vocab();
      const a = (await create({ vocabulary: v, code: 'a', label: 'A' })).body;
      const gone = (await create({ vocabulary: v, code: 'g', label: 'G' })).body;
      await call(t.url, 'DELETE', `/v1/ontology/terms/${gone.id}`, { token: su.accessToken });
      const mouse = await termByCode('species', 'NCBITaxon:10090');
      const dep = (replacedBy: string) => call(t.url, 'PATCH', `/v1/ontology/terms/${a.id}/deprecate`, { token: su.accessToken, body: { replaced_by: replacedBy } });
      expectError(await dep(a.id), 400, /cannot replace itself/);
      expectError(await dep(gone.id), 400, /itself deprecated/);
      expectError(await dep('0190f3a4-5b6c-7d8e-9f00-112233445566'), 400, /no term/);
      expectError(await dep(mouse.id), 400, /vocabulary species/);
      expect((await get(a.id)).body.deprecated).toBe(false);
    });

    it('answers 404 for unknown or malformed ids', async () => {
      expectError(await call(t.url, 'DELETE', '/v1/ontology/terms/0190f3a4-5b6c-7d8e-9f00-112233445566', { token: su.accessToken }), 404);
      expectError(await call(t.url, 'PATCH', '/v1/ontology/terms/nope/deprecate', { token: su.accessToken }), 404);
    });

    it('needs a SuperUser in both forms: anonymous 401, Regular 403, and the term stays active', async () => {
      const term = (await create({ vocabulary: vocab(), code: 'keep', label: 'Keep me' })).body;
      expectError(await call(t.url, 'DELETE', `/v1/ontology/terms/${term.id}`), 401);
      expectError(await call(t.url, 'DELETE', `/v1/ontology/terms/${term.id}`, { token: regular.accessToken }), 403);
      expectError(await call(t.url, 'PATCH', `/v1/ontology/terms/${term.id}/deprecate`), 401);
      expectError(await call(t.url, 'PATCH', `/v1/ontology/terms/${term.id}/deprecate`, { token: regular.accessToken }), 403);
      expect((await get(term.id)).body.deprecated).toBe(false);
    });
  });

  describe('GraphQL', () => {
    it('offers the same writes as mutations, with the same access class', async () => {
      const v = vocab();
      const mutation = `mutation($input: CreateTermInput!) { createTerm(input: $input) { id code label } }`;
      const denied = await gql(t.url, mutation, { input: { vocabulary: v, code: 'g', label: 'G' } }, regular.accessToken);
      expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
      const created = await gql(t.url, mutation, { input: { vocabulary: v, code: 'g', label: 'G' } }, su.accessToken);
      expect(created.body.data.createTerm).toMatchObject({ code: 'g', label: 'G' });
      const deprecated = await gql(t.url, `mutation($id: ID!) { deprecateTerm(id: $id) { deprecated } }`, { id: created.body.data.createTerm.id }, su.accessToken);
      expect(deprecated.body.data.deprecateTerm.deprecated).toBe(true);
    });
  });
});
