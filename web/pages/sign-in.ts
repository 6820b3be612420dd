import { PROVIDER_NAMES } from '../../lib/auth/provider-names.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SOCIAL_PROVIDERS, type SocialProviderName } from '../../lib/config.js';
import { cookieOf, sameSitePath, serializeCookie } from '../../rest-compat/browser-cookies.js';
import { errorSummary, errorsFromMessage, field, hasErrors, noErrors, postForm, type FormErrors } from '../forms.js';
import { html } from '../html.js';
import { errorOf, stateOf, type WebKit, type WebPage } from '../kit.js';
import { clearedSessionCookies, sessionCookies } from '../session.js';


/**
 * Set when this site's sign-in page starts a social sign-in, read by /sign-in/complete: a login_code reaching a
 * browser that did not start a sign-in here (a link someone sent, to sign the victim in to the sender's account) is
 * refused. Scoped to that path and timed like the flow.
 */
const PENDING_COOKIE = 'nd_sign_in';
const PENDING_PATH = '/sign-in/complete';
const PENDING_MAX_AGE_SEC = 600;

const LABELS = { email: 'Email address', password: 'Password' };

/** `/sign-in` (password and the configured social providers), its social hop and return page, and `/sign-out`. */
export const signInPage: WebPage = {
  routes(scope, kit) {
    const social = socialProvidersOf(kit);

    scope.get('/sign-in', async (request, reply) => {
      const next = nextOf((request.query as { next?: string }).next);
      if (stateOf(request).session.accessToken) return reply.redirect(next, 303);
      return renderSignIn(kit, request, reply, { email: '', next }, noErrors(), social);
    });

    scope.post('/sign-in', async (request, reply) => {
      const form = request.body as Record<string, string | undefined>;
      const email = (form.email ?? '').trim();
      const password = form.password ?? '';
      const next = nextOf(form.next);
      const errors = noErrors();
      if (!email) errors.fields.email = 'enter your email address';
      if (!password) errors.fields.password = 'enter your password';
      if (errors.fields.email || errors.fields.password) return renderSignIn(kit, request, reply, { email, next }, errors, social, 400);
      const result = await kit.runAnonymous(request, 'login', {
        email,
        password,
      });
      const error = result.errors?.[0];
      if (error) {
        const { status, message } = errorOf(request, error, 'sign-in failed');
        // A wrong email and a wrong password get the same answer (docs/identity.md); the password is what to retype.
        const failed: FormErrors = status === 401 ? { fields: { password: message } } : status === 400 ? errorsFromMessage(message, { email: 'email', password: 'password' }) : { fields: {}, form: message };
        return renderSignIn(kit, request, reply, { email, next }, failed, social, status);
      }
      reply.header('set-cookie', sessionCookies(result.data!.login, kit.secureCookies));
      return kit.redirectWithFlash(reply, next, { kind: 'status', message: 'You are signed in.' });
    });

    // A social sign-in starts here, so the return page knows this browser asked for it.
    scope.get('/sign-in/with/:provider', async (request, reply) => {
      const provider = (request.params as { provider: string }).provider as SocialProviderName;
      if (!social.includes(provider)) return reply.callNotFound();
      reply.header('set-cookie', serializeCookie(PENDING_COOKIE, '1', { path: PENDING_PATH, maxAgeSec: PENDING_MAX_AGE_SEC, secure: kit.secureCookies }));
      return reply.redirect(`/v1/user/authenticate/${provider}/login`, 302);
    });

    // LOGIN_RETURN_URL=<PUBLIC_URL>/sign-in/complete: a redirect-mode social sign-in ends here with its login_code.
    scope.get('/sign-in/complete', { config: { credentialQueryParams: ['login_code'] } }, async (request, reply) => {
      const code = (request.query as { login_code?: string }).login_code;
      const started = cookieOf(request, PENDING_COOKIE) !== null;
      reply.header('set-cookie', serializeCookie(PENDING_COOKIE, '', { path: PENDING_PATH, maxAgeSec: 0, secure: kit.secureCookies }));
      // The code is single-use and short-lived, but it is in this URL: nothing may keep or forward the page.
      reply.header('referrer-policy', 'no-referrer');
      if (!code || !started) {
        return kit.render(
          request,
          reply,
          {
            title: 'Sign-in not completed',
            body: html`<h1>Sign-in not completed</h1>
<p>${code ? 'This sign-in was not started in this browser (or it took longer than 10 minutes).' : 'This page needs the code a sign-in provider sends back.'} Nothing was changed.</p>
<p><a href="/sign-in">Start again from the sign-in page</a>.</p>`,
          },
          400,
        );
      }
      const result = await kit.runAnonymous(
        request,
        'exchangeLoginCode',
        { login_code: code },
      );
      const error = result.errors?.[0];
      if (error) {
        const { status, message } = errorOf(request, error, 'login code exchange failed');
        return kit.render(request, reply, { title: 'Sign-in not completed', body: html`<h1>Sign-in not completed</h1><p>${message}</p><p><a href="/sign-in">Start again from the sign-in page</a>.</p>` }, status);
      }
      const session = result.data!.exchangeLoginCode;
      reply.header('set-cookie', sessionCookies(session, kit.secureCookies));
      const via = PROVIDER_NAMES[session.provider as SocialProviderName]?.name ?? session.provider;
      return kit.redirectWithFlash(reply, '/account', {
        kind: 'status',
        message: session.account_created ? `Your account was created with ${via}, and you are signed in.` : `You are signed in with ${via}.`,
      });
    });

    scope.post('/sign-out', async (request, reply) => {
      const refreshToken = stateOf(request).session.refreshToken;
      if (refreshToken) {
        const result = await kit.runAnonymous(request, 'logout', { refresh_token: refreshToken });
        // An expired or already revoked token leaves nothing to revoke; the cookies go all the same.
        if (result.errors?.[0]) request.log.info({ code: result.errors[0].extensions?.code }, 'sign-out found no live session');
      }
      reply.header('set-cookie', clearedSessionCookies(kit.secureCookies));
      return kit.redirectWithFlash(reply, '/sign-in', { kind: 'status', message: 'You are signed out.' });
    });
  },
};

