// Star Hi-Lo スター・ハイアンドロー: everyone's points this game, accounts (口座) and stars; the
// number line with what is known of the target (publicly, and to this seat with its secret
// results); the six choices of a turn with their costs and rewards (only those open now can be
// chosen) and the number X; the High/Low pick of a random guess; finished games with their
// revealed targets; the series' standings with half stars. docs/games/hilo.md describes the view.

import { h, replace } from '../lib/dom.js';
import { Board, svg } from './base.js';

/** @typedef {import('./base.js').BoardState} BoardState */
/** @typedef {import('./base.js').GameEvent} GameEvent */
/** @typedef {import('./base.js').Translate} Translate */

/** The six choices in the rules' order: action type and rule number. */
const CHOICES = [
  ['guess', '2.1'],
  ['random_guess', '2.2'],
  ['check', '2.3'],
  ['random_check', '2.4'],
  ['secret_guess_3', '2.5'],
  ['secret_guess_2', '2.6'],
];
/** Choices that need a number X. */
const WITH_X = ['guess', 'check', 'secret_guess_3', 'secret_guess_2'];
/** Choices that also need a direction. */
const WITH_DIRECTION = ['guess', 'secret_guess_3', 'secret_guess_2'];

/**
 * A number with separators.
 * @param {number} n
 */
function num(n) {
  return Number(n).toLocaleString('en-US');
}

/** @param {number} n */
function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/**
 * What is known of the target: an interval [lo, hi] less some single misses.
 * A 2.1/2.5/2.6 guess says "high": target > X (X itself counts wrong); a 2.2 random guess says
 * "high": target ≥ X (X itself counts right); a missed check removes X.
 * @typedef {{lo: number, hi: number, out: Set<number>}} Known
 */

/**
 * @param {Known} k
 * @param {string} action rule number
 * @param {number} x
 * @param {string} direction
 * @param {boolean} right
 */
function learn(k, action, x, direction, right) {
  const random = action === '2.2';
  // "the target is above" (strictly for named guesses, from X for random ones)
  const above = (direction === 'high') === right;
  if (above) k.lo = Math.max(k.lo, random ? (direction === 'high' ? x : x + 1) : direction === 'high' ? x + 1 : x);
  else k.hi = Math.min(k.hi, random ? (direction === 'high' ? x - 1 : x) : direction === 'high' ? x : x - 1);
}

/**
 * What the public results (and, for a seat, its own secret results) say of this game's target.
 * @param {any} view
 * @param {boolean} withSecrets
 * @returns {Known}
 */
export function known(view, withSecrets) {
  const k = { lo: 0, hi: Number(view.rules?.max_number ?? 0), out: new Set() };
  /** @type {GameEvent[]} */
  const log = view.log || [];
  for (const e of log) {
    const d = e.data || {};
    if (e.kind === 'guess' || e.kind === 'random_guess') learn(k, d.action, d.x, d.direction, d.right);
    else if ((e.kind === 'check' || e.kind === 'random_check') && !d.hit) k.out.add(d.x);
  }
  if (withSecrets) for (const s of view.my_secrets || []) learn(k, s.action, s.x, s.direction, s.right);
  return k;
}

/**
 * How many targets are still possible.
 * @param {Known} k
 */
function count(k) {
  if (k.hi < k.lo) return 0;
  let n = k.hi - k.lo + 1;
  for (const x of k.out) if (x >= k.lo && x <= k.hi) n -= 1;
  return n;
}


export default class HiloBoard extends Board {
  constructor() {
    super();
    /** @type {string | null} the choice being composed */
    this.choice = null;
    /** the number X as typed */
    this.x = '';
    this.decisionKey = '';
  }

  /** @param {BoardState} s */
  render(s) {
    const key = s.turn ? `${s.turn.version}` : '-';
    if (key !== this.decisionKey) {
      this.decisionKey = key;
      this.choice = null;
      this.x = '';
    }
    this.classList.add('board', 'b-hilo');
    replace(
      this,
      this.status(s),
      this.players(s),
      this.line(s),
      s.mode === 'play' && s.turn ? this.controls(s) : null,
      this.secrets(s),
      this.games(s),
      this.standings(s),
    );
  }

