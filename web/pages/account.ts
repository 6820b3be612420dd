import { PROVIDER_NAMES, providerLabel } from '../../lib/auth/provider-names.js';
import type { LoginProviderName } from '../../lib/config.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SOCIAL_PROVIDERS } from '../../lib/config.js';
import { FLOW_MAX_AGE_SEC, loginReturnCookie, startBoundFlow, type BoundProvider } from '../../rest-compat/login-redirect.js';
import { csrfProblem } from '../csrf.js';
import { day } from '../format.js';
import { postForm } from '../forms.js';
import { html, type SafeHtml } from '../html.js';
import { errorOf, stateOf, type WebKit, type WebPage } from '../kit.js';
import type { AccountPageResult, AccountPageWithOrcidResult, AccountType } from '../operations.types.js';

/** The account page's answer, from either variant of its operation: the ORCID link only where ORCID is configured. */
type AccountView = AccountPageResult & Partial<Pick<AccountPageWithOrcidResult, 'orcidLink'>>;

const CLASS_NAME: Record<AccountType, string> = { REGULAR: 'Regular', ACADEMIC: 'Academic', SERVICE: 'Service', SUPERUSER: 'SuperUser' };
/** Where the callback of a flow started here sends the browser back to. */
const ACCOUNT_PATH = '/account';

/**
 * `/account`: the account's class and what it opens, institutional verification and ORCID linking (started here,
 * bound to this browser), and the ways to sign in, with unlinking.
 */
export const accountPage: WebPage = {
  nav: [{ href: ACCOUNT_PATH, label: 'Account', signedIn: true }],
  routes(scope, kit) {
    const configured = kit.config.login.providers;
    const query = configured.orcid ? 'accountPageWithOrcid' : 'accountPage';

    scope.get(ACCOUNT_PATH, async (request, reply) => {
      if (!kit.requireSignIn(request, reply)) return reply;
      const result = await kit.run(request, query);
      if (result.errors?.[0]) return kit.operationFailed(request, reply, result.errors[0], 'account page failed');
      return renderAccount(kit, request, reply, result.data!);
    });

    // Started with a GET link carrying the CSRF value: after a form POST, CSP form-action 'self' would block the
    // redirect to the provider's origin.
    for (const provider of ['institutional', 'orcid'] as BoundProvider[]) {
      const path = provider === 'institutional' ? '/account/verify/institutional' : '/account/link/orcid';
      scope.get(path, async (request, reply) => {
        if (!configured[provider]) return reply.callNotFound();
        const problem = csrfProblem(request, (request.query as { csrf?: string }).csrf, kit.originOf(request));
        if (problem) return kit.forbidden(request, reply, problem);
        if (!kit.requireSignIn(request, reply)) return reply;
        const out = await startBoundFlow(kit.runText, request, provider, kit.secureCookies);
        if ('error' in out) return kit.redirectWithFlash(reply, ACCOUNT_PATH, { kind: 'alert', message: errorOf(request, out.error, `${provider} start failed`).message });
        reply.header('cache-control', 'no-store');
        reply.header('set-cookie', [out.cookie, loginReturnCookie(provider, ACCOUNT_PATH, FLOW_MAX_AGE_SEC, kit.secureCookies)]);
        return reply.redirect(out.started.authorization_url, 302);
      });
    }

    scope.post('/account/identities/:provider/unlink', async (request, reply) => {
      if (!kit.requireSignIn(request, reply)) return reply;
      const provider = (request.params as { provider: string }).provider;
      const isOrcid = provider === 'orcid';
      if (!isOrcid && !(SOCIAL_PROVIDERS as readonly string[]).includes(provider)) return reply.callNotFound();
      const result = isOrcid
        ? await kit.run(request, 'unlinkOrcid')
        : await kit.run(request, 'unlinkIdentity', { provider });
      const error = result.errors?.[0];
      if (error) return kit.redirectWithFlash(reply, ACCOUNT_PATH, { kind: 'alert', message: errorOf(request, error, 'unlink failed').message });
      return kit.redirectWithFlash(reply, ACCOUNT_PATH, { kind: 'status', message: `Your ${PROVIDER_NAMES[provider as LoginProviderName]?.name ?? provider} ${isOrcid ? 'iD' : 'account'} is no longer linked.` });
    });
  },
};

