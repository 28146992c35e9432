// 10-card stud 10カードスタッド: nobody decides; the board is for watching. Each seat's five
// door cards and five hole cards (face down until the weakest turns one up), the hand each
// shows now and where it stands, everyone's live odds of winning the pot (a bar per seat and a
// chart of the odds over the hand), the pot and the stacks, and the showdown.
// docs/games/stud10.md describes the view.

import { h, replace } from '../lib/dom.js';
import { Board, svg } from './base.js';

/** @typedef {import('./base.js').BoardState} BoardState */
/** @typedef {import('./base.js').GameEvent} GameEvent */
/** @typedef {import('./base.js').Translate} Translate */

const SUITS = { c: '♣', d: '♦', h: '♥', s: '♠' };
/** Ranks by the evaluator's number (0 = deuce … 12 = ace), as printed on a card. */
const RANK_TEXT = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];

/**
 * A card's rank as printed ('T' is 10).
 * @param {string} card e.g. 'Td'
 */
function rankOf(card) {
  const r = card.slice(0, -1);
  return r === 'T' ? '10' : r;
}

/**
 * A face-up card.
 * @param {string} card
 * @param {Translate} t
 * @param {string} [extra] more classes
 */
export function cardEl(card, t, extra = '') {
  const suit = /** @type {keyof typeof SUITS} */ (card.slice(-1));
  const rank = rankOf(card);
  return h(
    'span',
    { class: `card suit-${suit}${extra ? ` ${extra}` : ''}`, role: 'img', 'aria-label': t('stud10.card', { rank: t(`stud10.rank.${card.slice(0, -1)}`), suit: t(`stud10.suit.${suit}`) }), 'data-card': card },
    h('span', { class: 'rank' }, rank),
    h('span', { class: 'suit' }, SUITS[suit]),
  );
}

/**
 * Cards as text for the log: ♠A ♥10.
 * @param {string[]} cards
 */
function cardsText(cards) {
  return cards.map((c) => `${SUITS[/** @type {keyof typeof SUITS} */ (c.slice(-1))]}${rankOf(c)}`).join(' ');
}

/**
 * A hand's score in words: its category (translated) and its five ranks, e.g. "one pair J-J-K-5-4".
 * The score is the evaluator's: category << 20 | the deciding ranks in 4-bit nibbles.
 * @param {number} score
 * @param {Translate} t
 */
export function handText(score, t) {
  const cat = Math.floor(score / (1 << 20));
  const payload = score % (1 << 20);
  const nib = (/** @type {number} */ count) => Array.from({ length: count }, (_, i) => (payload >> (4 * (count - 1 - i))) & 15);
  /** @type {number[]} */
  let five;
  switch (cat) {
    case 8:
    case 4:
      return `${t(`stud10.cat.${cat}`)} ${payload === 12 && cat === 8 ? t('stud10.royal') : t('stud10.high', { rank: RANK_TEXT[payload] })}`;
    case 7: {
      const [q, k] = nib(2);
      five = [q, q, q, q, k];
      break;
    }
    case 6: {
      const [a, b] = nib(2);
      five = [a, a, a, b, b];
      break;
    }
    case 3: {
      const [a, ...k] = nib(3);
      five = [a, a, a, ...k];
      break;
    }
    case 2: {
      const [a, b, k] = nib(3);
      five = [a, a, b, b, k];
      break;
    }
    case 1: {
      const [a, ...k] = nib(4);
      five = [a, a, ...k];
      break;
    }
    default:
      five = nib(5);
  }
  return `${t(`stud10.cat.${cat}`)} ${five.map((r) => RANK_TEXT[r]).join('-')}`;
}

/**
 * A probability as a percentage.
 * @param {number} p
 */
function pct(p) {
  return `${(100 * p).toFixed(1)}%`;
}


export default class Stud10Board extends Board {
  constructor() {
    super();
    /** @type {Map<number, number[]> | null} the odds each view showed, by the log's length */
    this.oddsSeen = null;
  }

  /** @param {BoardState} s */
  render(s) {
    this.classList.add('board', 'b-stud10');
    const { view } = s;
    /** @type {any[]} */
    const seats = view.seats || [];
    replace(
      this,
      this.status(s),
      seats.length ? this.chart(s) : null,
      h(
        'ol',
        { class: 'seats', 'aria-label': s.t('stud10.table') },
        seats.map((_, p) => this.seat(s, p)),
      ),
      view.phase === 'over' || view.phase === 'deal' ? this.result(s) : null,
    );
  }

