import { isUtf8 } from 'node:buffer';
import { BadInput } from '../../../lib/errors.js';

// What an uploaded file's name and bytes must be before anything reads them as a table.

const FILENAME = /^[^/\\\0\r\n]{1,200}$/;
/**
 * Unicode's bidirectional controls (embeddings, overrides, isolates, the marks): in a file name they make it read
 * differently from what it is (`report\u202Efdp.exe` shows as `reportexe.pdf`).
 */
const BIDI_CONTROL = /[\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/u;

/** The trimmed file name, or BadInput naming what is wrong with it. */
export function checkFileName(raw: string): string {
  const filename = (raw ?? '').trim();
  if (!FILENAME.test(filename)) throw new BadInput('filename: 1 to 200 characters, without / \\ or control characters');
  const bidi = BIDI_CONTROL.exec(filename);
  if (bidi) {
    const code = bidi[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw new BadInput(`filename: contains the bidirectional control character U+${code}, which makes a name display differently from what it is; rename the file without it`);
  }
  return filename;
}

const BOMS: { bytes: number[]; name: string }[] = [
  // UTF-32LE before UTF-16LE: its mark begins with UTF-16LE's.
  { bytes: [0xff, 0xfe, 0x00, 0x00], name: 'UTF-32LE' },
  { bytes: [0x00, 0x00, 0xfe, 0xff], name: 'UTF-32BE' },
  { bytes: [0xff, 0xfe], name: 'UTF-16LE' },
  { bytes: [0xfe, 0xff], name: 'UTF-16BE' },
];

const hex = (bytes: ArrayLike<number>) => Array.from(bytes, (b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');

/** Offset of the first byte that does not begin or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i];
    const n = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0) return i;
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
    }
    // Overlong forms, surrogates and code points past U+10FFFF.
    if ((c === 0xe0 && b[i + 1] < 0xa0) || (c === 0xed && b[i + 1] > 0x9f) || (c === 0xf0 && b[i + 1] < 0x90) || (c === 0xf4 && b[i + 1] > 0x8f)) return i;
    i += n + 1;
  }
  return -1;
}

function lineAt(b: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = b.indexOf(0x0a); i >= 0 && i < offset; i = b.indexOf(0x0a, i + 1)) line++;
  return line;
}

/**
 * BadInput naming the encoding of a CSV file that is not UTF-8 text: a UTF-16 or UTF-32 byte order mark, UTF-16
 * without one (NUL bytes between the characters of ASCII text), or bytes that are not UTF-8 (the first is named
 * with its line: Latin-1 and Windows-1252 files look like that). Tables are read as UTF-8, so anything else would
 * be stored unread or read as garbage.
 */
export function checkCsvEncoding(filename: string, body: Uint8Array): void {
  const advice = 'save it as UTF-8 (in a spreadsheet program: CSV UTF-8)';
  for (const bom of BOMS) {
    if (bom.bytes.every((v, i) => body[i] === v)) throw new BadInput(`${filename}: the file is ${bom.name} text (byte order mark ${hex(bom.bytes)}), not UTF-8; ${advice}`);
  }
  const head = body.subarray(0, 4096);
  const nul = head.indexOf(0);
  if (nul >= 0) {
    const even = head.filter((v, i) => i % 2 === 0 && v === 0).length;
    const odd = head.filter((v, i) => i % 2 === 1 && v === 0).length;
    const guess = odd > head.length / 4 ? 'UTF-16LE text without a byte order mark' : even > head.length / 4 ? 'UTF-16BE text without a byte order mark' : 'binary data';
    throw new BadInput(`${filename}: the file holds NUL bytes (${guess}), not UTF-8 text; ${advice}`);
  }
  if (isUtf8(body)) return;
  const at = Math.max(0, firstInvalidUtf8(body));
  throw new BadInput(
    `${filename} line ${lineAt(body, at)}: byte ${hex([body[at]])} is not UTF-8 (the file looks like Latin-1 or Windows-1252 text); ${advice}`,
  );
}