function renderAccount(kit: WebKit, request: FastifyRequest, reply: FastifyReply, view: AccountView): FastifyReply {
  const { csrf } = stateOf(request);
  const { profile, institutionalVerification: inst, orcidLink, loginMethods } = view;
  const configured = kit.config.login.providers;
  const type = profile.account_type;
  const body = html`<h1>Your account</h1>
<dl class="details">
  <dt>Name</dt><dd>${profile.display_name}</dd>
  <dt>Email</dt><dd>${profile.email}</dd>
  <dt>Account class</dt><dd><span class="badge">${CLASS_NAME[type]}</span> ${profile.verified ? 'verified' : 'not verified'}</dd>
  <dt>Account id</dt><dd><code id="account-id">${profile.id}</code> <button type="button" class="link-button" data-copy="account-id" hidden>Copy the id</button></dd>
</dl>

<section aria-labelledby="academic-title">
  <h2 id="academic-title">Academic access</h2>
  ${academicSection(profile, inst, Boolean(configured.institutional), csrf)}
</section>

${
  configured.orcid && orcidLink
    ? html`<section aria-labelledby="orcid-title">
  <h2 id="orcid-title">ORCID iD</h2>
  ${
    orcidLink.linked
      ? html`<p>Linked: <a href="${orcidLink.orcid_url ?? `https://orcid.org/${orcidLink.orcid}`}">${orcidLink.orcid}</a>${orcidLink.linked_at ? html` since ${day(orcidLink.linked_at)}` : ''}. It is shown on your public profile.</p>
${postForm(`/account/identities/orcid/unlink`, csrf, html`<button type="submit" class="button button-danger">Unlink ORCID iD</button>`, html` data-confirm="Unlink your ORCID iD from this account?"`)}`
      : html`<p>Link your ORCID iD to show it on your public profile. You sign in at ORCID, and come back here.</p>
<p><a class="button button-secondary" href="/account/link/orcid?csrf=${csrf}">Link ORCID</a></p>`
  }
</section>`
    : ''
}

<section aria-labelledby="methods-title">
  <h2 id="methods-title">Ways to sign in</h2>
  <ul class="identity-list">
    <li><span><strong>Password</strong>: ${loginMethods.has_password ? 'set' : 'none yet'}</span> <a href="/account/password">${loginMethods.has_password ? 'Change your password' : 'Set a password'}</a></li>
    ${loginMethods.identities
      .filter((identity) => identity.provider !== 'orcid')
      .map(
        (identity) => html`<li><span><strong>${providerLabel(identity.provider)}</strong>: ${identity.username ?? identity.email ?? identity.name ?? 'linked'}, linked ${day(identity.linked_at)}</span>
${postForm(
  `/account/identities/${identity.provider}/unlink`,
  csrf,
  html`<button type="submit" class="button button-danger">Unlink<span class="visually-hidden"> ${providerLabel(identity.provider)}</span></button>`,
  html` data-confirm="${`Unlink your ${PROVIDER_NAMES[identity.provider as LoginProviderName]?.name ?? identity.provider} account? You will no longer be able to sign in with it.`}"`,
)}</li>`,
      )}
  </ul>
</section>`;
  return kit.render(request, reply, { title: 'Your account', body, scripts: ['confirm.js', 'copy.js'] });
}

function academicSection(profile: AccountView['profile'], inst: AccountView['institutionalVerification'], canVerify: boolean, csrf: string): SafeHtml {
  const type = profile.account_type;
  const opens = html`<p>Academic accounts use the datasets (every <code>/v1/neurodata</code> route: files, tables, downloads), graph analysis, analytics, SyQL queries and jobs. Regular accounts browse and search the public catalogue.</p>`;
  if (type === 'ACADEMIC') {
    const by = profile.verification;
    if (by?.method === 'SUPERUSER') {
      return html`<p>Your account is Academic, verified by a SuperUser of this service on ${day(by.verified_at)}${by.reason ? html` (“${by.reason}”)` : ''}.</p>${opens}`;
    }
    return html`<p>Your account is Academic${inst.institution ? html`, verified by <strong>${inst.institution}</strong>` : ''}${inst.verified_at ? html` on ${day(inst.verified_at)}` : ''}.</p>${opens}`;
  }
  if (type === 'SERVICE') return html`<p>A Service account has academic access without verification; it is meant for programs, not people.</p>${opens}`;
  if (type === 'SUPERUSER') return html`<p>A SuperUser can do everything an Academic account can, and administer the service: <a href="/admin/accounts">verify accounts</a>.</p>`;
  const bySuperUser = html`a SuperUser of this service can verify your account: send them your account id (above), and they verify it on the page <code>/admin/accounts</code> (or with <code>POST /v1/user/${profile.id}/verify</code>). It is Academic at once, with the tokens you already have.`;
  if (canVerify) {
    return html`${opens}
<p>To become Academic, sign in at your institution: the service checks that your institution knows you, and your account becomes Academic at once.</p>
<p><a class="button" href="/account/verify/institutional?csrf=${csrf}">Verify my institution</a></p>
<p>If your institution is not one this server knows, ${bySuperUser}</p>`;
  }
  return html`${opens}
<p>This server has no institutional login. To become Academic, ${bySuperUser}</p>
<p>Running this service on your own machine? In a terminal in its folder, <code>npm run admin -- create-superuser --email ${profile.email} --password -</code> makes your existing account a SuperUser (it keeps its password), which covers Academic; reload this page to see it.</p>`;
}
