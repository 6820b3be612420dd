import { scriptSafeJson } from '../lib/script-safe-json.js';

/**
 * Markup that is already safe to put into a page: made by the `html` tag (whose values are escaped) or wrapped on
 * purpose with `raw()`. Anything else interpolated into `html` is text and gets escaped.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Trusted markup, used as it is. Only for constant strings or markup built by `html`. */
export const raw = (markup: string): SafeHtml => new SafeHtml(markup);

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Text made safe for element content and for quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

/** One interpolated value: SafeHtml as it is, arrays joined, null/undefined/false as nothing, anything else escaped. */
function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * The templates of every page: `html\`<p>${title}</p>\`` escapes `title`. Attribute values must be quoted in the
 * template (`href="${url}"`), since escaping cannot make an unquoted attribute safe.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

/**
 * A JSON data block (JSON-LD, or data a page's script reads): the JSON cannot end the element, whatever a value
 * holds (a dataset title may contain `</script>`). A data block is not executed, so the pages' script-src allows it.
 */
export function jsonScript(value: unknown, type = 'application/ld+json'): SafeHtml {
  return html`<script type="${type}">${raw(scriptSafeJson(value))}</script>`;
}
