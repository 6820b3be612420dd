import { describe, expect, it } from 'vitest';
import { bytes, highlight, paragraphs } from './format.js';

describe('highlight', () => {
  it('keeps the marks of a search highlight and the escaped text as it was', () => {
    expect(highlight('<mark>Connectome</mark> of C. elegans &amp; friends').value).toBe('<mark>Connectome</mark> of C. elegans &amp; friends');
    expect(highlight('a &lt;b&gt; &quot;c&quot; &#39;d&#39;').value).toBe('a &lt;b&gt; &quot;c&quot; &#39;d&#39;');
  });

  it('shows any other markup as text, and balances the marks', () => {
    expect(highlight('<script>alert(1)</script> <mark>x').value).toBe('&lt;script&gt;alert(1)&lt;/script&gt; <mark>x</mark>');
    expect(highlight('</mark>a<mark><mark>b</mark></mark>').value).toBe('a<mark>b</mark>');
    expect(highlight('<img src=x onerror=alert(1)>').value).toBe('&lt;img src=x onerror=alert(1)&gt;');
    // A double-escaped entity stays one level escaped: text, never markup.
    expect(highlight('&amp;lt;script&amp;gt;').value).toBe('&amp;lt;script&amp;gt;');
  });
});

describe('paragraphs and sizes', () => {
  it('splits a description on blank lines, escaping each paragraph', () => {
    expect(paragraphs('One <b>\n\n\nTwo').value).toBe('<p>One &lt;b&gt;</p><p>Two</p>');
  });

  it('writes sizes in decimal units', () => {
    expect([bytes(82), bytes(1_234), bytes(12_345_678), bytes(3e12)]).toEqual(['82 B', '1.2 kB', '12 MB', '3 TB']);
  });
});