  /** @param {BoardState} s */
  status(s) {
    const { view, t } = s;
    const rules = view.rules || {};
    const parts = [];
    if (view.hand) parts.push(rules.hands && rules.hands > 1 ? t('stud10.hand_of', { n: view.hand, of: rules.hands }) : t('stud10.hand', { n: view.hand }));
    parts.push(t(`stud10.phase.${view.phase}`));
    const inHand = (view.in_hand || []).length;
    if (view.phase === 'reveal' || view.phase === 'over') {
      /** @type {any[]} */
      const seats = (view.seats || []).filter((/** @type {any} */ x) => x.in_hand);
      const up = seats.reduce((a, x) => a + (x.revealed || []).length, 0);
      parts.push(t('stud10.reveals', { n: up, total: seats.reduce((a, x) => a + (x.revealed || []).length + (x.holes || 0), 0) }));
    }
    return h(
      'div',
      { class: 'status' },
      h('p', { 'data-testid': 'stud10-status' }, parts.join(' · ')),
      h('p', { class: 'pot', 'data-testid': 'pot' }, h('span', { class: 'chip-icon', 'aria-hidden': 'true' }), t('stud10.pot', { n: view.phase === 'over' ? (this.lastShowdown(view)?.data.pot ?? view.pot ?? 0) : (view.pot ?? 0) }), inHand ? h('span', { class: 'small' }, ` ${t('stud10.ante', { n: rules.ante ?? 0 })}`) : null),
      s.seat !== null && view.phase !== 'over' ? h('p', { class: 'small' }, t('stud10.no_decisions')) : null,
    );
  }

  /**
   * One seat at the table: name, stack, standing and odds; door cards and hole cards; the hand.
   * @param {BoardState} s
   * @param {number} p
   */
  seat(s, p) {
    const { view, t } = s;
    const info = view.seats[p];
    const over = view.phase === 'over';
    const odds = view.odds && view.odds.win ? view.odds.win[p] : null;
    const se = view.odds && view.odds.se ? view.odds.se[p] : 0;
    const revealing = (view.revealing || []).includes(p);
    const winners = over || view.phase === 'deal' ? this.winners(s) : [];
    const cls = ['seat', `c${p % 5}`];
    if (s.seat === p) cls.push('me');
    if (!info.in_hand) cls.push('out');
    if (revealing) cls.push('revealing');
    if (winners.includes(p)) cls.push('winner');
    /** @type {string[]} */
    const revealed = info.revealed || [];
    const fresh = this.lastRevealed(view);
    const holes = [];
    for (const c of revealed) holes.push(cardEl(c, t, `hole${fresh.includes(c) ? ' fresh' : ''}`));
    for (let i = 0; i < (info.holes || 0); i++) holes.push(h('span', { class: 'card back', role: 'img', 'aria-label': t('stud10.face_down') }));
    const standing = info.in_hand ? this.standing(view, p) : null;
    const bar = h('span', { class: 'fill' });
    if (odds !== null && odds !== undefined) bar.style.setProperty('width', pct(odds));
    return h(
      'li',
      { class: cls.join(' '), 'data-seat': p, 'aria-label': t('board.seat_of', { name: this.name(p) }) },
      h(
        'div',
        { class: 'info' },
        h('h3', {}, h('span', { class: 'dot', 'aria-hidden': 'true' }), this.name(p), s.seat === p ? h('span', { class: 'you' }, t('board.you')) : null),
        h('p', { class: 'stack' }, t('stud10.stack', { n: view.stacks ? view.stacks[p] : 0 }), standing ? h('span', { class: 'standing', title: t('stud10.standing_title') }, t('stud10.standing', { n: standing })) : null),
        info.in_hand && odds !== null && odds !== undefined
          ? h(
              'p',
              { class: 'odds', 'data-testid': `odds-${p}` },
              h('span', { class: 'bar', 'aria-hidden': 'true' }, bar),
              h('span', { class: 'num', title: se ? t('stud10.se', { se: (100 * se).toFixed(1) }) : '' }, t('stud10.win', { p: pct(odds) })),
            )
          : null,
        revealing && !over ? h('p', { class: 'badge next' }, t('stud10.reveals_next')) : null,
        winners.includes(p) ? h('p', { class: 'badge' }, t('stud10.wins_pot')) : null,
        !info.in_hand ? h('p', { class: 'small' }, t('stud10.sitting_out')) : null,
      ),
      info.in_hand
        ? h(
            'div',
            { class: 'hand' },
            h('div', { class: 'row door', role: 'group', 'aria-label': t('stud10.door') }, h('span', { class: 'label' }, t('stud10.door')), (info.door || []).map((/** @type {string} */ c) => cardEl(c, t))),
            h('div', { class: 'row holes', role: 'group', 'aria-label': t('stud10.holes', { n: info.holes || 0 }) }, h('span', { class: 'label' }, t('stud10.hole')), holes),
            h('p', { class: 'showing', 'data-testid': `showing-${p}` }, info.strength !== undefined && info.strength !== null ? handText(info.strength, t) : ''),
          )
        : null,
    );
  }

