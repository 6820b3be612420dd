import { describe, it, expect } from 'vitest';
import { ch, ident, inline, join, typed, bindValues } from './sql.js';

describe('ch tagged SQL', () => {
  it('turns every value into a typed placeholder and never into text', () => {
    const q = ch`SELECT * FROM ${ident('synapses')} WHERE pre = ${'AVAL'} AND weight > ${2} AND w < ${0.5}`;
    expect(q.sql).toBe('SELECT * FROM synapses WHERE pre = {p0:String} AND weight > {p1:Int64} AND w < {p2:Float64}');
    expect(bindValues(q)).toEqual({ p0: 'AVAL', p1: 2, p2: 0.5 });
  });

  it('renumbers parameters of nested fragments without clashing', () => {
    const inner = ch`a = ${1} AND b = ${'x'}`;
    const q = ch`SELECT ${2} WHERE ${inner} OR ${join([ch`c = ${3}`, ch`d = ${4}`], ' OR ')}`;
    expect(q.sql).toBe('SELECT {p0:Int64} WHERE a = {p1:Int64} AND b = {p2:String} OR c = {p3:Int64} OR d = {p4:Int64}');
    expect(Object.values(q.params).map((p) => p.value)).toEqual([2, 1, 'x', 3, 4]);
  });

  it('inlines values as escaped literals for servers without query parameters', () => {
    const q = ch`SELECT ${"x' OR 1=1 --"}, ${'back\\slash'}, ${typed(7, 'UInt32')}, ${['a', "b'"]}`;
    expect(inline(q)).toBe("SELECT 'x\\' OR 1=1 --', 'back\\\\slash', toUInt32(7), ['a', 'b\\'']");
  });

  it('refuses identifiers that are not plain names', () => {
    expect(() => ident('t; DROP TABLE x')).toThrow(/invalid ClickHouse identifier/);
    expect(ident('db.table').text).toBe('db.table');
  });

  it('refuses non-finite numbers', () => {
    expect(() => ch`SELECT ${Number.NaN}`).toThrow(/non-finite/);
  });
});
