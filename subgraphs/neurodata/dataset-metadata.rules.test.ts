import { describe, expect, it } from 'vitest';
import { BadInput } from '../../lib/errors.js';
import { checkCreators } from './dataset-metadata.rules.js';

describe('checkCreators', () => {
  it('keeps the kind given, and reads it from the name when none is given', () => {
    expect(
      checkCreators([
        { name: 'NeuroMorpho.Org', kind: 'organization' },
        { name: 'Ada Group', kind: 'Person' },
        { name: 'Allen Institute for Brain Science' },
        { name: 'NeuroMorpho.Org' },
        { name: 'Ada Lovelace', orcid: '0000-0002-1825-0097' },
      ]).map((c) => [c.name, c.kind]),
    ).toEqual([
      ['NeuroMorpho.Org', 'organization'],
      ['Ada Group', 'person'],
      ['Allen Institute for Brain Science', 'organization'],
      ['NeuroMorpho.Org', 'organization'],
      ['Ada Lovelace', 'person'],
    ]);
  });

  it('refuses an unknown kind, naming the accepted ones, and an ORCID iD on an organization', () => {
    expect(() => checkCreators([{ name: 'X', kind: 'robot' }])).toThrow(BadInput);
    expect(() => checkCreators([{ name: 'X', kind: 'robot' }])).toThrow(/creators\[0\]\.kind: .*person, organization/);
    expect(() => checkCreators([{ name: 'X', kind: 'organization', orcid: '0000-0002-1825-0097' }])).toThrow(/creators\[0\]\.orcid/);
  });
});