  /**
   * The place of a seat's face-up hand among the seats in the hand (ties share a place).
   * @param {any} view
   * @param {number} p
   */
  standing(view, p) {
    const mine = view.seats[p].strength;
    return 1 + view.seats.filter((/** @type {any} */ x) => x.in_hand && x.strength > mine).length;
  }

  /**
   * The cards turned up at the last step (to mark them).
   * @param {any} view
   * @returns {string[]}
   */
  lastRevealed(view) {
    /** @type {GameEvent[]} */
    const log = view.log || [];
    const out = [];
    for (let i = log.length - 1; i >= 0; i--) {
      const e = log[i];
      if (e.kind === 'odds') {
        if (out.length) break;
        continue;
      }
      if (e.kind !== 'reveal') break;
      out.push(e.data.card);
    }
    return out;
  }

  /**
   * The winners of the last showdown.
   * @param {BoardState} s
   * @returns {number[]}
   */
  winners(s) {
    const e = this.lastShowdown(s.view);
    return e ? e.data.winners : [];
  }

  /** @param {any} view */
  lastShowdown(view) {
    /** @type {GameEvent[]} */
    const log = view.log || [];
    for (let i = log.length - 1; i >= 0; i--) if (log[i].kind === 'showdown') return log[i];
    return null;
  }

