// The board for a game that has no board of its own yet: the view as a list of facts and the
// turn's legal actions as buttons (or, for large action spaces, a field for the action's text
// form with the server's description). Every game is playable with it.

import { h, replace } from '../lib/dom.js';
import { Board } from './base.js';

/** @typedef {import('./base.js').BoardState} BoardState */

/**
 * An action as text: its type then its fields ({"type": "call", "number": "123"} -> call 123).
 * @param {any} action
 * @returns {string}
 */
export function actionText(action) {
  if (typeof action !== 'object' || action === null) return String(action);
  const { type, ...rest } = action;
  const fields = Object.values(rest).map((v) => (Array.isArray(v) ? v.join(' ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)));
  return [type, ...fields].join(' ');
}

/**
 * A JSON value as short text.
 * @param {any} value
 */
function short(value) {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

export default class GenericBoard extends Board {
  /** @param {BoardState} s */
  render(s) {
    const { view, t } = s;
    this.classList.add('board', 'b-generic');
    const skip = new Set(['game', 'rules', 'players', 'log', 'talk']);
    const facts = view ? Object.entries(view).filter(([k]) => !skip.has(k)) : [];
    replace(
      this,
      h('dl', { class: 'facts' }, facts.map(([k, v]) => [h('dt', {}, k), h('dd', {}, short(v))])),
      s.mode === 'play' && s.turn ? this.controls(s) : null,
      view && view.phase === 'over' ? h('p', { class: 'result', 'data-testid': 'board-result' }, t('board.over')) : null,
    );
  }

  /** @param {BoardState} s */
  controls(s) {
    const { t } = s;
    const turn = /** @type {import('./base.js').Turn} */ (s.turn);
    if (turn.legal) {
      return h(
        'section',
        { class: 'controls', 'aria-label': t('board.your_move') },
        h('h3', {}, t('board.your_move')),
        h(
          'div',
          { class: 'buttons' },
          turn.legal.map((a, i) => h('button', { type: 'button', 'data-key': `legal-${i}`, 'data-testid': 'legal', disabled: !this.canAct, onclick: () => this.act(a) }, actionText(a))),
        ),
      );
    }
    const input = h('input', { id: 'generic-action', 'data-key': 'action-text', autocomplete: 'off' });
    const sample = turn.legal_sample || [];
    return h(
      'section',
      { class: 'controls', 'aria-label': t('board.your_move') },
      h('h3', {}, t('board.your_move')),
      h('p', { class: 'small' }, t('board.legal_count', { n: turn.legal_count }), ' ', short(turn.legal_description)),
      h(
        'form',
        {
          onsubmit: (/** @type {Event} */ ev) => {
            ev.preventDefault();
            if (input.value.trim()) this.act(input.value.trim());
          },
        },
        h('label', { for: 'generic-action' }, t('board.action_text')),
        input,
        h('button', { type: 'submit', disabled: !this.canAct }, t('board.send')),
      ),
      sample.length
        ? h('div', { class: 'buttons' }, h('span', { class: 'small' }, t('board.examples')), sample.slice(0, 8).map((a, i) => h('button', { type: 'button', class: 'chip', 'data-key': `sample-${i}`, disabled: !this.canAct, onclick: () => this.act(a) }, actionText(a))))
        : null,
    );
  }
}

customElements.define('dennou-board-generic', GenericBoard);
