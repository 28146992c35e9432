// Numeron ヌメロン: both players' panels (number, items, calls with EAT-BITE), the call pad
// for setting and calling a number, the items (attack and defence), DOUBLE's reveal and the
// defence window. docs/games/numeron.md describes the view and the actions.

import { h, replace } from '../lib/dom.js';
import { Board } from './base.js';
import { appear } from '../lib/motion.js';

/** @typedef {import('./base.js').BoardState} BoardState */
/** @typedef {import('./base.js').GameEvent} GameEvent */
/** @typedef {import('./base.js').Translate} Translate */

const ATTACK = ['double', 'high_low', 'target', 'slash'];
const DEFENCE = ['shuffle', 'change', 'move'];

/**
 * The place name of a position (0 = leftmost).
 * @param {Translate} t
 * @param {number} position
 * @param {number} digits
 */
function place(t, position, digits) {
  return t(`numeron.place.${digits - 1 - position}`);
}

export default class NumeronBoard extends Board {
  constructor() {
    super();
    /** The digits typed on the pad so far. */
    this.entry = '';
    /** @type {string | null} the defence item being composed */
    this.defence = null;
    this.phaseKey = '';
    /** How many judged calls each seat's table showed (a new judgement appears in motion). */
    this.shownCalls = /** @type {number[] | null} */ (null);
  }

  /** @param {BoardState} s */
  render(s) {
    const { view } = s;
    const digits = Number(view.rules?.digits || 3);
    // A new decision clears what was typed for the last one.
    const key = `${view.phase}/${view.turn}/${view.calls_left}/${s.turn ? s.turn.version : '-'}`;
    if (key !== this.phaseKey) {
      this.phaseKey = key;
      this.entry = '';
      this.defence = null;
    }
    this.classList.add('board', 'b-numeron');
    const seats = [0, 1];
    const mine = s.seat;
    const order = mine === 1 ? [1, 0] : seats;
    replace(
      this,
      h('p', { class: 'status', 'data-testid': 'numeron-status' }, this.statusLine(s, digits)),
      h('div', { class: 'players' }, order.map((p) => this.panel(s, p, digits))),
      s.mode === 'play' && s.turn ? this.controls(s, digits) : null,
      view.phase === 'over' ? this.result(s) : null,
    );
    const counts = seats.map((p) => this.querySelectorAll(`[data-testid=calls-${p}] tbody tr`).length);
    if (this.shownCalls) {
      for (const p of seats) {
        const rows = this.querySelectorAll(`[data-testid=calls-${p}] tbody tr`);
        for (let i = this.shownCalls[p]; i < rows.length; i++) appear(rows[i]);
      }
    }
    this.shownCalls = counts;
  }

  /**
   * @param {BoardState} s
   * @param {number} digits
   */
  statusLine(s, digits) {
    const { view, t } = s;
    const parts = [t('numeron.digits', { n: digits })];
    if (view.turn) parts.push(t('numeron.turn', { n: view.turn }));
    parts.push(t(`numeron.phase.${view.phase}`));
    const acting = (view.to_act || []).filter((/** @type {number} */ x) => x >= 0);
    if (view.phase !== 'over' && acting.length) parts.push(t('board.to_act', { names: acting.map((/** @type {number} */ x) => this.name(x)).join(', ') }));
    if (view.last_turn) parts.push(t('numeron.last_turn'));
    return parts.join(' · ');
  }

