import { html, raw, type SafeHtml } from './html.js';

/**
 * How the catalogue, dataset and job pages write dates, numbers and highlighted text. Dates are in UTC: the server
 * does not know the reader's time zone, so times say so.
 */

/** "3 June 2024". */
export const day = (iso: string | Date): string => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "3 June 2024, 14:05 UTC". */
export const dateTime = (iso: string | Date): string =>
  `${day(iso)}, ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })} UTC`;

/** "12,345". */
export const count = (n: number): string => n.toLocaleString('en-GB');

/** "1.2 MB": sizes in decimal units, as file managers show them. */
export function bytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = n / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toLocaleString('en-GB', { maximumFractionDigits: value < 10 ? 1 : 0 })} ${units[unit]}`;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'", '&#96;': '`' };

/**
 * A search highlight (`highlight.title`, `highlight.snippet`: escaped text with matches in `<mark>...</mark>`) as
 * safe markup. Nothing of it is trusted: the text between the marks is unescaped and escaped again, so only `<mark>`
 * and `</mark>`, balanced, survive as markup; any other tag (a remote cluster's, say) shows as text.
 */
export function highlight(marked: string): SafeHtml {
  const out: SafeHtml[] = [];
  let open = false;
  for (const piece of marked.split(/(<\/?mark>)/i)) {
    const tag = piece.toLowerCase();
    if (tag === '<mark>') {
      if (!open) out.push(raw('<mark>'));
      open = true;
    } else if (tag === '</mark>') {
      if (open) out.push(raw('</mark>'));
      open = false;
    } else if (piece) {
      out.push(html`${piece.replace(/&(?:amp|lt|gt|quot|#39|#x27|#96);/g, (e) => ENTITIES[e] ?? e)}`);
    }
  }
  if (open) out.push(raw('</mark>'));
  return html`${out}`;
}

/** A description's paragraphs (blank lines between them), each escaped. */
export function paragraphs(text: string, cls?: string): SafeHtml {
  const parts = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return html`${parts.map((p) => html`<p${cls ? html` class="${cls}"` : ''}>${p}</p>`)}`;
}
