import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorSummary, errorsFromMessage, field, hasErrors, noErrors, postForm, type FormErrors } from '../forms.js';
import { html } from '../html.js';
import { errorOf, stateOf, type WebKit, type WebPage } from '../kit.js';

const LABELS = { current_password: 'Current password', new_password: 'New password', confirm_password: 'New password again' };
const PATH = '/account/password';

/**
 * `/account/password`: sets the first password of an account made by a social sign-in, or changes it
 * (`setPassword`). Every other login of the account is signed out; this browser's stays signed in with the tokens it
 * has, since the change is told apart by its access token's login (docs/identity.md).
 */
export const passwordPage: WebPage = {
  routes(scope, kit) {
    scope.get(PATH, async (request, reply) => {
      if (!kit.requireSignIn(request, reply)) return reply;
      const hasPassword = await hasPasswordOf(kit, request);
      if (typeof hasPassword !== 'boolean') return kit.operationFailed(request, reply, hasPassword, 'password page failed');
      return renderPassword(kit, request, reply, hasPassword, noErrors());
    });

    scope.post(PATH, async (request, reply) => {
      if (!kit.requireSignIn(request, reply)) return reply;
      const form = request.body as Record<string, string | undefined>;
      const hasPassword = await hasPasswordOf(kit, request);
      if (typeof hasPassword !== 'boolean') return kit.operationFailed(request, reply, hasPassword, 'password page failed');
      const errors = noErrors();
      if (hasPassword && !form.current_password) errors.fields.current_password = 'enter your current password';
      const newPassword = form.new_password ?? '';
      if (!newPassword) errors.fields.new_password = 'choose a new password';
      else if (newPassword !== form.confirm_password) errors.fields.confirm_password = 'the two new passwords differ';
      if (hasErrors(errors)) return renderPassword(kit, request, reply, hasPassword, errors, 400);

      const result = await kit.run(request, 'setPassword', {
        new_password: newPassword,
        current_password: hasPassword ? form.current_password : null,
      });
      const error = result.errors?.[0];
      if (error) {
        const { status, message } = errorOf(request, error, 'password change failed');
        const failed: FormErrors =
          status === 403 ? { fields: { current_password: 'this is not your current password' } } : errorsFromMessage(message, { new_password: 'new_password', current_password: 'current_password', password: 'new_password' });
        return renderPassword(kit, request, reply, hasPassword, failed, status);
      }
      return kit.redirectWithFlash(reply, '/account', {
        kind: 'status',
        message: `Your password is ${hasPassword ? 'changed' : 'set'}. Every other browser or program signed in to this account with a password or a sign-in provider has been signed out, and your API tokens have ended: make new ones for your scripts on the API tokens page.`,
      });
    });
  },
};

async function hasPasswordOf(kit: WebKit, request: FastifyRequest) {
  const result = await kit.run(request, 'loginMethods');
  return result.errors?.[0] ?? result.data!.loginMethods.has_password;
}

function renderPassword(kit: WebKit, request: FastifyRequest, reply: FastifyReply, hasPassword: boolean, errors: FormErrors, status = 200): FastifyReply {
  const { csrf } = stateOf(request);
  const title = hasPassword ? 'Change your password' : 'Set a password';
  const body = html`<h1>${title}</h1>
<p>${hasPassword ? 'Changing it signs out every other browser and program that signed in to this account; this one stays signed in.' : 'Your account has no password yet: you signed in with a provider. With a password you can also sign in with your email address.'}</p>
${errorSummary(errors, LABELS)}
${postForm(
  PATH,
  csrf,
  html`${hasPassword ? field({ name: 'current_password', label: LABELS.current_password, type: 'password', autocomplete: 'current-password', required: true }, errors) : ''}
${field({ name: 'new_password', label: LABELS.new_password, type: 'password', autocomplete: 'new-password', required: true, minlength: 8, hint: 'At least 8 characters, and not your email address.' }, errors)}
${field({ name: 'confirm_password', label: LABELS.confirm_password, type: 'password', autocomplete: 'new-password', required: true }, errors)}
<button type="submit" class="button">${hasPassword ? 'Change password' : 'Set password'}</button>`,
  html` class="stack"`,
)}
<p><a href="/account">Back to your account</a></p>`;
  return kit.render(request, reply, { title: hasErrors(errors) ? `Error: ${title}` : title, body }, status);
}
