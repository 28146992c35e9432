// A player's page (/players/{name}): the rating over time (one line per game and rules preset),
// per-game totals, the games with filters, and accounts (口座).

import { svg } from '../boards/base.js';
import { api } from '../lib/client.js';
import { append, h, replace } from '../lib/dom.js';
import { href, t } from '../lib/i18n.js';
import { gameTitle, startPage, when } from '../lib/page.js';

/**
 * @typedef {{game: string, preset: string, table_id: string, mu: number, sigma: number,
 *   games: number, rated_at: number}} RatingPoint
 * @typedef {{table_id: string, game: string, seat: number, result: string, score: number,
 *   rank: number, finished_at: string}} HistoryRow
 */

const name = decodeURIComponent(location.pathname.split('/')[2] || '');
const { main } = await startPage('player.title');
main.append(h('h1', {}, t('player.heading', { name })));

/**
 * The rating chart of one game and preset: the ordinal μ − 3σ after each rated game, with the
 * band μ ± σ behind it. Drawn in a fixed viewBox; the page's CSS scales it.
 * @param {RatingPoint[]} points oldest first
 * @returns {SVGElement}
 */
function ratingChart(points) {
  const W = 600;
  const H = 180;
  const pad = { left: 40, right: 10, top: 10, bottom: 22 };
  const ordinals = points.map((p) => p.mu - 3 * p.sigma);
  const lows = points.map((p) => p.mu - p.sigma);
  const highs = points.map((p) => p.mu + p.sigma);
  let lo = Math.min(...ordinals, ...lows);
  let hi = Math.max(...highs);
  if (hi - lo < 1) [lo, hi] = [lo - 0.5, hi + 0.5];
  const x = (/** @type {number} */ i) => pad.left + (points.length === 1 ? (W - pad.left - pad.right) / 2 : (i * (W - pad.left - pad.right)) / (points.length - 1));
  const y = (/** @type {number} */ v) => pad.top + ((hi - v) * (H - pad.top - pad.bottom)) / (hi - lo);
  const path = (/** @type {number[]} */ vs) => vs.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const band = `${path(highs)} ${lows
    .map((v, i) => [i, v])
    .reverse()
    .map(([i, v]) => `L${x(i).toFixed(1)},${y(v).toFixed(1)}`)
    .join(' ')} Z`;
  const ticks = [lo, (lo + hi) / 2, hi];
  const last = points[points.length - 1];
  return svg(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('player.chart_label', { games: last.games, ordinal: (last.mu - 3 * last.sigma).toFixed(2) }), 'data-testid': 'rating-chart' },
    svg('rect', { class: 'frame', x: pad.left, y: pad.top, width: W - pad.left - pad.right, height: H - pad.top - pad.bottom }),
    ...ticks.map((v) => svg('line', { class: 'grid', x1: pad.left, x2: W - pad.right, y1: y(v), y2: y(v) })),
    ...ticks.map((v) => svg('text', { class: 'tick', x: pad.left - 4, y: y(v) + 4, 'text-anchor': 'end' }, v.toFixed(1))),
    svg('text', { class: 'tick', x: pad.left, y: H - 6 }, '1'),
    svg('text', { class: 'tick', x: W - pad.right, y: H - 6, 'text-anchor': 'end' }, String(last.games)),
    svg('path', { class: 'band', d: band }),
    svg('path', { class: 'line', d: path(ordinals), 'data-points': points.length }),
    ...points.map((p, i) => svg('circle', { class: 'dot', cx: x(i), cy: y(ordinals[i]), r: 3 }, svg('title', {}, `${p.games}: ${ordinals[i].toFixed(2)} (μ ${p.mu.toFixed(2)}, σ ${p.sigma.toFixed(2)})`))),
  );
}