/**
 * The social providers whose buttons the sign-in page shows: configured ones, when their sign-in comes back to
 * this site (LOGIN_RETURN_URL is this service's /sign-in/complete); another front end's return URL is its own.
 */
function socialProvidersOf(kit: WebKit): SocialProviderName[] {
  const { publicUrl, returnUrl, providers } = kit.config.login;
  if (!publicUrl || !returnUrl) return [];
  const target = new URL(returnUrl);
  if (target.origin !== new URL(publicUrl).origin || target.pathname !== PENDING_PATH) return [];
  return SOCIAL_PROVIDERS.filter((p) => providers[p]);
}

/**
 * Where to go after signing in: a path of this site, encoded for the Location header, the account page by default.
 * Decided before the login is made, so a login is never made that its redirect could not deliver.
 */
export function nextOf(value: string | undefined): string {
  const path = sameSitePath(value);
  return path && !path.startsWith('/sign-') ? path : '/account';
}

function renderSignIn(
  kit: WebKit,
  request: FastifyRequest,
  reply: FastifyReply,
  values: { email: string; next: string },
  errors: FormErrors,
  social: SocialProviderName[],
  status = 200,
): FastifyReply {
  const { csrf } = stateOf(request);
  const body = html`<h1>Sign in</h1>
${errorSummary(errors, LABELS)}
${postForm(
  '/sign-in',
  csrf,
  html`<input type="hidden" name="next" value="${values.next}">
${field({ name: 'email', label: LABELS.email, type: 'email', autocomplete: 'username', value: values.email, required: true }, errors)}
${field({ name: 'password', label: LABELS.password, type: 'password', autocomplete: 'current-password', required: true }, errors)}
<button type="submit" class="button">Sign in</button>`,
  html` class="stack"`,
)}
<p>No account yet? <a href="/register">Create an account</a>.</p>
${
  social.length
    ? html`<section aria-labelledby="social-title" class="social">
  <h2 id="social-title">Or sign in with</h2>
  <ul class="button-list">${social.map((p) => html`<li><a class="button button-secondary" href="/sign-in/with/${p}">${PROVIDER_NAMES[p].name}</a></li>`)}</ul>
</section>`
    : ''
}`;
  return kit.render(request, reply, { title: hasErrors(errors) ? 'Error: Sign in' : 'Sign in', body }, status);
}
