// Daifugo 大富豪: everyone's seat (title, points, cards left, passed/out), the field with the
// plays since the last flush, revolution (革命) and the spade-3 return, the person's hand as
// cards to select and play (only legal plays can be sent), the exchange, and the set's
// standings (10 games, points). docs/games/daifugo.md describes the view and the actions.

import { h, replace } from '../lib/dom.js';
import { Board } from './base.js';
import { flyFrom } from '../lib/motion.js';

/** @typedef {import('./base.js').BoardState} BoardState */
/** @typedef {import('./base.js').GameEvent} GameEvent */
/** @typedef {import('./base.js').Translate} Translate */

const RANKS = ['3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A', '2'];
const SUITS = { s: '♠', h: '♥', d: '♦', c: '♣' };

/**
 * Rank index of a card (3 = 0 … 2 = 12, joker 13).
 * @param {string} card
 */
export function strength(card) {
  if (card === 'JK') return 13;
  return RANKS.indexOf(card.slice(0, -1));
}

/**
 * A card as an element: rank and suit, with a spoken label.
 * @param {string} card
 * @param {Translate} t
 * @param {{selected?: boolean, onclick?: () => void, disabled?: boolean, key?: string}} [opts]
 */
export function cardEl(card, t, opts = {}) {
  const joker = card === 'JK';
  const suit = joker ? '' : /** @type {keyof typeof SUITS} */ (card.slice(-1));
  const rank = joker ? '' : card.slice(0, -1);
  const label = joker ? `JK ${t('daifugo.joker')}` : t('daifugo.card', { suit: t(`daifugo.suit.${suit}`), rank });
  const face = joker ? [h('span', { class: 'rank' }, 'JK'), h('span', { class: 'suit' }, '★')] : [h('span', { class: 'rank' }, rank), h('span', { class: 'suit' }, SUITS[suit])];
  const cls = `card ${joker ? 'joker' : `suit-${suit}`}${opts.selected ? ' selected' : ''}`;
  if (opts.onclick) {
    return h('button', { type: 'button', class: cls, 'aria-pressed': String(Boolean(opts.selected)), 'aria-label': label, 'data-card': card, 'data-key': opts.key || `card-${card}`, disabled: Boolean(opts.disabled), onclick: opts.onclick }, face);
  }
  return h('span', { class: cls, role: 'img', 'aria-label': label, 'data-card': card }, face);
}

/**
 * Cards as text (for the log): ♠3 ♥10 JOKER.
 * @param {string[]} cards
 */
export function cardsText(cards) {
  return cards.map((c) => (c === 'JK' ? 'JOKER' : `${SUITS[/** @type {keyof typeof SUITS} */ (c.slice(-1))]}${c.slice(0, -1)}`)).join(' ');
}

/**
 * The same cards, in any order?
 * @param {string[]} a
 * @param {string[]} b
 */
function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort().join(' ');
  return x === [...b].sort().join(' ');
}

export default class DaifugoBoard extends Board {
  constructor() {
    super();
    /** @type {Set<string>} cards selected (jokers: 'JK#0', 'JK#1') */
    this.selected = new Set();
    this.decisionKey = '';
    /** What the field showed at the last drawing (a new play flies in from its player). */
    this.fieldKey = null;
  }

  /** @param {BoardState} s */
  render(s) {
    const { view } = s;
    const key = s.turn ? `${s.turn.version}` : '-';
    if (key !== this.decisionKey) {
      this.decisionKey = key;
      this.selected = new Set();
    }
    this.classList.add('board', 'b-daifugo');
    // Where the cards were: the seats, and one's own hand's cards (a play of one's own flies
    // from the hand).
    /** @type {Map<string, DOMRect>} */
    const before = new Map();
    for (const el of this.querySelectorAll('li.seat[data-seat], .hand button.card[data-card]')) {
      const k = el instanceof HTMLElement && el.dataset.card ? `card-${el.dataset.card}` : `seat-${el.getAttribute('data-seat')}`;
      if (!before.has(k)) before.set(k, el.getBoundingClientRect());
    }
    replace(
      this,
      this.header(s),
      this.seats(s),
      this.field(s),
      view.phase === 'exchange' ? this.exchange(s) : null,
      s.seat !== null && view.hand ? this.hand(s) : null,
      this.standings(s),
    );
    const layout = view.layout;
    const fieldKey = layout ? `${view.game_no}:${layout.seat}:${layout.cards.join(' ')}:${(view.field || []).length}` : '';
    if (this.fieldKey !== null && layout && fieldKey !== this.fieldKey) {
      const mine = s.seat === layout.seat;
      for (const el of this.querySelectorAll('[data-testid=field] .top .card')) {
        const card = el.getAttribute('data-card') || '';
        flyFrom(el, (mine && before.get(`card-${card}`)) || before.get(`seat-${layout.seat}`));
      }
    }
    this.fieldKey = fieldKey;
  }