/** @param {RatingPoint[]} points */
function ratingsSection(points) {
  /** @type {Map<string, RatingPoint[]>} */
  const lines = new Map();
  for (const p of points) {
    const key = `${p.game}\u0000${p.preset}`;
    const line = lines.get(key) || [];
    line.push(p);
    lines.set(key, line);
  }
  if (!lines.size) return [h('h2', {}, t('player.rating')), h('p', {}, t('player.no_rating'))];
  return [
    h('h2', {}, t('player.rating')),
    [...lines.values()].map((line) => {
      const last = line[line.length - 1];
      return h(
        'figure',
        { class: 'rating-chart', 'data-game': last.game },
        h('figcaption', {}, h('a', { href: href(`/leaderboard/${last.game}`) }, gameTitle(last.game)), ' · ', t('leaderboard.preset', { preset: last.preset }), ' · ', t('player.rating_now', { ordinal: (last.mu - 3 * last.sigma).toFixed(2), games: last.games })),
        ratingChart(line),
      );
    }),
  ];
}

/**
 * The games list with filters by game and result (the list itself is rebuilt on change).
 * @param {HistoryRow[]} history
 */
function historySection(history) {
  if (!history.length) return null;
  const gamesPlayed = [...new Set(history.map((r) => r.game))];
  const results = [...new Set(history.map((r) => r.result))];
  const gameSelect = h('select', { 'data-testid': 'filter-game', 'aria-label': t('player.filter_game') }, h('option', { value: '' }, t('player.all_games')), gamesPlayed.map((g) => h('option', { value: g }, gameTitle(g))));
  const resultSelect = h('select', { 'data-testid': 'filter-result', 'aria-label': t('player.filter_result') }, h('option', { value: '' }, t('player.all_results')), results.map((r) => h('option', { value: r }, t(`result.${r}`))));
  const body = h('tbody');
  const count = h('p', { class: 'small', 'aria-live': 'polite' });
  const show = () => {
    const rows = history.filter((r) => (!gameSelect.value || r.game === gameSelect.value) && (!resultSelect.value || r.result === resultSelect.value));
    replace(
      body,
      rows.map((row) =>
        h('tr', {}, h('td', {}, gameTitle(row.game)), h('td', {}, t(`result.${row.result}`)), h('td', {}, String(row.rank)), h('td', {}, String(row.score)), h('td', {}, when(row.finished_at)), h('td', {}, h('a', { href: href(`/games/${row.table_id}?seat=${row.seat}`) }, t('lobby.replay')))),
      ),
    );
    replace(count, t('player.shown', { n: rows.length, total: history.length }));
  };
  gameSelect.addEventListener('change', show);
  resultSelect.addEventListener('change', show);
  show();
  return [
    h('div', { class: 'filters inline-list' }, h('label', {}, t('player.filter_game'), ' ', gameSelect), h('label', {}, t('player.filter_result'), ' ', resultSelect), count),
    h(
      'div',
      { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': t('player.history') },
      h('table', { 'data-testid': 'player-history' }, h('thead', {}, h('tr', {}, ['game', 'result', 'rank', 'score', 'finished', 'actions'].map((c) => h('th', { scope: 'col' }, t(`board.col.${c}`))))), body),
    ),
  ];
}

try {
  const [data, rated] = await Promise.all([api(`/api/accounts/${encodeURIComponent(name)}`), api(`/api/players/${encodeURIComponent(name)}/ratings`)]);
  /** @type {HistoryRow[]} */
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
  append(main, [
    ratingsSection(rated.points),
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
    historySection(history),
    Object.keys(data.accounts || {}).length ? [h('h2', {}, t('player.accounts')), h('dl', { class: 'facts' }, Object.entries(data.accounts).map(([game, values]) => [h('dt', {}, gameTitle(game)), h('dd', {}, JSON.stringify(values))]))] : null,
  ]);
} catch (err) {
  main.append(h('p', { class: 'error', role: 'alert' }, err instanceof Error ? err.message : String(err)));
}