  /**
   * One player's side of the table.
   * @param {BoardState} s
   * @param {number} p
   * @param {number} digits
   */
  panel(s, p, digits) {
    const { view, t } = s;
    const over = view.phase === 'over';
    /** @type {string | null} */
    let number = null;
    if (over && view.numbers) number = view.numbers[p];
    else if (s.seat === p) number = view.my_number ?? null;
    const role = view.attacker === p ? t('numeron.attacker') : view.attacker === 1 - p ? t('numeron.defender') : '';
    const items = (view.items && view.items[p]) || [];
    /** @type {GameEvent[]} */
    const log = view.log || [];
    const calls = log.filter((e) => e.kind === 'call' && e.data.seat === p);
    const notes = log.filter(
      (e) =>
        (e.kind === 'item_result' && e.data.seat === p) ||
        (e.kind === 'revealed' && e.data.owner === 1 - p) ||
        (e.kind === 'item' && e.data.seat === 1 - p && DEFENCE.includes(e.data.item)),
    );
    const tiles = [];
    for (let i = 0; i < digits; i++) {
      const d = number ? number[i] : null;
      tiles.push(h('span', { class: d === null ? 'tile hidden' : 'tile', 'aria-label': d === null ? t('numeron.hidden_digit') : d }, d === null ? '?' : d));
    }
    const winner = over && view.winner === p;
    return h(
      'section',
      { class: `side${s.seat === p ? ' me' : ''}${winner ? ' winner' : ''}`, 'data-seat': p, 'aria-label': t('board.seat_of', { name: this.name(p) }) },
      h('h3', {}, this.name(p), role ? h('span', { class: 'role' }, role) : null, s.seat === p ? h('span', { class: 'you' }, t('board.you')) : null),
      h('div', { class: 'number', 'data-testid': `number-${p}` }, tiles),
      view.phase === 'setup' && view.set ? h('p', { class: 'small' }, view.set[p] ? t('numeron.has_set') : t('numeron.setting')) : null,
      items.length ? h('ul', { class: 'items', 'aria-label': t('numeron.items') }, items.map((/** @type {string} */ i) => h('li', { class: ATTACK.includes(i) ? 'atk' : 'def' }, t(`numeron.item.${i}`)))) : null,
      view.strikes && view.strikes[p] ? h('p', { class: 'small' }, t('numeron.strikes', { n: view.strikes[p] })) : null,
      h(
        'table',
        { class: 'calls', 'data-testid': `calls-${p}` },
        h('caption', {}, t('numeron.calls')),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, t('numeron.call')), h('th', { scope: 'col' }, 'EAT'), h('th', { scope: 'col' }, 'BITE'))),
        h(
          'tbody',
          {},
          calls.map((e, i) =>
            h('tr', { class: e.data.eat === digits ? 'hit' : '' }, h('td', {}, String(i + 1)), h('td', { class: 'mono' }, e.data.number), h('td', {}, String(e.data.eat)), h('td', {}, String(e.data.bite))),
          ),
        ),
      ),
      notes.length ? h('ul', { class: 'notes' }, notes.map((e) => h('li', {}, eventText(e, t, s.players, s.view) || e.text))) : null,
    );
  }

  /**
   * The controls of this seat's decision.
   * @param {BoardState} s
   * @param {number} digits
   */
  controls(s, digits) {
    const { view, t } = s;
    const phase = view.phase;
    const me = /** @type {number} */ (s.seat);
    const items = (view.items && view.items[me]) || [];
    /** @type {(HTMLElement | null)[]} */
    const body = [];
    if (phase === 'setup') body.push(this.pad(s, digits, 'set'));
    else if (phase === 'call') body.push(this.pad(s, digits, 'call'), view.calls_left > 1 ? h('p', {}, t('numeron.calls_left', { n: view.calls_left })) : null);
    else if (phase === 'attack_item') {
      body.push(
        h('p', {}, t('numeron.choose_attack')),
        h(
          'div',
          { class: 'buttons' },
          h('button', { type: 'button', 'data-key': 'no_item', disabled: !this.canAct, onclick: () => this.act({ type: 'no_item' }) }, t('numeron.no_item')),
          [...new Set(items)]
            .filter((i) => ['double', 'high_low', 'slash'].includes(i))
            .map((i) => h('button', { type: 'button', 'data-key': `item-${i}`, disabled: !this.canAct, onclick: () => this.act({ type: i }) }, t(`numeron.item.${i}`))),
        ),
        items.includes('target') ? this.targetPicker(s) : null,
      );
    } else if (phase === 'reveal') {
      const mine = view.my_number || '';
      body.push(
        h('p', {}, t('numeron.choose_reveal', { name: this.name(view.attacker) })),
        h(
          'div',
          { class: 'buttons' },
          Array.from({ length: digits }, (_, p) =>
            h('button', { type: 'button', 'data-key': `reveal-${p}`, disabled: !this.canAct, onclick: () => this.act({ type: 'reveal', position: p }) }, place(t, p, digits)),
          ),
        ),
        h('p', { class: 'small' }, t('numeron.reveal_hint', { number: mine })),
      );
    } else if (phase === 'defence') body.push(this.defenceControls(s, digits, items));
    return h('section', { class: 'controls', 'aria-label': t('board.your_move') }, h('h3', {}, t('board.your_move')), body);
  }

  /**
   * The number pad: distinct digits, then Set or Call.
   * @param {BoardState} s
   * @param {number} digits
   * @param {'set' | 'call' | 'shuffle'} type
   * @param {string} [only] digits allowed (shuffle: one's own)
   */
  pad(s, digits, type, only) {
    const { t } = s;
    const entry = this.entry;
    const keys = [];
    for (const d of '1234567890') {
      const used = entry.includes(d) || (only !== undefined && !only.includes(d));
      keys.push(
        h('button', { type: 'button', class: 'key', 'data-key': `pad-${d}`, disabled: used || entry.length >= digits || !this.canAct, onclick: () => this.press(d) }, d),
      );
    }
    const full = entry.length === digits;
    const submit = () => {
      if (type === 'shuffle') this.act({ type: 'shuffle', number: this.entry });
      else this.act({ type, number: this.entry });
    };
    return h(
      'div',
      { class: 'pad-wrap' },
      h('p', { id: 'pad-help', class: 'small' }, t(`numeron.pad.${type}`, { n: digits })),
      h('output', { class: 'entry', 'aria-live': 'polite', 'data-testid': 'entry', 'aria-label': t('numeron.entry') }, Array.from({ length: digits }, (_, i) => h('span', { class: 'tile' }, entry[i] ?? '·'))),
      h('div', { class: 'pad', role: 'group', 'aria-describedby': 'pad-help' }, keys),
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'button', 'data-key': 'pad-back', disabled: !entry || !this.canAct, onclick: () => this.back() }, t('numeron.back')),
        h('button', { type: 'button', 'data-key': 'pad-clear', disabled: !entry || !this.canAct, onclick: () => this.clear() }, t('numeron.clear')),
        h('button', { type: 'button', class: 'primary', 'data-key': 'pad-submit', 'data-testid': 'pad-submit', disabled: !full || !this.canAct, onclick: submit }, t(`numeron.submit.${type}`)),
      ),
    );
  }

  /** @param {BoardState} s */
  targetPicker(s) {
    const { t } = s;
    const select = h('select', { id: 'numeron-target', 'data-key': 'target-digit' }, Array.from({ length: 10 }, (_, d) => h('option', { value: d }, String(d))));
    return h(
      'div',
      { class: 'inline' },
      h('label', { for: 'numeron-target' }, t('numeron.target_digit')),
      select,
      h('button', { type: 'button', 'data-key': 'item-target', disabled: !this.canAct, onclick: () => this.act({ type: 'target', digit: Number(select.value) }) }, t('numeron.item.target')),
    );
  }

  /**
   * The defence window: decline, or SHUFFLE / CHANGE / MOVE.
   * @param {BoardState} s
   * @param {number} digits
   * @param {string[]} items
   */
  defenceControls(s, digits, items) {
    const { view, t } = s;
    const number = String(view.my_number || '');
    const available = DEFENCE.filter((i) => items.includes(i));
    const choose = (/** @type {string | null} */ item) => {
      this.defence = item;
      this.entry = '';
      this.refresh();
    };
    /** @type {HTMLElement | null} */
    let form = null;
    const positions = Array.from({ length: digits }, (_, p) => h('option', { value: p }, `${place(t, p, digits)} (${number[p]})`));
    if (this.defence === 'shuffle') form = this.pad(s, digits, 'shuffle', number);
    else if (this.defence === 'change') {
      const pos = h('select', { id: 'change-pos', 'data-key': 'change-pos' }, positions);
      const digit = h('select', { id: 'change-digit', 'data-key': 'change-digit' });
      const fill = () => {
        const old = Number(number[Number(pos.value)]);
        const high = old >= 5;
        replace(digit, Array.from({ length: 10 }, (_, d) => d).filter((d) => (d >= 5) === high && !number.includes(String(d))).map((d) => h('option', { value: d }, String(d))));
      };
      pos.addEventListener('change', fill);
      fill();
      form = h(
        'div',
        { class: 'inline' },
        h('label', { for: 'change-pos' }, t('numeron.position')),
        pos,
        h('label', { for: 'change-digit' }, t('numeron.new_digit')),
        digit,
        h('button', { type: 'button', class: 'primary', 'data-key': 'change-go', disabled: !this.canAct, onclick: () => this.act({ type: 'change', position: Number(pos.value), digit: Number(digit.value) }) }, t('numeron.item.change')),
      );
    } else if (this.defence === 'move') {
      const src = h('select', { id: 'move-src', 'data-key': 'move-src' }, positions);
      const dst = h('select', { id: 'move-dst', 'data-key': 'move-dst' }, positions.map((o) => /** @type {HTMLOptionElement} */ (o.cloneNode(true))));
      dst.value = '1';
      const amount = h('input', { id: 'move-amount', type: 'number', min: 1, max: 9, value: 1, 'data-key': 'move-amount' });
      form = h(
        'div',
        { class: 'inline' },
        h('label', { for: 'move-src' }, t('numeron.move_from')),
        src,
        h('label', { for: 'move-dst' }, t('numeron.move_to')),
        dst,
        h('label', { for: 'move-amount' }, t('numeron.move_amount')),
        amount,
        h('button', { type: 'button', class: 'primary', 'data-key': 'move-go', disabled: !this.canAct, onclick: () => this.act({ type: 'move', source: Number(src.value), target: Number(dst.value), amount: Number(amount.value) }) }, t('numeron.item.move')),
      );
    }
    return h(
      'div',
      {},
      h('p', {}, t('numeron.defence_window')),
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'button', 'data-key': 'decline', disabled: !this.canAct, onclick: () => this.act({ type: 'decline' }) }, t('numeron.decline')),
        available.map((i) => h('button', { type: 'button', 'data-key': `def-${i}`, 'aria-pressed': String(this.defence === i), disabled: !this.canAct, onclick: () => choose(i) }, t(`numeron.item.${i}`))),
      ),
      form,
    );
  }

  /** @param {BoardState} s */
  result(s) {
    const { view, t } = s;
    const text = view.winner === null || view.winner === undefined ? t('board.draw') : t('board.winner', { name: this.name(view.winner) });
    return h('p', { class: 'result', 'data-testid': 'board-result' }, text, view.end ? ` (${t(`numeron.end.${view.end}`)})` : '');
  }

  /** @param {string} d */
  press(d) {
    const s = this.state;
    if (!s || !this.canAct) return;
    const digits = Number(s.view.rules?.digits || 3);
    if (this.entry.length < digits && !this.entry.includes(d)) this.entry += d;
    this.refresh();
  }

  back() {
    this.entry = this.entry.slice(0, -1);
    this.refresh();
  }

  clear() {
    this.entry = '';
    this.refresh();
  }

  /**
   * Typing digits, Backspace, Escape and Enter work anywhere on the board.
   * @param {KeyboardEvent} ev
   * @returns {boolean}
   */
  shortcut(ev) {
    const s = this.state;
    if (!s || !this.canAct || !['setup', 'call', 'defence'].includes(s.view.phase)) return false;
    if (s.view.phase === 'defence' && this.defence !== 'shuffle') return false;
    if (/^[0-9]$/.test(ev.key)) {
      const only = s.view.phase === 'defence' ? String(s.view.my_number || '') : '0123456789';
      if (only.includes(ev.key)) this.press(ev.key);
      return true;
    }
    if (ev.key === 'Backspace') {
      this.back();
      return true;
    }
    if (ev.key === 'Escape' && this.entry) {
      this.clear();
      return true;
    }
    if (ev.key === 'Enter') {
      const submit = /** @type {HTMLButtonElement | null} */ (this.querySelector('[data-key="pad-submit"]'));
      if (submit && !submit.disabled) submit.click();
      return true;
    }
    return false;
  }

  /** @param {Translate} t @returns {[string, string][]} */
  shortcuts(t) {
    return [
      ['0–9', t('keys.numeron.digits')],
      ['Backspace', t('keys.numeron.back')],
      ['Esc', t('keys.numeron.clear')],
      ['Enter', t('keys.numeron.submit')],
    ];
  }
}

