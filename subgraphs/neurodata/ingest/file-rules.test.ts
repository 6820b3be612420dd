import { describe, it, expect } from 'vitest';
import { badInputMessage } from '../../../test/kit/expect.js';
import { checkCsvEncoding, checkFileName } from './file-rules.js';

const TABLE = 'neuron_id,cell_class\nADAL,interneuron\n';
const ADVICE = 'save it as UTF-8 (in a spreadsheet program: CSV UTF-8)';

describe(checkFileName.name, () => {
  it('keeps an ordinary name, trimmed, in any script', () => {
    expect(checkFileName('  neurons.csv ')).toBe('neurons.csv');
    expect(checkFileName('نورونات.csv')).toBe('نورونات.csv');
    expect(checkFileName('细胞 (v2).swc')).toBe('细胞 (v2).swc');
  });

  it('refuses every bidirectional control character, naming it', () => {
    for (const c of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c]) {
      const name = `report${String.fromCodePoint(c)}vsc.exe`;
      const code = c.toString(16).toUpperCase().padStart(4, '0');
      expect(badInputMessage(() => checkFileName(name))).toBe(
        `filename: contains the bidirectional control character U+${code}, which makes a name display differently from what it is; rename the file without it`,
      );
    }
  });

  it('refuses an empty name, slashes and line breaks', () => {
    for (const name of ['', '   ', 'a/b.csv', 'a\\b.csv', 'a\nb.csv', 'x'.repeat(201)]) {
      expect(badInputMessage(() => checkFileName(name))).toBe('filename: 1 to 200 characters, without / \\ or control characters');
    }
  });
});

describe(checkCsvEncoding.name, () => {
  const utf16le = (text: string, bom = true) => Buffer.concat([Buffer.from(bom ? [0xff, 0xfe] : []), Buffer.from(text, 'utf16le')]);
  const utf16be = (text: string) => {
    const le = Buffer.from(text, 'utf16le');
    return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(le).swap16()]);
  };

  it('accepts UTF-8, with or without its byte order mark', () => {
    expect(() => checkCsvEncoding('neurons.csv', Buffer.from(TABLE))).not.toThrow();
    expect(() => checkCsvEncoding('neurons.csv', Buffer.from(`\ufeff${TABLE}é,ü\n`))).not.toThrow();
  });

  it('names UTF-16 and UTF-32 by their byte order marks', () => {
    expect(badInputMessage(() => checkCsvEncoding('neurons.csv', utf16le(TABLE)))).toBe(`neurons.csv: the file is UTF-16LE text (byte order mark FF FE), not UTF-8; ${ADVICE}`);
    expect(badInputMessage(() => checkCsvEncoding('neurons.csv', utf16be(TABLE)))).toBe(`neurons.csv: the file is UTF-16BE text (byte order mark FE FF), not UTF-8; ${ADVICE}`);
    const utf32le = Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.from(TABLE.split('').flatMap((c) => [c.charCodeAt(0), 0, 0, 0]))]);
    expect(badInputMessage(() => checkCsvEncoding('neurons.csv', utf32le))).toBe(`neurons.csv: the file is UTF-32LE text (byte order mark FF FE 00 00), not UTF-8; ${ADVICE}`);
    const utf32be = Buffer.concat([Buffer.from([0, 0, 0xfe, 0xff]), Buffer.from(TABLE.split('').flatMap((c) => [0, 0, 0, c.charCodeAt(0)]))]);
    expect(badInputMessage(() => checkCsvEncoding('neurons.csv', utf32be))).toBe(`neurons.csv: the file is UTF-32BE text (byte order mark 00 00 FE FF), not UTF-8; ${ADVICE}`);
  });

  it('recognises UTF-16 without a byte order mark by its NUL bytes', () => {
    expect(badInputMessage(() => checkCsvEncoding('neurons.csv', utf16le(TABLE, false)))).toBe(`neurons.csv: the file holds NUL bytes (UTF-16LE text without a byte order mark), not UTF-8 text; ${ADVICE}`);
  });

  it('names the first byte that is not UTF-8 and its line', () => {
    const latin1 = Buffer.concat([Buffer.from('neuron_id,name\nA,ok\nB,caf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    expect(badInputMessage(() => checkCsvEncoding('neurons.csv', latin1))).toBe(`neurons.csv line 3: byte E9 is not UTF-8 (the file looks like Latin-1 or Windows-1252 text); ${ADVICE}`);
    // An encoded surrogate is not UTF-8 either.
    expect(badInputMessage(() => checkCsvEncoding('n.csv', Buffer.from([0x61, 0x0a, 0xed, 0xa0, 0x80])))).toMatch(/^n\.csv line 2: byte ED is not UTF-8/);
  });
});