  /** @param {BoardState} s */
  status(s) {
    const { view, t } = s;
    const r = view.rules || {};
    const parts = [r.max_games ? t('hilo.game_of', { n: view.game_no, of: r.max_games }) : t('hilo.game', { n: view.game_no })];
    if (view.phase !== 'over' && view.round) parts.push(r.max_rounds ? t('hilo.round_of', { n: view.round, of: r.max_rounds }) : t('hilo.round', { n: view.round }));
    if (view.phase !== 'turn') parts.push(t(`hilo.phase.${view.phase}`));
    if (view.phase !== 'over' && view.turn !== null && view.turn !== undefined) parts.push(t('hilo.turn_of', { name: this.name(view.turn) }));
    return h('p', { class: 'status', 'data-testid': 'hilo-status' }, parts.join(' · '));
  }

  /** @param {BoardState} s */
  players(s) {
    const { view, t } = s;
    const r = view.rules || {};
    return h(
      'ol',
      { class: 'players', 'aria-label': t('hilo.players') },
      view.players.map((/** @type {string} */ _, /** @type {number} */ p) => {
        const points = view.points[p];
        const stars = view.stars[p];
        const cls = ['player'];
        if (s.seat === p) cls.push('me');
        if (view.turn === p && view.phase !== 'over') cls.push('turn');
        return h(
          'li',
          { class: cls.join(' '), 'data-seat': p },
          h('h3', {}, this.name(p), s.seat === p ? h('span', { class: 'you' }, t('board.you')) : null, view.first === p && view.phase !== 'over' ? h('span', { class: 'first', title: t('hilo.first_title') }, t('hilo.first')) : null),
          h('p', { class: `points${points < 0 ? ' neg' : ''}`, 'data-testid': `points-${p}` }, h('span', { class: 'label' }, t('hilo.points')), h('strong', {}, String(points))),
          h('p', { class: 'account' }, h('span', { class: 'label' }, t('hilo.account')), h('strong', {}, String(view.accounts[p]))),
          h('p', { class: 'stars', 'aria-label': t('hilo.stars_n', { n: stars }) }, h('span', { class: 'label' }, t('hilo.stars')), h('span', { class: 'star-row', 'aria-hidden': 'true' }, starGlyphs(stars, r.stars_to_win ?? 3))),
        );
      }),
    );
  }

