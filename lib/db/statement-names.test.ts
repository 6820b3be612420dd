import { describe, it, expect } from 'vitest';
import { StatementNames } from './statement-names.js';

describe(StatementNames.name, () => {
  it('names a parameterised statement from its second use, with the same name every time', () => {
    const names = new StatementNames();
    const args = [{ text: 'SELECT $1' }, [1]];
    expect(names.name(args)).toBe(args);
    const second = names.name([{ text: 'SELECT $1' }, [2]]);
    expect(second).toEqual([{ text: 'SELECT $1', name: expect.stringMatching(/^s[0-9a-f]{32}$/) }, [2]]);
    expect(names.name([{ text: 'SELECT $1', values: [3] }])).toEqual([{ text: 'SELECT $1', values: [3], name: (second[0] as { name: string }).name }]);
    expect(new StatementNames().nameFor('SELECT $1')).toBeUndefined();
  });

  it('leaves statements without parameters, with a name of their own, or as plain strings as they are', () => {
    const names = new StatementNames();
    for (let i = 0; i < 3; i++) {
      expect(names.name([{ text: 'BEGIN; SELECT 1' }])).toEqual([{ text: 'BEGIN; SELECT 1' }]);
      expect(names.name([{ text: 'SELECT 1' }, []])).toEqual([{ text: 'SELECT 1' }, []]);
      expect(names.name([{ text: 'SELECT $1', name: 'mine' }, [1]])).toEqual([{ text: 'SELECT $1', name: 'mine' }, [1]]);
      expect(names.name(['SELECT $1', [1]])).toEqual(['SELECT $1', [1]]);
    }
  });

  it('names at most its bound of texts; the rest keep running unnamed', () => {
    const names = new StatementNames(2);
    const named = (text: string) => names.nameFor(text) ?? names.nameFor(text);
    expect(named('a')).toBeDefined();
    expect(named('b')).toBeDefined();
    expect(named('c')).toBeUndefined();
    expect(names.nameFor('a')).toBeDefined();
  });
});
