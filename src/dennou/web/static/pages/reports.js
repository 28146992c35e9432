// The operators' page (/reports): talk lines people reported, oldest first, each with the
// words as the reporter read them, a link to its table, and how to resolve it. Others are told
// the page is for operators (the API refuses them too).

import { ServerError, api } from '../lib/client.js';
import { h, replace } from '../lib/dom.js';
import { href, t } from '../lib/i18n.js';
import { startPage, when } from '../lib/page.js';
import { channelName } from '../lib/widgets.js';

/**
 * @typedef {{id: number, table_id: string, version: number, reporter: string, talker: string,
 *   channel: string, text: string, reason: string, created_at: number,
 *   resolved_by: string | null, resolved_at: number | null, resolution: string | null}} Report
 */

const { main } = await startPage('reports.title');
const showResolved = new URLSearchParams(location.search).get('resolved') === '1';
const box = h('div', { 'data-testid': 'reports' });
const error = h('p', { class: 'error', role: 'alert' });
main.append(
  h('h1', {}, t('reports.heading')),
  h('p', {}, showResolved ? h('a', { href: href('/reports') }, t('reports.open')) : h('a', { href: href('/reports?resolved=1') }, t('reports.resolved'))),
  error,
  box,
);

/**
 * @param {Report} r
 * @param {string} resolution
 */
async function resolve(r, resolution) {
  try {
    await api(`/api/reports/${r.id}`, { method: 'POST', body: { resolution } });
    await load();
  } catch (err) {
    error.textContent = err instanceof Error ? err.message : String(err);
  }
}

/** @param {Report} r */
function row(r) {
  return h(
    'tr',
    { 'data-report': r.id },
    h('td', {}, when(r.created_at)),
    h('td', {}, h('a', { href: href(`/players/${encodeURIComponent(r.talker)}`) }, r.talker)),
    h('td', {}, channelName(r.channel, [])),
    h('td', { class: 'text' }, r.text),
    h('td', {}, r.reason || '—'),
    h('td', {}, r.reporter),
    h('td', {}, h('a', { href: href(`/tables/${encodeURIComponent(r.table_id)}`) }, r.table_id)),
    h(
      'td',
      { class: 'actions' },
      r.resolution
        ? `${t(`reports.resolution.${r.resolution}`)} (${r.resolved_by})`
        : ['dismissed', 'warned', 'muted'].map((x) => h('button', { type: 'button', class: 'small', 'data-testid': `resolve-${x}`, onclick: () => resolve(r, x) }, t(`reports.do.${x}`))),
    ),
  );
}

async function load() {
  try {
    /** @type {{reports: Report[]}} */
    const data = await api(`/api/reports${showResolved ? '?resolved=1' : ''}`);
    replace(
      box,
      data.reports.length
        ? h(
            'div',
            { class: 'scroll wide', tabindex: 0, role: 'region', 'aria-label': t('reports.heading') },
            h(
              'table',
              {},
              h('thead', {}, h('tr', {}, ['when', 'talker', 'channel', 'line', 'reason', 'reporter', 'table', 'actions'].map((c) => h('th', { scope: 'col' }, t(`reports.col.${c}`))))),
              h('tbody', {}, data.reports.map(row)),
            ),
          )
        : h('p', { 'data-testid': 'no-reports' }, t(showResolved ? 'reports.none_resolved' : 'reports.none')),
    );
  } catch (err) {
    const forbidden = err instanceof ServerError && (err.code === 'forbidden' || err.code === 'unauthorized');
    replace(box, h('p', { class: 'error', role: 'alert', 'data-testid': 'reports-refused' }, forbidden ? t('reports.operators_only') : err instanceof Error ? err.message : String(err)));
  }
}

await load();