  /**
   * The number line: the targets still possible (publicly, and for this seat), the guesses of
   * this game, a drawn X and, at the end, the target.
   * @param {BoardState} s
   */
  line(s) {
    const { view, t } = s;
    const max = Number(view.rules?.max_number ?? 1) || 1;
    const pub = known(view, false);
    const mine = s.seat !== null ? known(view, true) : null;
    const target = view.target;
    const range = (/** @type {Known} */ k) => (k.hi >= k.lo ? t('hilo.range', { lo: num(k.lo), hi: num(k.hi), n: num(count(k)) }) : t('hilo.range_empty'));
    // Once the candidates are a sliver of the whole range, a second line shows them up close.
    const focus = mine && mine.hi >= mine.lo ? mine : pub;
    const width = focus.hi - focus.lo + 1;
    let zoom = null;
    if (focus.hi >= focus.lo && width < max / 20) {
      const margin = Math.max(Math.ceil(width * 0.15), 1);
      const from = Math.max(0, focus.lo - margin);
      const to = Math.min(max, focus.hi + margin);
      zoom = [this.strip(s, from, to, pub, mine), h('div', { class: 'ends small', 'aria-hidden': 'true' }, h('span', {}, num(from)), h('span', {}, t('hilo.zoom')), h('span', {}, num(to)))];
    }
    return h(
      'section',
      { class: 'line', 'aria-label': t('hilo.knowledge') },
      h('h3', {}, t('hilo.knowledge')),
      this.strip(s, 0, max, pub, mine),
      h('div', { class: 'ends small', 'aria-hidden': 'true' }, h('span', {}, '0'), h('span', {}, num(max))),
      zoom,
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, h('span', { class: 'key public', 'aria-hidden': 'true' }), t('hilo.public_range')),
        h('dd', { 'data-testid': 'public-range' }, range(pub)),
        mine ? [h('dt', {}, h('span', { class: 'key mine', 'aria-hidden': 'true' }), t('hilo.my_range')), h('dd', { 'data-testid': 'my-range' }, range(mine))] : null,
        view.x !== null && view.x !== undefined ? [h('dt', {}, h('span', { class: 'key drawn', 'aria-hidden': 'true' }), t('hilo.drawn')), h('dd', { 'data-testid': 'drawn-x' }, num(view.x))] : null,
        target !== null && target !== undefined ? [h('dt', {}, h('span', { class: 'key target', 'aria-hidden': 'true' }), t('hilo.target')), h('dd', {}, num(target))] : null,
      ),
    );
  }

  /**
   * One strip of the number line from `from` to `to`: the candidates (public, and this seat's),
   * this game's guesses and checks, a drawn X and the target once revealed.
   * @param {BoardState} s
   * @param {number} from
   * @param {number} to
   * @param {Known} pub
   * @param {Known | null} mine
   */
  strip(s, from, to, pub, mine) {
    const { view } = s;
    const W = 1000;
    const X = (/** @type {number} */ v) => ((v - from) / (to - from + 1)) * W;
    const inside = (/** @type {number} */ v) => v >= from && v <= to;
    /** @type {Element[]} */
    const marks = [];
    const band = (/** @type {Known} */ k, /** @type {string} */ cls, /** @type {number} */ y, /** @type {number} */ hgt) => {
      const lo = Math.max(k.lo, from);
      const hi = Math.min(k.hi, to);
      if (hi >= lo) marks.push(svg('rect', { x: X(lo), y, width: Math.max(X(hi + 1) - X(lo), 2), height: hgt, class: cls }));
    };
    band(pub, 'public', 6, 28);
    if (mine) band(mine, 'mine', 14, 12);
    /** @type {GameEvent[]} */
    const log = view.log || [];
    for (const e of log) {
      const d = e.data || {};
      if (['guess', 'random_guess', 'check', 'random_check'].includes(e.kind) && inside(d.x)) marks.push(svg('line', { x1: X(d.x), x2: X(d.x), y1: 2, y2: 38, class: `tick ${e.kind}` }));
    }
    if (view.x !== null && view.x !== undefined && inside(view.x)) marks.push(svg('line', { x1: X(view.x), x2: X(view.x), y1: 0, y2: 40, class: 'drawn' }));
    if (view.target !== null && view.target !== undefined && inside(view.target)) marks.push(svg('line', { x1: X(view.target), x2: X(view.target), y1: 0, y2: 40, class: 'target' }));
    return svg('svg', { viewBox: `0 0 ${W} 40`, preserveAspectRatio: 'none', 'aria-hidden': 'true' }, svg('rect', { x: 0, y: 18, width: W, height: 4, class: 'axis' }), ...marks);
  }

  /**
   * This seat's decision: the six choices, then X and High/Low; or the pick of a random guess.
   * @param {BoardState} s
   */
  controls(s) {
    const { view, t } = s;
    const me = /** @type {number} */ (s.seat);
    const body = [];
    if (view.phase === 'pick') body.push(this.pick(s));
    else if (view.phase === 'turn') {
      /** @type {string[]} */
      const open = view.actions || [];
      body.push(
        h('p', { id: 'hilo-choose', class: 'small' }, t('hilo.choose', { n: view.points[me] })),
        h(
          'div',
          { class: 'choices', role: 'group', 'aria-labelledby': 'hilo-choose' },
          CHOICES.map(([type, id]) => {
            const ok = open.includes(type) && this.canAct;
            return h(
              'button',
              { type: 'button', class: `choice${this.choice === type ? ' chosen' : ''}`, 'data-key': `choice-${type}`, 'data-testid': `choice-${type}`, 'aria-pressed': String(this.choice === type), disabled: !ok, onclick: () => this.choose(type) },
              h('span', { class: 'id' }, id),
              h('span', { class: 'name' }, t(`hilo.action.${type}`)),
              h('span', { class: 'effect' }, effect(t, type, view.rules || {})),
            );
          }),
        ),
        this.choice ? this.form(s, this.choice) : null,
      );
    }
    return h('section', { class: 'controls', 'aria-label': t('board.your_move') }, h('h3', {}, t('board.your_move')), body);
  }

  /**
   * The form of a choice: X (when it needs one) and the buttons that send it.
   * @param {BoardState} s
   * @param {string} type
   */
  form(s, type) {
    const { view, t } = s;
    const max = Number(view.rules?.max_number ?? 0);
    if (!WITH_X.includes(type)) {
      return h('div', { class: 'form' }, h('p', {}, t(`hilo.about.${type}`)), h('button', { type: 'button', class: 'primary', 'data-key': 'send', 'data-testid': 'send', disabled: !this.canAct, onclick: () => this.act({ type }) }, t('hilo.ask_host')));
    }
    const k = known(view, true);
    const input = h('input', { id: 'hilo-x', type: 'number', inputmode: 'numeric', min: 0, max, step: 1, value: this.x, 'data-key': 'x', 'data-testid': 'x', autocomplete: 'off', 'aria-describedby': 'hilo-x-help' });
    /** @type {HTMLButtonElement[]} */
    const sends = [];
    const valid = () => {
      const v = input.value.trim();
      return /^\d+$/.test(v) && Number(v) <= max;
    };
    const update = () => {
      this.x = input.value;
      for (const b of sends) b.disabled = !this.canAct || !valid();
    };
    input.addEventListener('input', update);
    const set = (/** @type {number} */ v) => {
      input.value = String(v);
      update();
      input.focus();
    };
    const send = (/** @type {string | null} */ direction) => {
      if (!valid()) return;
      const x = Number(input.value.trim());
      this.act(direction ? { type, x, direction } : { type, x });
    };
    const mid = Math.floor((k.lo + k.hi) / 2);
    const helpers = [];
    if (k.hi >= k.lo) {
      helpers.push(h('button', { type: 'button', class: 'chip', 'data-key': 'x-mid', 'data-testid': 'x-mid', disabled: !this.canAct, onclick: () => set(mid) }, t('hilo.x_mid', { x: num(mid) })));
      if (type === 'check') helpers.push(h('button', { type: 'button', class: 'chip', 'data-key': 'x-low', disabled: !this.canAct, onclick: () => set(firstPossible(k)) }, t('hilo.x_first', { x: num(firstPossible(k)) })));
    }
    if (WITH_DIRECTION.includes(type)) {
      sends.push(
        h('button', { type: 'button', class: 'primary', 'data-key': 'high', 'data-testid': 'high', title: 'H', onclick: () => send('high') }, t('hilo.high')),
        h('button', { type: 'button', class: 'primary', 'data-key': 'low', 'data-testid': 'low', title: 'L', onclick: () => send('low') }, t('hilo.low')),
      );
    } else sends.push(h('button', { type: 'button', class: 'primary', 'data-key': 'send', 'data-testid': 'send', onclick: () => send(null) }, t('hilo.check_x')));
    for (const b of sends) b.disabled = !this.canAct || !valid();
    return h(
      'div',
      { class: 'form' },
      h('p', {}, t(`hilo.about.${type}`)),
      h('div', { class: 'inline' }, h('label', { for: 'hilo-x' }, t('hilo.x')), input, helpers),
      h('p', { id: 'hilo-x-help', class: 'small' }, t('hilo.x_help', { max: num(max) })),
      h('div', { class: 'buttons' }, sends),
    );
  }

  /**
   * The pick of a random guess: High (target ≥ X) or Low (target ≤ X), with how much of what
   * this seat thinks possible lies on each side.
   * @param {BoardState} s
   */
  pick(s) {
    const { view, t } = s;
    const x = Number(view.x);
    const k = known(view, true);
    const above = count({ lo: Math.max(k.lo, x), hi: k.hi, out: k.out });
    const below = count({ lo: k.lo, hi: Math.min(k.hi, x), out: k.out });
    const total = Math.max(count(k), 1);
    const share = (/** @type {number} */ n) => `${Math.round((100 * n) / total)}%`;
    return h(
      'div',
      { class: 'form' },
      h('p', {}, t('hilo.pick', { x: num(x) })),
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'button', class: 'primary', 'data-key': 'pick-high', 'data-testid': 'pick-high', title: 'H', disabled: !this.canAct, onclick: () => this.act({ type: 'pick', direction: 'high' }) }, t('hilo.pick_high'), h('span', { class: 'share' }, share(above))),
        h('button', { type: 'button', class: 'primary', 'data-key': 'pick-low', 'data-testid': 'pick-low', title: 'L', disabled: !this.canAct, onclick: () => this.act({ type: 'pick', direction: 'low' }) }, t('hilo.pick_low'), h('span', { class: 'share' }, share(below))),
      ),
      h('p', { class: 'small' }, t('hilo.pick_hint')),
    );
  }

  /** @param {string} type */
  choose(type) {
    this.choice = type;
    this.refresh();
    const first = /** @type {HTMLElement | null} */ (this.querySelector('#hilo-x') || this.querySelector('[data-key="send"]'));
    if (first) first.focus();
  }

  /**
   * H and L send High and Low when the buttons are there (not while typing X).
   * @param {KeyboardEvent} ev
   * @returns {boolean}
   */
  shortcut(ev) {
    if (!this.canAct) return false;
    const key = ev.key.toLowerCase();
    if (key !== 'h' && key !== 'l') return false;
    const which = key === 'h' ? ['pick-high', 'high'] : ['pick-low', 'low'];
    for (const k of which) {
      const b = /** @type {HTMLButtonElement | null} */ (this.querySelector(`[data-key="${k}"]`));
      if (b && !b.disabled) {
        b.click();
        return true;
      }
    }
    return false;
  }

  /** @param {Translate} t @returns {[string, string][]} */
  shortcuts(t) {
    return [
      ['H', t('keys.hilo.high')],
      ['L', t('keys.hilo.low')],
    ];
  }

  /** This seat's secret results this game (only its own). @param {BoardState} s */
  secrets(s) {
    const { view, t } = s;
    /** @type {any[]} */
    const mine = view.my_secrets || [];
    if (!mine.length) return null;
    return h(
      'section',
      { class: 'secrets', 'aria-label': t('hilo.my_secrets') },
      h('h3', {}, t('hilo.my_secrets')),
      h('ul', {}, mine.map((x) => h('li', {}, t('hilo.secret_line', { id: x.action, dir: t(`hilo.dir.${x.direction}`), x: num(x.x), result: t(x.right ? 'hilo.right' : 'hilo.wrong') })))),
    );
  }

  /** Finished games of the series, with their targets. @param {BoardState} s */
  games(s) {
    const { view, t } = s;
    /** @type {any[]} */
    const games = view.games || [];
    if (!games.length) return null;
    return h(
      'section',
      { class: 'past', 'aria-label': t('hilo.games') },
      h('h3', {}, t('hilo.games')),
      h(
        'div',
        { class: 'scroll', tabindex: 0 },
        h(
          'table',
          { 'data-testid': 'hilo-games' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, t('hilo.target')), h('th', { scope: 'col' }, t('hilo.end')), view.players.map((/** @type {string} */ _, /** @type {number} */ p) => h('th', { scope: 'col' }, this.name(p))))),
          h(
            'tbody',
            {},
            games.map((g) =>
              h(
                'tr',
                {},
                h('td', {}, String(g.game)),
                h('td', { class: 'mono' }, num(g.target)),
                h('td', {}, t(`hilo.end.${g.end}`), g.winner !== null && g.winner !== undefined ? ` — ${t('hilo.star_to', { name: this.name(g.winner), n: g.stars })}` : ''),
                g.points.map((/** @type {number} */ x) => h('td', { class: x < 0 ? 'neg' : '' }, signed(x))),
              ),
            ),
          ),
        ),
      ),
    );
  }

  /** The series' standings (5.1): stars, half stars from the account, points left. @param {BoardState} s */
  standings(s) {
    const { view, t } = s;
    /** @type {any[]} */
    const rows = view.standings || [];
    const over = view.phase === 'over';
    const leaders = rows.filter((r) => r.rank === 1).map((r) => r.name);
    return h(
      'section',
      { class: 'standings', 'aria-label': t('hilo.standings') },
      h('h3', {}, t('hilo.standings')),
      h(
        'div',
        { class: 'scroll', tabindex: 0 },
        h(
          'table',
          { 'data-testid': 'hilo-standings' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, t('table.rank')),
              h('th', { scope: 'col' }, t('board.player')),
              h('th', { scope: 'col' }, t('hilo.col.game_stars')),
              h('th', { scope: 'col' }, t('hilo.account')),
              h('th', { scope: 'col' }, t('hilo.col.half_stars')),
              h('th', { scope: 'col' }, t('hilo.col.stars_total')),
              h('th', { scope: 'col' }, t('hilo.col.points_left')),
            ),
          ),
          h(
            'tbody',
            {},
            rows.map((r) =>
              h(
                'tr',
                { class: `${r.name === view.players[s.seat ?? -1] ? 'me' : ''}${r.rank === 1 ? ' lead' : ''}` },
                h('td', {}, String(r.rank)),
                h('th', { scope: 'row' }, r.name, r.reached ? h('span', { class: 'badge' }, t('hilo.reached', { n: view.rules?.stars_to_win ?? 3 })) : null),
                h('td', {}, String(r.game_stars)),
                h('td', { class: r.account < 0 ? 'neg' : '' }, String(r.account)),
                h('td', {}, r.half_stars ? `${r.half_stars} × ½★` : '0'),
                h('td', { class: 'total' }, `${r.stars_total}★`),
                h('td', {}, String(r.points_left)),
              ),
            ),
          ),
        ),
      ),
      h('p', { class: 'small' }, t('hilo.ranking_rule', { n: view.rules?.half_star_points ?? 25 })),
      over ? h('p', { class: 'result', 'data-testid': 'board-result' }, t(leaders.length > 1 ? 'hilo.shared_win' : 'hilo.series_win', { name: leaders.join(', ') })) : null,
    );
  }
}

