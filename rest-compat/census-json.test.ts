import { describe, it, expect } from 'vitest';
import { TRIAD_CODES } from '../domain/triad-codes.js';
import { buildSchema, parse } from 'graphql';
import { censusJson, selectsTriadCensus } from './census-json.js';

const CODES = TRIAD_CODES;

describe('triad censuses in REST answers', () => {
  it('are written in the standard order, whatever order JavaScript gave their keys', () => {
    const census = Object.fromEntries(CODES.map((c, i) => [c, i * 1000 + 0.5]));
    const z = Object.fromEntries(CODES.map((c, i) => [c, i % 3 ? -i * 1.5e-3 : null]));
    const answer = { triadic_census: census, null_model: { z }, per_node: [{ neuron_id: 'AVAL', census, at: new Date(0), skipped: undefined }] };
    const text = JSON.stringify(answer);
    expect(text.indexOf('"102"')).toBeLessThan(text.indexOf('"003"'));
    const out = censusJson(answer)!;
    expect(JSON.parse(out)).toEqual(JSON.parse(text));
    const keys = [...out.matchAll(/"(\d{3}[CDTU]?)":/g)].map((m) => m[1]);
    expect(keys).toEqual([...CODES, ...CODES, ...CODES]);
  });

  it('writes everything else as JSON.stringify does', () => {
    for (const value of [{ '102': 1, '003': 2, name: 'x', nested: [1, 'a', null, { b: true }] }, [], 'text "quoted"', 1.5e-7, null, { f: undefined, g: () => 1 }]) {
      expect(censusJson(value)).toBe(JSON.stringify(value));
    }
    expect(censusJson(undefined)).toBeUndefined();
  });

  it('are looked for only in answers that can hold one', () => {
    const schema = buildSchema(`
      scalar TriadCounts
      scalar JSON
      type Motifs { triadic_census: TriadCounts!, nodes: Int! }
      type Job { result: JSON }
      type Check { input: String!, status: String! }
      type Query { motifs: Motifs!, job: Job, validate: [Check!]! }
    `);
    expect(selectsTriadCensus(schema, parse('{ motifs { nodes triadic_census } }'))).toBe(true);
    expect(selectsTriadCensus(schema, parse('{ job { ...j } } fragment j on Job { result }'))).toBe(true);
    expect(selectsTriadCensus(schema, parse('{ motifs { nodes } validate { input status } }'))).toBe(false);
  });
});
