const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

/**
 * JSON text that stays one string when pasted into an HTML `<script>` element (the way JSON-LD is published): a
 * value's `</script>` or `<!--` would end or confuse the element, and U+2028/U+2029 end a line in older JavaScript.
 * The escapes are plain JSON, so parsers read the same value.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE_IN_SCRIPT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