  /** @param {BoardState} s */
  header(s) {
    const { view, t } = s;
    const parts = [t('daifugo.game_no', { n: view.game_no > view.rules.games ? view.rules.games : view.game_no, of: view.rules.games }), t(`daifugo.phase.${view.phase}`)];
    if (view.void_games) parts.push(t('daifugo.void', { n: view.void_games }));
    return h(
      'div',
      { class: 'status' },
      h('p', { 'data-testid': 'daifugo-status' }, parts.join(' · ')),
      view.revolution ? h('p', { class: 'badge revolution', 'data-testid': 'revolution' }, t('daifugo.revolution')) : null,
    );
  }

  /** @param {BoardState} s */
  seats(s) {
    const { view, t } = s;
    const order = view.order && view.order.length ? view.order : view.players.map((/** @type {string} */ _, /** @type {number} */ i) => i);
    return h(
      'ol',
      { class: 'seats', 'aria-label': t('daifugo.seats') },
      order.map((/** @type {number} */ p) => {
        const status = view.status ? view.status[p] : 'waiting';
        const place = (view.finished || []).indexOf(p);
        const title = view.titles ? view.titles[p] : null;
        return h(
          'li',
          { class: `seat st-${status}${s.seat === p ? ' me' : ''}${view.turn === p ? ' turn' : ''}`, 'data-seat': p },
          h('span', { class: 'name' }, this.name(p), s.seat === p ? h('span', { class: 'you' }, t('board.you')) : null),
          h('span', { class: 'title' }, title ? t(`daifugo.title.${title}`) : '—'),
          h('span', { class: 'count', 'aria-label': t('daifugo.cards_left', { n: view.counts ? view.counts[p] : 0 }) }, h('span', { class: 'back', 'aria-hidden': 'true' }), `×${view.counts ? view.counts[p] : 0}`),
          h('span', { class: 'points' }, t('daifugo.points', { n: signed(view.points ? view.points[p] : 0) })),
          h('span', { class: 'state' }, place >= 0 ? t('daifugo.out', { n: place + 1 }) : t(`daifugo.status.${status}`)),
        );
      }),
    );
  }

  /** @param {BoardState} s */
  field(s) {
    const { view, t } = s;
    const layout = view.layout;
    const trail = (view.field || []).slice(0, -1);
    return h(
      'section',
      { class: 'table-field', 'aria-label': t('daifugo.field'), 'data-testid': 'field' },
      h('h3', {}, t('daifugo.field')),
      layout
        ? h(
            'div',
            { class: 'top' },
            h('div', { class: 'cards' }, layout.cards.map((/** @type {string} */ c) => cardEl(c, t))),
            h('p', {}, t('daifugo.played_by', { name: this.name(layout.seat) }), layout.returned ? h('span', { class: 'badge' }, t('daifugo.spade3')) : null),
          )
        : h('p', { class: 'empty' }, t('daifugo.field_empty')),
      trail.length
        ? h('p', { class: 'trail small' }, t('daifugo.since_flush'), ' ', trail.map((/** @type {any} */ p) => `${this.name(p.seat)}: ${cardsText(p.cards)}`).join(' / '))
        : null,
      view.passed && view.passed.length ? h('p', { class: 'small' }, t('daifugo.passed', { names: view.passed.map((/** @type {number} */ p) => this.name(p)).join(', ') })) : null,
    );
  }

