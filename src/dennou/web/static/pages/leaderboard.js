// The leaderboard (/leaderboard/{game}): the game's ratings (openskill μ, σ and the ordinal
// μ − 3σ, one board per rules preset, fed by tournaments and rated tables: docs/tournaments.md),
// then every account's games, wins and mean score.

import { api } from '../lib/client.js';
import { h } from '../lib/dom.js';
import { href, t } from '../lib/i18n.js';
import { gameTitle, games, startPage } from '../lib/page.js';

const { main } = await startPage('leaderboard.title');
const all = await games();
const game = decodeURIComponent(location.pathname.split('/')[2] || '') || all[0].name;
main.append(
  h('h1', {}, t('leaderboard.heading', { game: gameTitle(game) })),
  h('nav', { class: 'inline-list', 'aria-label': t('leaderboard.games') }, all.map((g) => (g.name === game ? h('strong', { 'aria-current': 'page' }, gameTitle(g.name, g.title)) : h('a', { href: href(`/leaderboard/${g.name}`) }, gameTitle(g.name, g.title))))),
);
try {
  /** @type {{boards: {preset: string, ratings: {name: string, mu: number, sigma: number, ordinal: number, games: number}[]}[]}} */
  const rated = await api(`/api/leaderboard/${encodeURIComponent(game)}`);
  main.append(h('h2', {}, t('leaderboard.ratings')));
  if (!rated.boards.length) main.append(h('p', {}, t('leaderboard.no_ratings')));
  for (const board of rated.boards) {
    main.append(
      h('h3', {}, t('leaderboard.preset', { preset: board.preset })),
      h(
        'table',
        { 'data-testid': `ratings-${board.preset}` },
        h('thead', {}, h('tr', {}, ['place', 'player', 'ordinal', 'mu', 'sigma', 'games'].map((c) => h('th', { scope: 'col' }, t(`leaderboard.col.${c}`))))),
        h(
          'tbody',
          {},
          board.ratings.map((r, i) =>
            h('tr', {}, h('td', {}, String(i + 1)), h('th', { scope: 'row' }, h('a', { href: href(`/players/${encodeURIComponent(r.name)}`) }, r.name.startsWith('bot:') ? t('seat.bot', { name: r.name.slice(4) }) : r.name)), h('td', {}, r.ordinal.toFixed(2)), h('td', {}, r.mu.toFixed(2)), h('td', {}, r.sigma.toFixed(2)), h('td', {}, String(r.games))),
          ),
        ),
      ),
    );
  }
  main.append(h('h2', {}, t('leaderboard.results')));
  const data = await api(`/api/results/${encodeURIComponent(game)}`);
  /** @type {{name: string, games: number, wins: number, draws: number, mean_score: number, mean_rank: number}[]} */
  const rows = data.rows;
  main.append(
    rows.length
      ? h(
          'table',
          { 'data-testid': 'leaderboard' },
          h('thead', {}, h('tr', {}, ['place', 'player', 'games', 'wins', 'draws', 'mean_score', 'mean_rank'].map((c) => h('th', { scope: 'col' }, t(`board.col.${c}`))))),
          h(
            'tbody',
            {},
            rows.map((r, i) =>
              h('tr', {}, h('td', {}, String(i + 1)), h('th', { scope: 'row' }, h('a', { href: href(`/players/${encodeURIComponent(r.name)}`) }, r.name)), h('td', {}, String(r.games)), h('td', {}, String(r.wins)), h('td', {}, String(r.draws)), h('td', {}, r.mean_score.toFixed(3)), h('td', {}, r.mean_rank.toFixed(2))),
            ),
          ),
        )
      : h('p', {}, t('leaderboard.empty')),
  );
} catch (err) {
  main.append(h('p', { class: 'error', role: 'alert' }, err instanceof Error ? err.message : String(err)));
}
