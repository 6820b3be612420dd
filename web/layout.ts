import type { Flash } from '../rest-compat/browser-cookies.js';
import { assetUrl } from './assets.js';
import { CSRF_FIELD } from './csrf.js';
import { html, type SafeHtml } from './html.js';

/**
 * One link of the header's navigation; `signedIn` entries are shown to signed-in browsers only, `superUser` entries
 * to SuperUsers only.
 */
export interface NavEntry {
  href: string;
  label: string;
  signedIn?: boolean;
  superUser?: boolean;
}

/** What the shell of every page needs to know about the request. */
export interface PageFrame {
  /** The path of the page, which marks its navigation entry as current. */
  path: string;
  signedIn: boolean;
  /** Whether the session's token claims a SuperUser (it shows the administration's entries). */
  superUser: boolean;
  csrf: string;
  flash: Flash | null;
  nav: readonly NavEntry[];
  /** Whether /docs and /graphql serve their pages (API_DOCS). */
  apiDocs: boolean;
}

export interface PageContent {
  title: string;
  body: SafeHtml;
  /** Scripts of web/assets/ the page needs beyond site.js. */
  scripts?: string[];
  /** Extra elements for <head> (a JSON-LD data block). */
  head?: SafeHtml;
}

/** The hidden field every state-changing form carries. */
export const csrfField = (csrf: string): SafeHtml => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;

/**
 * The page shell: language, viewport, a skip link to the main content, the header's navigation, the flash message
 * (role=status for a success, role=alert for a failure), the page, and a footer pointing at the API's own pages.
 */
export function layout(frame: PageFrame, content: PageContent): SafeHtml {
  const nav = frame.nav.filter((entry) => (!entry.signedIn || frame.signedIn) && (!entry.superUser || frame.superUser));
  const isCurrent = (href: string) => frame.path === href || frame.path.startsWith(`${href}/`);
  const scripts = ['site.js', ...(content.scripts ?? [])];
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${content.title} · Neurodata</title>
<link rel="icon" href="${assetUrl('icon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${assetUrl('site.css')}">
${scripts.map((name) => html`<script src="${assetUrl(name)}" defer></script>\n`)}${content.head ?? ''}
</head>
<body>
<a class="skip-link" href="#main">Skip to main content</a>
<header class="site-header">
  <div class="wrap header-row">
    <span class="brand">Neurodata</span>
    <nav aria-label="Main">
      <ul class="nav-list">
        ${nav.map((entry) => html`<li><a href="${entry.href}"${isCurrent(entry.href) ? html` aria-current="page"` : ''}>${entry.label}</a></li>`)}
        ${
          frame.signedIn
            ? html`<li><form method="post" action="/sign-out" class="inline-form">${csrfField(frame.csrf)}<button type="submit" class="link-button">Sign out</button></form></li>`
            : html`<li><a href="/sign-in"${isCurrent('/sign-in') ? html` aria-current="page"` : ''}>Sign in</a></li>`
        }
      </ul>
    </nav>
  </div>
</header>
<main id="main" tabindex="-1" class="wrap">
${flashRegion(frame.flash)}
${content.body}
</main>
<footer class="site-footer">
  <div class="wrap">
    <p>Programs and scripts use the API:${
      frame.apiDocs ? html` <a href="/docs">REST API reference</a> · <a href="/graphql">GraphQL explorer</a>` : html` <code>/v1</code> and <code>/graphql</code>`
    }.</p>
  </div>
</footer>
</body>
</html>
`;
}

/** The flash message's live region; always present, so assistive technology announces what appears in it. */
function flashRegion(flash: Flash | null): SafeHtml {
  if (flash?.kind === 'alert') return html`<div class="flash flash-alert" role="alert"><p>${flash.message}</p></div>`;
  return html`<div class="flash${flash ? ' flash-status' : ''}" role="status">${flash ? html`<p>${flash.message}</p>` : ''}</div>`;
}