  /**
   * The hand: cards to select; Play / Pass (or Give in the exchange).
   * @param {BoardState} s
   */
  hand(s) {
    const { view, t } = s;
    /** @type {string[]} */
    const hand = view.hand || [];
    const exchanging = view.phase === 'exchange' && s.turn;
    const playing = view.phase === 'play' && s.turn;
    const can = this.canAct && (exchanging || playing);
    const ids = handIds(hand);
    const chosen = ids.filter((id) => this.selected.has(id.id)).map((id) => id.card);
    const legalPlays = this.legal('play');
    const legalPass = this.legal('pass').length > 0;
    const playOk = Boolean(playing && legalPlays.some((a) => sameCards(a.cards, chosen)));
    const toggle = (/** @type {string} */ id) => {
      if (this.selected.has(id)) this.selected.delete(id);
      else this.selected.add(id);
      this.refresh();
    };
    /** @type {(HTMLElement | null)[]} */
    const buttons = [];
    if (playing) {
      buttons.push(
        h('button', { type: 'button', class: 'primary', 'data-key': 'play', 'data-testid': 'play', disabled: !can || !playOk, onclick: () => this.act({ type: 'play', cards: chosen }) }, t('daifugo.play')),
        h('button', { type: 'button', 'data-key': 'pass', 'data-testid': 'pass', disabled: !can || !legalPass, onclick: () => this.act({ type: 'pass' }) }, t('daifugo.pass')),
      );
    }
    if (exchanging) {
      const check = this.giveCheck(s, hand, chosen);
      buttons.push(
        h('button', { type: 'button', class: 'primary', 'data-key': 'give', 'data-testid': 'give', disabled: !can || !check.ok, onclick: () => this.act({ type: 'give', cards: chosen }) }, t('daifugo.give', { n: check.count })),
        check.hint ? h('span', { class: 'small' }, check.hint) : null,
      );
    }
    return h(
      'section',
      { class: 'hand', 'aria-label': t('daifugo.your_hand') },
      h('h3', {}, t('daifugo.your_hand'), ` (${hand.length})`),
      h(
        'div',
        { class: 'cards', role: 'group', 'aria-label': t('daifugo.your_hand') },
        ids.map((id) => cardEl(id.card, t, { selected: this.selected.has(id.id), key: `card-${id.id}`, disabled: !can, onclick: () => toggle(id.id) })),
      ),
      buttons.length ? h('div', { class: 'buttons' }, buttons) : null,
      playing && legalPlays.length
        ? h(
            'div',
            { class: 'legal' },
            h('span', { class: 'small' }, t('daifugo.legal_plays')),
            ' ',
            legalPlays.map((a, i) =>
              h(
                'button',
                { type: 'button', class: 'chip', 'data-key': `legal-${i}`, 'data-testid': 'legal-play', disabled: !can, onclick: () => this.select(hand, a.cards) },
                cardsText(a.cards),
              ),
            ),
          )
        : null,
    );
  }

  /**
   * Select exactly these cards of the hand.
   * @param {string[]} hand
   * @param {string[]} cards
   */
  select(hand, cards) {
    const want = [...cards];
    this.selected = new Set();
    for (const id of handIds(hand)) {
      const i = want.indexOf(id.card);
      if (i >= 0) {
        this.selected.add(id.id);
        want.splice(i, 1);
      }
    }
    this.refresh();
  }

  /**
   * Whether the chosen cards are an honest exchange (a tribute gives the strongest).
   * @param {BoardState} s
   * @param {string[]} hand
   * @param {string[]} chosen
   * @returns {{ok: boolean, count: number, hint: string}}
   */
  giveCheck(s, hand, chosen) {
    const { t, turn } = s;
    const desc = (turn && turn.legal_description) || {};
    const count = Number(desc.count || 0);
    if (chosen.length !== count) return { ok: false, count, hint: t('daifugo.choose_n', { n: count }) };
    if (desc.kind === 'tribute') {
      const kept = [...hand];
      for (const c of chosen) kept.splice(kept.indexOf(c), 1);
      const weakestGiven = Math.min(...chosen.map(strength));
      if (kept.some((c) => strength(c) > weakestGiven)) return { ok: false, count, hint: t('daifugo.tribute_rule') };
    }
    return { ok: true, count, hint: '' };
  }