/**
 * Stars as glyphs: won ★ then still to win ☆ (up to the stars that end the series).
 * @param {number} n
 * @param {number} of
 */
function starGlyphs(n, of) {
  return '★'.repeat(Math.max(0, n)) + '☆'.repeat(Math.max(0, of - n));
}

/**
 * The first target still possible (for a check).
 * @param {Known} k
 */
function firstPossible(k) {
  let x = k.lo;
  while (k.out.has(x) && x < k.hi) x += 1;
  return x;
}

/**
 * A choice's cost and reward under the table's rules.
 * @param {Translate} t
 * @param {string} type
 * @param {any} r the rules
 */
function effect(t, type, r) {
  switch (type) {
    case 'guess':
      return t('hilo.effect.guess', { right: signed(r.guess_right), wrong: signed(r.guess_wrong) });
    case 'random_guess':
      return t('hilo.effect.random_guess', { right: signed(r.random_guess_right), wrong: signed(r.random_guess_wrong) });
    case 'check':
      return t('hilo.effect.check', { stars: r.check_stars, miss: signed(r.check_miss), min: r.check_min });
    case 'random_check':
      return t('hilo.effect.random_check', { stars: r.random_check_stars, miss: signed(r.random_check_miss), max: r.random_check_max });
    case 'secret_guess_3':
      return t('hilo.effect.secret', { cost: r.secret_guess_3_cost });
    default:
      return t('hilo.effect.secret', { cost: r.secret_guess_2_cost });
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
    case 'game_start':
      return t('hilo.ev.game_start', { n: d.game, name: name(d.first) });
    case 'fee':
      return t('hilo.ev.fee', { name: name(d.seat), delta: signed(d.delta), points: d.points });
    case 'guess':
    case 'random_guess':
      return t('hilo.ev.guess', { name: name(d.seat), id: d.action, dir: t(`hilo.dir.${d.direction}`), x: num(d.x), result: t(d.right ? 'hilo.right' : 'hilo.wrong'), delta: signed(d.delta), points: d.points });
    case 'random_request':
      return t('hilo.ev.random_request', { name: name(d.seat), id: d.action });
    case 'draw':
      return t('hilo.ev.draw', { name: name(d.seat), x: num(d.x) });
    case 'check':
    case 'random_check':
      return d.hit ? t('hilo.ev.check_hit', { name: name(d.seat), id: d.action, x: num(d.x) }) : t('hilo.ev.check_miss', { name: name(d.seat), id: d.action, x: num(d.x), delta: signed(d.delta), points: d.points });
    case 'secret_guess':
      return t('hilo.ev.secret_guess', { name: name(d.seat), id: d.action, delta: signed(d.delta), points: d.points });
    case 'secret_result':
      return t('hilo.ev.secret_result', { id: d.action, dir: t(`hilo.dir.${d.direction}`), x: num(d.x), result: t(d.right ? 'hilo.right' : 'hilo.wrong') });
    case 'everyone_loses':
      return t('hilo.ev.everyone_loses', { n: d.round });
    case 'max_rounds':
      return t('hilo.ev.max_rounds', { n: d.round });
    case 'game_over':
      return t('hilo.ev.game_over', {
        n: d.game,
        target: num(d.target),
        who: d.winner === null || d.winner === undefined ? t('hilo.nobody') : name(d.winner),
        accounts: (d.accounts || []).map((/** @type {number} */ a, /** @type {number} */ p) => `${name(p)} ${a}`).join(', '),
      });
    case 'series_over':
      return t('hilo.ev.series_over', { list: (d.standings || []).map((/** @type {any} */ r) => `${r.rank}. ${r.name} ${r.stars_total}★`).join(', ') });
    case 'timeout':
      return t('board.ev.timeout', { name: name(d.seat) });
    default:
      return null;
  }
}

customElements.define('dennou-board-hilo', HiloBoard);
