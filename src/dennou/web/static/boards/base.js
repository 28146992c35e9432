// The base of every game board. See README.md in this folder for the interface.

import { channelName } from '../lib/widgets.js';

/**
 * @typedef {{kind: string, text: string, data: Record<string, any>}} GameEvent
 * @typedef {{type: 'turn', table: string, version: number, seat: number, view: any,
 *   legal: any[] | null, legal_count: number, legal_description?: any,
 *   legal_sample?: any[] | null, channels: string[], deadline: number, time_limit: number}} Turn
 * @typedef {{scores: number[], ranks: number[], teams: any, detail: Record<string, any>}} Outcome
 * @typedef {(key: string, params?: Record<string, string | number>) => string} Translate
 * @typedef {{
 *   game: string,
 *   view: any,
 *   seat: number | null,
 *   players: string[],
 *   turn: Turn | null,
 *   outcome: Outcome | null,
 *   mode: 'play' | 'watch' | 'replay',
 *   busy: boolean,
 *   t: Translate,
 *   lang: string,
 * }} BoardState
 */

/** The event boards dispatch when the person chooses an action. */
export const ACT_EVENT = 'board-act';

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Create an SVG element (maps and charts: positions go in attributes, never in inline styles).
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {...(Node | string)} children strings become text
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

/**
 * A talk event as a line of the event log: "[channel] name: text" (the text stays text).
 * @param {Record<string, any>} data the talk event's data (`channel`, `name`, `text`)
 * @param {string[]} players
 * @returns {string}
 */
export function talkText(data, players) {
  return `[${channelName(String(data.channel), players)}] ${data.name}: ${data.text}`;
}

export class Board extends HTMLElement {
  constructor() {
    super();
    /** @type {BoardState | null} */
    this._state = null;
    this.addEventListener('keydown', (ev) => this.key(ev));
  }

  connectedCallback() {
    // The board itself takes the focus (Tab reaches it; actions leave the focus on it), so
    // typed shortcuts always reach it.
    if (!this.hasAttribute('tabindex')) this.tabIndex = 0;
  }

  /** @returns {BoardState | null} */
  get state() {
    return this._state;
  }

  /**
   * Set by the page whenever anything changes; the board renders again.
   * @param {BoardState} value
   */
  set state(value) {
    this._state = value;
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const inside = Boolean(focused && (focused === this || this.contains(focused)));
    const key = focused && focused !== this && inside ? focused.dataset.key : undefined;
    this.render(value);
    if (!inside || (focused && focused.isConnected && document.activeElement === focused)) return;
    // Keyboard users keep their place: focus the control with the same data-key again, or,
    // when it is gone or disabled (a digit typed, an action on its way), the board itself:
    // the focus never falls to the page's body.
    if (key) {
      const again = /** @type {HTMLElement | null} */ (this.querySelector(`[data-key="${CSS.escape(key)}"]`));
      if (again && !(again instanceof HTMLButtonElement && again.disabled)) {
        again.focus();
        return;
      }
    }
    this.focus({ preventScroll: true });
  }

  /**
   * A key pressed on the board (or on the page's body, which the table page passes on): the
   * board's own shortcuts first, then Enter confirms with the board's one primary button.
   * Keys typed into a field are the field's.
   * @param {KeyboardEvent} ev
   */
  key(ev) {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target;
    const field = target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
    if (!field && this.shortcut(ev)) {
      ev.preventDefault();
      return;
    }
    if (!this.canAct) return;
    if (ev.key === 'Enter' && !(target instanceof HTMLButtonElement) && !(target instanceof HTMLTextAreaElement)) {
      const primary = /** @type {NodeListOf<HTMLButtonElement>} */ (this.querySelectorAll('button.primary:not([disabled])'));
      if (primary.length === 1) {
        primary[0].click();
        ev.preventDefault();
      }
      return;
    }
    // A digit typed on the board goes to its amount (the one number field), as in a form.
    const amount = /** @type {NodeListOf<HTMLInputElement>} */ (this.querySelectorAll('input[type=number]:not([disabled])'));
    if (!field && /^[0-9]$/.test(ev.key) && amount.length === 1) {
      amount[0].value = ev.key;
      amount[0].dispatchEvent(new Event('input', { bubbles: true }));
      amount[0].focus();
      ev.preventDefault();
    }
  }

  /**
   * The board's own keys; true when the key was used.
   * @param {KeyboardEvent} ev
   * @returns {boolean}
   */
  shortcut(ev) {
    void ev;
    return false;
  }

  /**
   * The board's keys for the help overlay: [keys, what they do] in the current language
   * (Enter, Tab and ? are the page's and listed by it).
   * @param {Translate} t
   * @returns {[string, string][]}
   */
  shortcuts(t) {
    void t;
    return [];
  }

  /**
   * Draw the board from the state (replace the children; never assign HTML text).
   * @param {BoardState} state
   */
  render(state) {
    void state;
    throw new Error('a board implements render(state)');
  }

  /** Draw again from the same state (after a change of the board's own, e.g. a selection). */
  refresh() {
    if (this._state) this.state = this._state;
  }

  /**
   * Send an action for this seat (the page sends it with the turn's version).
   * @param {any} action the game's action JSON
   */
  act(action) {
    this.dispatchEvent(new CustomEvent(ACT_EVENT, { detail: { action }, bubbles: true }));
  }

  /**
   * Whether the person may act now: a turn is due and nothing is in flight.
   * @returns {boolean}
   */
  get canAct() {
    const s = this._state;
    return Boolean(s && s.mode === 'play' && s.turn && !s.busy);
  }

  /**
   * The legal actions of the turn of a given type (empty when none is listed).
   * @param {string} [type]
   * @returns {any[]}
   */
  legal(type) {
    const s = this._state;
    if (!s || !s.turn) return [];
    const list = s.turn.legal || s.turn.legal_sample || [];
    return type ? list.filter((a) => a.type === type) : list;
  }

  /**
   * A seat's name (or "seat N").
   * @param {number | null | undefined} seat
   * @returns {string}
   */
  name(seat) {
    const s = this._state;
    if (seat === null || seat === undefined || !s) return '—';
    return s.players[seat] ?? s.t('board.seat', { seat });
  }
}
