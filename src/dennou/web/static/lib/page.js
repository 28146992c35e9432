// What every page shares: the language, the header (navigation, who is signed in, the language
// switch), the game list, and a status line that says when the connection is down.

import { api } from './client.js';
import { h, replace, byId } from './dom.js';
import { LANGS, href, lang, langUrl, loadI18n, t, tOr } from './i18n.js';

/**
 * @typedef {{name: string, title: string, version: number, min_players: number,
 *   max_players: number, rules: {name: string, type: string, default: any, description: string}[],
 *   bots: string[], talk: boolean, hidden_information: boolean, board: string}} GameInfo
 * @typedef {{seat: number, kind: 'open' | 'player' | 'bot', name: string | null,
 *   connected: boolean}} SeatInfo
 * @typedef {{id: string, game: string, status: 'waiting' | 'playing' | 'finished' | 'aborted',
 *   rules: Record<string, any>, seats: SeatInfo[], version: number, spectators: number,
 *   time_limit: number, time_bank?: number, absent_grace?: number, owner?: string | null, claim_grace?: number,
 *   muted?: string[], outcome: any}} TableInfo
 */

/** @type {Promise<GameInfo[]> | null} */
let gamesPromise = null;

/** @returns {Promise<GameInfo[]>} the hosted games (fetched once per page) */
export function games() {
  if (!gamesPromise) gamesPromise = api('/api/games');
  return gamesPromise;
}

/**
 * A game's name in the current language.
 * @param {string} name
 * @param {string} [title] the server's title, the fallback
 * @returns {string}
 */
export function gameTitle(name, title) {
  return tOr(`game.${name}`, title || name);
}

/** @returns {Promise<string | null>} the signed-in account (from the cookie, via the server) */
export async function whoAmI() {
  const session = await api('/api/session');
  return session.name;
}

/**
 * Start a page: strings, header. Returns the main element and the account.
 * @param {string} titleKey
 * @returns {Promise<{main: HTMLElement, account: string | null}>}
 */
export async function startPage(titleKey) {
  await loadI18n();
  const account = await whoAmI().catch(() => null);
  document.title = `${t(titleKey)} — dennou 電脳`;
  renderHeader(account);
  const main = byId('main');
  replace(main);
  return { main, account };
}

/** @param {string | null} account */
export function renderHeader(account) {
  const header = byId('site-header');
  const switcher = h(
    'nav',
    { class: 'lang', 'aria-label': t('nav.language') },
    LANGS.map((l) =>
      l === lang()
        ? h('span', { 'aria-current': 'true', lang: l }, t(`lang.${l}`))
        : h('a', { href: langUrl(l), lang: l, hreflang: l }, t(`lang.${l}`)),
    ),
  );
  const signOut = async () => {
    await api('/api/session', { method: 'DELETE' });
    location.href = href('/');
  };
  replace(
    header,
    h('a', { class: 'brand', href: href('/') }, 'dennou ', h('span', { lang: 'ja' }, '電脳')),
    h(
      'nav',
      { class: 'site', 'aria-label': t('nav.site') },
      h('a', { href: href('/') }, t('nav.lobby')),
      h('a', { href: href('/leaderboard') }, t('nav.leaderboard')),
      h('a', { href: href('/replay') }, t('nav.replay')),
    ),
    account
      ? h(
          'span',
          { class: 'who' },
          h('a', { href: href(`/players/${encodeURIComponent(account)}`), 'data-testid': 'me' }, account),
          ' ',
          h('a', { href: href('/account'), id: 'nav-account' }, t('nav.account')),
          ' ',
          h('button', { type: 'button', class: 'link', onclick: signOut }, t('nav.signout')),
        )
      : h('span', { class: 'who' }, t('nav.guest')),
    switcher,
    h('p', { id: 'conn-status', class: 'conn', role: 'status', 'aria-live': 'polite' }),
  );
}

/**
 * Show the connection's state in the header.
 * @param {'connecting' | 'online' | 'offline'} status
 */
export function showConnection(status) {
  const el = document.getElementById('conn-status');
  if (!el) return;
  el.dataset.state = status;
  el.textContent = status === 'online' ? '' : t(`conn.${status}`);
}

/**
 * A player's name with a link to their page (bots: just the name).
 * @param {SeatInfo | {kind: string, name: string | null}} seat
 * @returns {HTMLElement}
 */
