// The account page (/account): the signed-in person's password, and the API tokens of their
// programs: make one with a name (shown this once), see when each was made and last used, and
// revoke any. Everything goes through the session cookie; the page never keeps a token.

import { ServerError, api } from '../lib/client.js';
import { h, replace } from '../lib/dom.js';
import { href, t } from '../lib/i18n.js';
import { startPage, when } from '../lib/page.js';

/** @typedef {{id: number, name: string, created_at: number, last_used_at: number | null}} TokenInfo */

const { main, account } = await startPage('account.title');

/** @param {unknown} err */
const message = (err) => (err instanceof ServerError || err instanceof Error ? err.message : String(err));

if (!account) {
  main.append(h('h1', {}, t('account.title')), h('p', {}, h('a', { href: href('/') }, t('account.signed_out'))));
} else {
  main.append(h('h1', {}, t('account.heading', { name: account })));
  /** @type {{name: string, has_password: boolean}} */
  const me = await api('/api/me');
  main.append(passwordSection(me.has_password), tokenSection());
}

/**
 * Set or change the password.
 * @param {boolean} hasPassword
 */
function passwordSection(hasPassword) {
  const status = h('p', { id: 'password-status' }, t(hasPassword ? 'account.password_set' : 'account.password_none'));
  const error = h('p', { class: 'error', role: 'alert', id: 'password-error' });
  const current = h('input', { id: 'password-current', type: 'password', autocomplete: 'current-password', maxlength: 256, required: true });
  const fresh = h('input', { id: 'password-new', type: 'password', autocomplete: 'new-password', minlength: 8, maxlength: 256, required: true });
  const currentRow = [h('label', { for: 'password-current' }, t('account.current')), current];
  /** @param {Event} ev */
  const save = async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    try {
      await api('/api/me/password', { method: 'POST', body: hasPassword ? { password: fresh.value, current: current.value } : { password: fresh.value } });
      hasPassword = true;
      current.value = '';
      fresh.value = '';
      status.textContent = t('account.password_saved');
      const next = build(); // now with the current password's field
      form.replaceWith(next);
      form = next;
    } catch (err) {
      error.textContent = message(err);
    }
  };
  const build = () =>
    h(
      'form',
      { id: 'password-form', onsubmit: save },
      hasPassword ? currentRow : null,
      h('label', { for: 'password-new' }, t('account.new_password')),
      fresh,
      h('small', {}, t('signin.password_rule')),
      h('button', { type: 'submit' }, t('account.save_password')),
    );
  let form = build();
  return h('section', { 'aria-labelledby': 'h-password', class: 'signin' }, h('h2', { id: 'h-password' }, t('account.password')), status, form, error);
}

/** The API tokens: the list, the form that makes one, and the new one shown once. */
function tokenSection() {
  const body = h('tbody');
  const error = h('p', { class: 'error', role: 'alert', id: 'token-error' });
  const shown = h('div', { id: 'new-token', 'aria-live': 'polite' });
  const name = h('input', { id: 'token-name', name: 'name', required: true, maxlength: 64, autocomplete: 'off' });

  /** @param {TokenInfo[]} tokens */
  const render = (tokens) => {
    replace(
      body,
      tokens.length
        ? tokens.map((tok) =>
            h(
              'tr',
              { 'data-token': tok.id },
              h('td', {}, tok.name),
              h('td', {}, when(tok.created_at)),
              h('td', {}, tok.last_used_at ? when(tok.last_used_at) : t('account.never')),
              h(
                'td',
                {},
                h('button', { type: 'button', class: 'revoke', 'aria-label': t('account.revoke_label', { name: tok.name }), onclick: () => revoke(tok.id) }, t('account.revoke')),
              ),
            ),
          )
        : h('tr', {}, h('td', { colspan: 4 }, t('account.no_tokens'))),
    );
  };
  const load = async () => {
    const data = await api('/api/me/tokens');
    render(data.tokens);
  };
  /** @param {number} id */
  const revoke = async (id) => {
    error.textContent = '';
    try {
      const data = await api(`/api/me/tokens/${id}`, { method: 'DELETE' });
      replace(shown);
      render(data.tokens);
    } catch (err) {
      error.textContent = message(err);
    }
  };
  /** @param {Event} ev */
  const make = async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    try {
      /** @type {{id: number, name: string, token: string, created_at: number}} */
      const made = await api('/api/me/tokens', { method: 'POST', body: { name: name.value.trim() } });
      name.value = '';
      replace(shown, h('p', {}, t('account.new_token', { name: made.name })), h('code', { class: 'token', 'data-testid': 'new-token' }, made.token));
      await load();
    } catch (err) {
      error.textContent = message(err);
    }
  };
  load().catch((err) => {
    error.textContent = message(err);
  });
  return h(
    'section',
    { 'aria-labelledby': 'h-tokens' },
    h('h2', { id: 'h-tokens' }, t('account.tokens')),
    h('p', {}, t('account.tokens_intro')),
    h(
      'form',
      { id: 'token-make', class: 'signin', onsubmit: make },
      h('label', { for: 'token-name' }, t('account.token_name')),
      name,
      h('button', { type: 'submit' }, t('account.make_token')),
    ),
    shown,
    error,
    h(
      'div',
      { class: 'scroll', tabindex: 0 },
      h(
        'table',
        { id: 'tokens', class: 'tables' },
        h('thead', {}, h('tr', {}, ['name', 'created', 'last_used', 'actions'].map((c) => h('th', { scope: 'col' }, t(`account.col.${c}`))))),
        body,
      ),
    ),
  );
}
