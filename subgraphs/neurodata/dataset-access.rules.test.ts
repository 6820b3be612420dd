import { describe, expect, it } from 'vitest';
import { decideAccess, parseDatasetRef, slugFromTitle } from './dataset-access.rules.js';

const owner = '00000000-0000-7000-8000-000000000001';
const maint = '00000000-0000-7000-8000-000000000002';
const other = '00000000-0000-7000-8000-000000000003';
const d = (visibility: 'public' | 'restricted', status: 'draft' | 'published') => ({ ownerId: owner, maintainerIds: [maint], visibility, status });

describe('decideAccess', () => {
  it('hides an unpublished draft from everyone but its owner, maintainers and SuperUsers', () => {
    expect(decideAccess({ id: other, superuser: false }, d('public', 'draft'), null).canSeeMetadata).toBe(false);
    expect(decideAccess({ id: maint, superuser: false }, d('public', 'draft'), null)).toMatchObject({ role: 'maintainer', canModify: true, canAdminister: false });
    expect(decideAccess({ id: other, superuser: true }, d('restricted', 'draft'), null)).toMatchObject({ role: 'superuser', canAdminister: true });
  });
  it('shows a restricted dataset\'s metadata but not its data until a request is approved', () => {
    expect(decideAccess({ id: other, superuser: false }, d('restricted', 'published'), null)).toMatchObject({ canSeeMetadata: true, canReadData: false });
    expect(decideAccess({ id: other, superuser: false }, d('restricted', 'published'), 'pending').canReadData).toBe(false);
    expect(decideAccess({ id: other, superuser: false }, d('restricted', 'published'), 'approved')).toMatchObject({ role: 'granted', canReadData: true, canModify: false });
  });
  it('opens a public published dataset\'s data to every caller', () => {
    expect(decideAccess({ id: other, superuser: false }, d('public', 'published'), null)).toMatchObject({ role: 'reader', canReadData: true, canModify: false });
  });
});

describe('parseDatasetRef', () => {
  it('reads slugs and ids with or without a version', () => {
    expect(parseDatasetRef('celegans_varshney_2011')).toEqual({ dataset: 'celegans_varshney_2011', selector: { kind: 'latest' } });
    expect(parseDatasetRef('x_y@v3')).toEqual({ dataset: 'x_y', selector: { kind: 'number', version: 3 } });
    expect(parseDatasetRef('x_y@2')).toEqual({ dataset: 'x_y', selector: { kind: 'number', version: 2 } });
    expect(parseDatasetRef('x_y@draft').selector).toEqual({ kind: 'draft' });
    expect(parseDatasetRef('x_y', 'v4').selector).toEqual({ kind: 'number', version: 4 });
  });
  it('names the problem of a bad version', () => {
    expect(() => parseDatasetRef('x@v0')).toThrow(/not a version/);
    expect(() => parseDatasetRef('x@newest')).toThrow(/latest, draft, v1/);
    expect(() => parseDatasetRef('@v1')).toThrow(/names no dataset/);
  });
});

describe('slugFromTitle', () => {
  it('makes a readable slug', () => {
    expect(slugFromTitle('C. elegans Connectome (Cook 2019) — männlich')).toBe('c_elegans_connectome_cook_2019_mannlich');
  });
});