/**
 * An event in the current language (null: use the engine's English text).
 * @param {GameEvent} e
 * @param {Translate} t
 * @param {string[]} players
 * @param {any} [view] the latest view (for the number of digits)
 * @returns {string | null}
 */
export function eventText(e, t, players, view) {
  const digits = Number(view?.rules?.digits || 3);
  const d = e.data || {};
  const name = (/** @type {number} */ seat) => players[seat] ?? String(seat);
  switch (e.kind) {
    case 'set':
      return d.by_host ? t('numeron.ev.set_host', { name: name(d.seat) }) : t('numeron.ev.set', { name: name(d.seat) });
    case 'number':
      return t('numeron.ev.number', { number: d.number });
    case 'coin':
      return t('numeron.ev.coin', { name: name(d.first) });
    case 'turn':
      return t(d.last_turn ? 'numeron.ev.turn_last' : 'numeron.ev.turn', { n: d.turn, name: name(d.attacker) });
    case 'decline':
      return t('numeron.ev.decline', { name: name(d.seat) });
    case 'call':
      return t('numeron.ev.call', { name: name(d.seat), number: d.number, eat: d.eat, bite: d.bite });
    case 'item':
      return t('numeron.ev.item', { name: name(d.seat), item: t(`numeron.item.${d.item}`) }) + (d.digit !== undefined && d.item === 'target' ? ` ${d.digit}` : '');
    case 'item_result':
      if (d.item === 'high_low') return t('numeron.ev.high_low', { result: (d.result || []).join(' ') });
      if (d.item === 'slash') return t('numeron.ev.slash', { result: d.result });
      if (d.item === 'target') {
        return d.position === null || d.position === undefined
          ? t('numeron.ev.target_out', { digit: d.digit })
          : t('numeron.ev.target_in', { digit: d.digit, place: place(t, d.position, digits) });
      }
      return null;
    case 'reveal':
      return t('numeron.ev.reveal', { name: name(d.seat), owner: name(d.owner), place: place(t, d.position, digits) });
    case 'revealed':
      return t('numeron.ev.revealed', { owner: name(d.owner), place: place(t, d.position, digits), digit: d.digit });
    case 'timeout':
      return t('board.ev.timeout', { name: name(d.seat) });
    case 'lost_call':
      return t('numeron.ev.lost_call', { name: name(d.seat) });
    case 'forfeit':
      return t('numeron.ev.forfeit', { name: name(d.seat) });
    case 'numeron':
      return t('numeron.ev.numeron', { name: name(d.seat) });
    case 'game_over':
      return d.winner === null || d.winner === undefined
        ? t('numeron.ev.over_draw', { numbers: (d.numbers || []).join(' / ') })
        : t('numeron.ev.over', { name: name(d.winner), numbers: (d.numbers || []).join(' / ') });
    default:
      return null;
  }
}

customElements.define('dennou-board-numeron', NumeronBoard);