  /**
   * The odds over the current hand: one line per seat, one point after the deal and after each
   * reveal (from the log's odds events), and the final shares at the showdown.
   * @param {BoardState} s
   */
  chart(s) {
    const { view, t } = s;
    /** @type {GameEvent[]} */
    const log = view.log || [];
    let start = 0;
    for (let i = log.length - 1; i >= 0; i--) {
      if (log[i].kind === 'deal') {
        start = i;
        break;
      }
    }
    // Views carry the odds of the moment only: the board keeps each one it was shown, by the
    // log's length then, so the chart fills as cards turn (a replay moving back drops the later).
    if (!this.oddsSeen) this.oddsSeen = new Map();
    const seen = this.oddsSeen;
    for (const at of [...seen.keys()]) if (at <= start || at > log.length) seen.delete(at);
    if (view.odds && Array.isArray(view.odds.win) && log.length > start) seen.set(log.length, view.odds.win);
    /** @type {number[][]} */
    const points = [];
    for (const at of [...seen.keys()].sort((a, b) => a - b)) points.push(/** @type {number[]} */ (seen.get(at)));
    for (const e of log.slice(start)) {
      if (e.kind === 'odds' && Array.isArray(e.data.win)) points.push(e.data.win);
      if (e.kind === 'showdown') points.push(e.data.payouts.map((/** @type {number} */ x) => (e.data.pot ? x / e.data.pot : 0)));
    }
    if (!points.length) return null;
    const n = view.seats.length;
    const inHand = view.seats.filter((/** @type {any} */ x) => x.in_hand).length;
    const steps = Math.max(5 * inHand, points.length - 1, 1);
    const W = 300;
    const H = 100;
    const x = (/** @type {number} */ i) => (i / steps) * W;
    const y = (/** @type {number} */ p) => H - p * H;
    const grid = [0.25, 0.5, 0.75].map((g) => svg('line', { x1: 0, x2: W, y1: y(g), y2: y(g), class: 'grid' }));
    const lines = [];
    for (let p = 0; p < n; p++) {
      if (!view.seats[p].in_hand) continue;
      const pts = points.map((w, i) => `${x(i).toFixed(1)},${y(w[p] ?? 0).toFixed(1)}`).join(' ');
      lines.push(svg('polyline', { points: pts, class: `line c${p % 5}${s.seat === p ? ' me' : ''}` }));
      const last = points[points.length - 1][p] ?? 0;
      lines.push(svg('circle', { cx: x(points.length - 1), cy: y(last), r: 2.5, class: `end c${p % 5}` }));
    }
    const method = view.odds ? (view.odds.method === 'exact' ? t('stud10.exact') : t('stud10.monte_carlo', { n: Number(view.odds.samples || 0).toLocaleString() })) : '';
    const summary = view.seats.map((/** @type {any} */ x2, /** @type {number} */ p) => (x2.in_hand && view.odds ? `${this.name(p)} ${pct(view.odds.win[p])}` : null)).filter(Boolean).join(', ');
    return h(
      'figure',
      { class: 'chart' },
      h('figcaption', {}, t('stud10.odds_title'), method ? h('span', { class: 'small' }, ` (${method})`) : null),
      svg(
        'svg',
        { viewBox: `-2 -4 ${W + 4} ${H + 8}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': `${t('stud10.odds_title')}: ${summary}` },
        svg('rect', { x: 0, y: 0, width: W, height: H, class: 'frame' }),
        ...grid,
        ...lines,
      ),
      h('div', { class: 'axis small', 'aria-hidden': 'true' }, h('span', {}, t('stud10.axis_deal')), h('span', {}, t('stud10.axis_showdown'))),
    );
  }

  /** @param {BoardState} s */
  result(s) {
    const { view, t } = s;
    const e = this.lastShowdown(view);
    // Between the hands of a session the last showdown stays on the table; the result is the end's.
    const final = view.phase === 'over';
    if (!e) return final ? h('p', { class: 'result', 'data-testid': 'board-result' }, t('board.over')) : null;
    const d = e.data;
    const names = d.winners.map((/** @type {number} */ w) => this.name(w)).join(', ');
    const hand = handText(d.scores[d.winners[0]], t);
    const text = d.winners.length > 1 ? t('stud10.split', { names, pot: d.pot, hand }) : t('stud10.won', { name: names, pot: d.pot, hand });
    const multi = (view.rules?.hands ?? 1) !== 1;
    return h(
      'div',
      { class: 'result-box' },
      h('p', final ? { class: 'result', 'data-testid': 'board-result' } : { class: 'result last-hand' }, final ? text : t('stud10.last_hand', { n: e.data.hand, text })),
      multi
        ? h(
            'p',
            { class: 'small' },
            t('stud10.stacks'),
            ' ',
            (view.stacks || []).map((/** @type {number} */ n, /** @type {number} */ p) => `${this.name(p)} ${n}`).join(' · '),
          )
        : null,
    );
  }
}

/**
 * An event in the current language (null: use the engine's English text).
 * @param {GameEvent} e
 * @param {Translate} t
 * @param {string[]} players
 * @param {any} [view] unused: the events say everything
 * @returns {string | null}
 */
export function eventText(e, t, players, view) {
  void view;
  const d = e.data || {};
  const name = (/** @type {number} */ seat) => players[seat] ?? String(seat);
  switch (e.kind) {
    case 'deal':
      return (
        t('stud10.ev.deal', { n: d.hand, players: (d.in_hand || []).length, pot: d.pot }) +
        ((d.sitting_out || []).length ? ` ${t('stud10.ev.sitting_out', { names: d.sitting_out.map(name).join(', ') })}` : '')
      );
    case 'door':
      return t('stud10.ev.door', { name: name(d.seat), cards: cardsText(d.cards || []) });
    case 'reveal':
      return t((d.tied || []).length > 1 ? 'stud10.ev.reveal_tied' : 'stud10.ev.reveal', { name: name(d.seat), card: cardsText([d.card]), n: d.holes });
    case 'odds':
      return t('stud10.ev.odds', {
        list: (d.win || [])
          .map((/** @type {number | null} */ w, /** @type {number} */ p) => (w === null ? null : `${name(p)} ${pct(w)}`))
          .filter(Boolean)
          .join(' · '),
      });
    case 'showdown': {
      const names = (d.winners || []).map(name).join(', ');
      const hand = handText(d.scores[d.winners[0]], t);
      return (d.winners || []).length > 1 ? t('stud10.split', { names, pot: d.pot, hand }) : t('stud10.won', { name: names, pot: d.pot, hand });
    }
    case 'session_over':
      return t('stud10.ev.session_over', { n: d.hands, stacks: (d.stacks || []).map((/** @type {number} */ n, /** @type {number} */ p) => `${name(p)} ${n}`).join(', ') });
    default:
      return null;
  }
}

customElements.define('dennou-board-stud10', Stud10Board);
