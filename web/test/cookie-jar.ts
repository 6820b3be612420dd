/** A browser's cookie jar, reduced to what the tests need: name -> value, updated from Set-Cookie. */
export class Jar {
  readonly cookies = new Map<string, string>();
  constructor(initial: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(initial)) this.cookies.set(k, v);
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(res: Response): Response {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      // Cookies scoped to another path (a flow's) do not come back to the pages.
      if (attrs.some((a) => /^\s*path=/i.test(a) && a.split('=')[1]!.trim() !== '/')) continue;
      if (attrs.some((a) => /^\s*max-age=0$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, pair!.slice(eq + 1).trim());
    }
    return res;
  }
}
