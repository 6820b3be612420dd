import { describe, it, expect } from 'vitest';
import { parseSearchQuery, queryText, wordRuns } from './search-query.js';
import { markedToHtml } from './search.service.js';

describe('search query syntax (as websearch_to_tsquery reads it)', () => {
  it('reads words as required, quotes as phrases, or as either, and a leading minus as an exclusion', () => {
    expect(parseSearchQuery('mouse "pyramidal neurons" rat or cat -male -"left side"')).toEqual({
      must: [
        { anyOf: [{ text: 'mouse', phrase: false }] },
        { anyOf: [{ text: 'pyramidal neurons', phrase: true }] },
        { anyOf: [{ text: 'rat', phrase: false }, { text: 'cat', phrase: false }] },
      ],
      mustNot: [
        { text: 'male', phrase: false },
        { text: 'left side', phrase: true },
      ],
    });
  });

  it('never fails: an unclosed quote runs to the end, a lone or and a lone minus are words', () => {
    expect(parseSearchQuery('"nerve ring').must).toEqual([{ anyOf: [{ text: 'nerve ring', phrase: true }] }]);
    expect(parseSearchQuery('or mouse').must.map((c) => c.anyOf[0].text)).toEqual(['or', 'mouse']);
    expect(parseSearchQuery('mouse or').must.map((c) => c.anyOf[0].text)).toEqual(['mouse', 'or']);
    expect(parseSearchQuery('a - b').must.map((c) => c.anyOf[0].text)).toEqual(['a', '-', 'b']);
    expect(parseSearchQuery('   ')).toEqual({ must: [], mustNot: [] });
    expect(parseSearchQuery('""').must).toEqual([]);
  });

  it('writes a query back the way it reads it, and finds runs of plain words for multi-word names', () => {
    const q = parseSearchQuery('C. elegans "nerve ring" worm or fly -male');
    expect(queryText(q)).toBe('C. elegans "nerve ring" worm or fly -male');
    expect(wordRuns(q)).toEqual([[0, 1]]);
    expect(wordRuns(parseSearchQuery('mouse barrel field "x" a b c'))).toEqual([
      [0, 1, 2],
      [4, 5, 6],
    ]);
  });
});

describe('highlights', () => {
  it('escapes the text for HTML and marks only the matches', () => {
    expect(markedToHtml('<b>\u0001Müller\u0002</b> & "cells"')).toBe('&lt;b&gt;<mark>Müller</mark>&lt;/b&gt; &amp; &quot;cells&quot;');
  });
});