  /** @param {BoardState} s */
  exchange(s) {
    const { view, t } = s;
    /** @type {any[]} */
    const steps = view.exchange || [];
    if (!steps.length) return null;
    return h(
      'section',
      { class: 'exchange', 'aria-label': t('daifugo.exchange') },
      h('h3', {}, t('daifugo.exchange')),
      h(
        'ul',
        {},
        steps.map((st) =>
          h(
            'li',
            { class: st.done ? 'done' : '' },
            t(`daifugo.exchange.${st.kind}`, { giver: this.name(st.giver), receiver: this.name(st.receiver), n: st.count }),
            st.cards ? ` — ${cardsText(st.cards)}` : '',
            st.cheated ? ` (${t('daifugo.cheated')})` : '',
          ),
        ),
      ),
    );
  }

  /**
   * Keys: a rank (3-9, 0 or T for 10, J, Q, K, A, 2; X the joker) selects one more card of
   * that rank (once all are selected, the next press lets them go); Enter plays or gives the
   * selection; P (or Space on the board) passes; Escape clears the selection.
   * @param {KeyboardEvent} ev
   * @returns {boolean}
   */
  shortcut(ev) {
    const s = this.state;
    if (!s || !this.canAct || !s.turn || !['play', 'exchange'].includes(s.view.phase)) return false;
    const target = ev.target;
    const onControl = target instanceof HTMLButtonElement && !target.classList.contains('card');
    const key = ev.key.toUpperCase();
    const rank = key === '0' || key === 'T' ? '10' : key === 'X' ? 'JK' : RANKS.includes(key) ? key : null;
    if (rank) {
      this.pickRank(rank);
      return true;
    }
    if (key === 'ESCAPE' && this.selected.size) {
      this.selected = new Set();
      this.refresh();
      return true;
    }
    if (key === 'ENTER' && !onControl) return this.press(s.view.phase === 'play' ? 'play' : 'give');
    if (key === 'P' || (key === ' ' && !(target instanceof HTMLButtonElement))) return this.press('pass') || key === ' ';
    return false;
  }

  /**
   * Click one of the board's buttons if it is enabled.
   * @param {string} dataKey
   * @returns {boolean} whether it was clicked
   */
  press(dataKey) {
    const b = /** @type {HTMLButtonElement | null} */ (this.querySelector(`[data-key="${dataKey}"]`));
    if (!b || b.disabled) return false;
    b.click();
    return true;
  }

  /**
   * Select one more card of a rank, or let them all go once every one is selected.
   * @param {string} rank '3'…'2', or 'JK'
   */
  pickRank(rank) {
    const s = this.state;
    /** @type {string[]} */
    const hand = (s && s.view.hand) || [];
    const of = handIds(hand).filter((id) => (rank === 'JK' ? id.card === 'JK' : id.card !== 'JK' && id.card.slice(0, -1) === rank));
    if (!of.length) return;
    const next = of.find((id) => !this.selected.has(id.id));
    if (next) this.selected.add(next.id);
    else for (const id of of) this.selected.delete(id.id);
    this.refresh();
  }

  /** @param {Translate} t @returns {[string, string][]} */
  shortcuts(t) {
    return [
      ['3–9, 0 (T), J, Q, K, A, 2', t('keys.daifugo.rank')],
      ['X', t('keys.daifugo.joker')],
      ['Enter', t('keys.daifugo.play')],
      ['P, Space', t('keys.daifugo.pass')],
      ['Esc', t('keys.daifugo.clear')],
    ];
  }

