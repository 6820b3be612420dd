import { describe, it, expect } from 'vitest';
import { escapeHtml, html, jsonScript, raw } from './html.js';

describe('html', () => {
  it('escapes every interpolated value, in text and in quoted attributes', () => {
    const title = `<script>alert("x")</script> & 'quoted' \`tick\``;
    expect(html`<p title="${title}">${title}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39; &#96;tick&#96;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39; &#96;tick&#96;</p>',
    );
  });

  it('keeps markup made by html or wrapped in raw, joins arrays and leaves out null, undefined and false', () => {
    const items = ['a<b', 'c'].map((x) => html`<li>${x}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${raw('<hr>')}${0}`.value).toBe('<ul><li>a&lt;b</li><li>c</li></ul><hr>0');
    expect(escapeHtml('plain')).toBe('plain');
  });

  it('embeds JSON whose strings cannot end the script element', () => {
    const block = jsonScript({ name: 'Dataset </script><script>alert(1)</script> <!-- x', note: 'a\u2028b' }).value;
    expect(block.startsWith('<script type="application/ld+json">')).toBe(true);
    expect(block.match(/<\/script>/g)).toHaveLength(1);
    expect(block).not.toContain('<!--');
    expect(JSON.parse(block.slice(block.indexOf('>') + 1, block.lastIndexOf('</script>')))).toEqual({ name: 'Dataset </script><script>alert(1)</script> <!-- x', note: 'a\u2028b' });
  });
});