export function seatLabel(seat) {
  if (seat.kind === 'player' && seat.name) {
    return h('a', { href: href(`/players/${encodeURIComponent(seat.name)}`) }, seat.name);
  }
  if (seat.kind === 'bot') return h('span', { class: 'bot' }, t('seat.bot', { name: seat.name || '?' }));
  return h('span', { class: 'open' }, t('seat.open'));
}

/**
 * @typedef {{seat: number, name: string, mu?: number | null, sigma?: number | null,
 *   ordinal?: number | null, games: number}} SeatRating
 */

/**
 * The ratings of the seats of tables, at each table's game and rules preset
 * (`GET /api/ratings`): asked again only for tables whose seats changed.
 */
export class SeatRatings {
  constructor() {
    /** @type {Map<string, {key: string, seats: Map<number, SeatRating>}>} */
    this.known = new Map();
    /** Tables (id and seats) being asked for now: asked once. @type {Set<string>} */
    this.asking = new Set();
  }

  /**
   * Load what is missing; resolves to whether anything new arrived.
   * @param {TableInfo[]} tables
   * @returns {Promise<boolean>}
   */
  async load(tables) {
    const want = tables.filter((tb) => this.known.get(tb.id)?.key !== seatsKey(tb) && !this.asking.has(`${tb.id} ${seatsKey(tb)}`)).slice(0, 200);
    if (!want.length) return false;
    const asked = want.map((tb) => `${tb.id} ${seatsKey(tb)}`);
    for (const a of asked) this.asking.add(a);
    try {
      /** @type {{tables: Record<string, SeatRating[]>}} */
      const reply = await api(`/api/ratings?tables=${want.map((tb) => encodeURIComponent(tb.id)).join(',')}`);
      for (const tb of want) {
        const rows = reply.tables[tb.id] || [];
        this.known.set(tb.id, { key: seatsKey(tb), seats: new Map(rows.map((r) => [r.seat, r])) });
      }
    } finally {
      for (const a of asked) this.asking.delete(a);
    }
    return true;
  }

  /**
   * A seat's rating as a small badge (nothing for an open seat or before it is known).
   * @param {string} table
   * @param {number} seat
   * @returns {HTMLElement | null}
   */
  badge(table, seat) {
    const r = this.known.get(table)?.seats.get(seat);
    if (!r) return null;
    if (!r.games || r.ordinal === null || r.ordinal === undefined) return h('span', { class: 'rating unrated', 'data-testid': `rating-${seat}` }, t('rating.unrated'));
    return h('span', { class: 'rating', title: t('rating.title', { games: r.games }), 'data-testid': `rating-${seat}` }, t('rating.short', { ordinal: r.ordinal.toFixed(1) }));
  }
}

/**
 * @param {TableInfo} table
 * @returns {string} who sits where (a change asks for the ratings again)
 */
function seatsKey(table) {
  return table.seats.map((s) => `${s.kind}:${s.name || ''}`).join('|');
}

/**
 * Format a time: Unix seconds or ISO 8601.
 * @param {number | string | null | undefined} seconds
 * @returns {string}
 */
export function when(seconds) {
  if (!seconds) return '';
  // Unix seconds, or an ISO 8601 string (`/api/accounts/{name}`)
  const date = typeof seconds === 'string' ? new Date(seconds) : new Date(seconds * 1000);
  return date.toLocaleString(lang() === 'ja' ? 'ja-JP' : 'en-GB');
}

/**
 * A duration in words: seconds under two minutes, else minutes.
 * @param {number} seconds
 * @returns {string}
 */
export function duration(seconds) {
  if (seconds < 120) return t('clock.sec', { n: Number.isInteger(seconds) ? seconds : seconds.toFixed(1) });
  return t('clock.min', { n: Math.round((seconds / 60) * 10) / 10 });
}

/**
 * A table's time control in words: the clock per decision, and the time bank if any.
 * @param {number} clock seconds per decision
 * @param {number} bank seconds of time bank per seat
 * @returns {string}
 */
export function clockText(clock, bank) {
  return bank > 0 ? t('clock.with_bank', { clock: duration(clock), bank: duration(bank) }) : t('clock.per_decision', { clock: duration(clock) });
}
