// A player's page (/players/{name}): games and results, per-game totals and accounts (口座).

import { api } from '../lib/client.js';
import { append, h } from '../lib/dom.js';
import { href, t } from '../lib/i18n.js';
import { gameTitle, startPage, when } from '../lib/page.js';

const name = decodeURIComponent(location.pathname.split('/')[2] || '');
const { main } = await startPage('player.title');
main.append(h('h1', {}, t('player.heading', { name })));
try {
  const data = await api(`/api/accounts/${encodeURIComponent(name)}`);
  /** @type {{table_id: string, game: string, seat: number, result: string, score: number, rank: number, finished_at: string}[]} */
  const history = data.history;
  /** @type {Map<string, {games: number, wins: number, score: number}>} */
  const totals = new Map();
  for (const row of history) {
    const x = totals.get(row.game) || { games: 0, wins: 0, score: 0 };
    x.games += 1;
    x.wins += row.result === 'win' ? 1 : 0;
    x.score += row.score;
    totals.set(row.game, x);
  }
  append(
    main,
    [
    h('h2', {}, t('player.totals')),
    totals.size
      ? h(
          'table',
          { 'data-testid': 'player-totals' },
          h('thead', {}, h('tr', {}, ['game', 'games', 'wins', 'mean_score'].map((c) => h('th', { scope: 'col' }, t(`board.col.${c}`))))),
          h('tbody', {}, [...totals].map(([game, x]) => h('tr', {}, h('td', {}, h('a', { href: href(`/leaderboard/${game}`) }, gameTitle(game))), h('td', {}, String(x.games)), h('td', {}, String(x.wins)), h('td', {}, (x.score / x.games).toFixed(3))))),
        )
      : h('p', {}, t('player.no_games')),
    h('h2', {}, t('player.history')),
    history.length
      ? h(
          'div',
          { class: 'scroll' },
          h(
            'table',
            { 'data-testid': 'player-history' },
            h('thead', {}, h('tr', {}, ['game', 'result', 'rank', 'score', 'finished', 'actions'].map((c) => h('th', { scope: 'col' }, t(`board.col.${c}`))))),
            h(
              'tbody',
              {},
              history.map((row) =>
                h('tr', {}, h('td', {}, gameTitle(row.game)), h('td', {}, t(`result.${row.result}`)), h('td', {}, String(row.rank)), h('td', {}, String(row.score)), h('td', {}, when(row.finished_at)), h('td', {}, h('a', { href: href(`/games/${row.table_id}?seat=${row.seat}`) }, t('lobby.replay')))),
              ),
            ),
          ),
        )
      : null,
    Object.keys(data.accounts || {}).length ? [h('h2', {}, t('player.accounts')), h('dl', { class: 'facts' }, Object.entries(data.accounts).map(([game, values]) => [h('dt', {}, gameTitle(game)), h('dd', {}, JSON.stringify(values))]))] : null,
    ],
  );
} catch (err) {
  main.append(h('p', { class: 'error', role: 'alert' }, err instanceof Error ? err.message : String(err)));
}
