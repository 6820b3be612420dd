import { describe, it, expect } from 'vitest';
import { attachmentDisposition } from './objects.js';

describe('attachmentDisposition', () => {
  it('names the file in ASCII and exactly in RFC 5987 form', () => {
    expect(attachmentDisposition('neuron 1.swc')).toBe(`attachment; filename="neuron 1.swc"; filename*=UTF-8''neuron%201.swc`);
    expect(attachmentDisposition('Gehirn ä.nrrd')).toBe(`attachment; filename="Gehirn _.nrrd"; filename*=UTF-8''Gehirn%20%C3%A4.nrrd`);
  });

  it('cannot be broken out of: quotes, line breaks and path separators are replaced', () => {
    const header = attachmentDisposition('a"b\r\nSet-Cookie: x=1/../c\\d.swc');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toBe(`attachment; filename="a'b__Set-Cookie: x=1_.._c_d.swc"; filename*=UTF-8''a%22b__Set-Cookie%3A%20x%3D1_.._c_d.swc`);
  });

  it('keeps long and unusual names encodable', () => {
    expect(attachmentDisposition('')).toContain('filename="download"');
    expect(attachmentDisposition('\uD800x.swc')).toContain(`filename*=UTF-8''_x.swc`);
    const long = attachmentDisposition('🧠'.repeat(300));
    expect(long).toContain(`filename*=UTF-8''${encodeURIComponent('🧠'.repeat(255))}`);
  });
});