  /** @param {BoardState} s */
  standings(s) {
    const { view, t } = s;
    /** @type {any[]} */
    const results = view.results || [];
    const n = view.players.length;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => view.points[b] - view.points[a]);
    return h(
      'section',
      { class: 'standings', 'aria-label': t('daifugo.standings') },
      h('h3', {}, t('daifugo.standings')),
      h(
        'div',
        { class: 'scroll', tabindex: 0 },
        h(
          'table',
          { 'data-testid': 'daifugo-standings' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('board.player')), results.map((r) => h('th', { scope: 'col' }, String(r.game))), h('th', { scope: 'col' }, t('daifugo.total')))),
          h(
            'tbody',
            {},
            order.map((p) =>
              h(
                'tr',
                { class: s.seat === p ? 'me' : '' },
                h('th', { scope: 'row' }, this.name(p)),
                results.map((r) => h('td', { title: r.titles[p] ? t(`daifugo.title.${r.titles[p]}`) : '' }, h('span', { class: 'kanji' }, titleShort(t, r.titles[p])), ` ${signed(r.points[p])}`)),
                h('td', { class: 'total' }, signed(view.points[p])),
              ),
            ),
          ),
        ),
      ),
      view.phase === 'over' ? h('p', { class: 'result', 'data-testid': 'board-result' }, t('board.winner', { name: this.name(order[0]) }), ` (${signed(view.points[order[0]])})`) : null,
    );
  }
}

/**
 * Hand cards with ids that tell the two jokers apart.
 * @param {string[]} hand
 * @returns {{card: string, id: string}[]}
 */
function handIds(hand) {
  let jokers = 0;
  return hand.map((card) => ({ card, id: card === 'JK' ? `JK${jokers++}` : card }));
}

/** @param {number} n */
function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/**
 * @param {Translate} t
 * @param {string | null} title
 */
function titleShort(t, title) {
  return title ? t(`daifugo.title.${title}`) : '—';
}

/**
 * An event in the current language (null: use the engine's English text).
 * @param {GameEvent} e
 * @param {Translate} t
 * @param {string[]} players
 * @param {any} [view] the latest view (unused: Daifugo's events say everything)
 * @returns {string | null}
 */
export function eventText(e, t, players, view) {
  void view;
  const d = e.data || {};
  const name = (/** @type {number} */ seat) => players[seat] ?? String(seat);
  switch (e.kind) {
    case 'deal':
      return t('daifugo.ev.deal', { n: d.game, name: name(d.order[0]) });
    case 'hand':
      return t('daifugo.ev.hand', { cards: cardsText(d.cards) });
    case 'lead':
      return t('daifugo.ev.lead', { name: name(d.seat) });
    case 'play': {
      const tags = [];
      if (d.revolts) tags.push(t(d.revolution ? 'daifugo.revolution' : 'daifugo.counter_revolution'));
      if (d.cut) tags.push(t('daifugo.eight_cut'));
      if (d.returned) tags.push(t('daifugo.spade3'));
      return t('daifugo.ev.play', { name: name(d.seat), cards: cardsText(d.cards) }) + (tags.length ? ` (${tags.join(', ')})` : '');
    }
    case 'pass':
      return t(d.auto ? 'daifugo.ev.pass_auto' : 'daifugo.ev.pass', { name: name(d.seat) });
    case 'flush':
      return t('daifugo.ev.flush');
    case 'out':
      return t('daifugo.ev.out', { name: name(d.seat), n: d.place });
    case 'exchange':
      return t(`daifugo.exchange.${d.kind}`, { giver: name(d.giver), receiver: name(d.receiver), n: (d.cards || []).length || d.count || '' }) + (d.cards ? ` — ${cardsText(d.cards)}` : '');
    case 'exchange_cards':
      return t('daifugo.ev.exchange_cards', { giver: name(d.giver), receiver: name(d.receiver), cards: cardsText(d.cards) });
    case 'cheat':
      return t('daifugo.ev.cheat', { name: name(d.seat), cards: cardsText(d.hand || []) });
    case 'timeout':
      return t('board.ev.timeout', { name: name(d.seat) });
    case 'game_end':
      return t('daifugo.ev.game_end', {
        n: d.game,
        summary: players.map((p, i) => `${p} ${titleShort(t, d.titles[i])} ${signed(d.points[i])}`).join(', '),
      });
    case 'set_end':
      return t('daifugo.ev.set_end', { summary: players.map((p, i) => `${p} ${signed(d.points[i])}`).join(', ') });
    default:
      return null;
  }
}

customElements.define('dennou-board-daifugo', DaifugoBoard);
