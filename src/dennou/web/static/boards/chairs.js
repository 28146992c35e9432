// Musical Chairs イス取りゲーム (LIAR GAME): the island with the totem, the numbered chairs (lamps
// of the chairs taken in the last race, removed chairs, the way the runners ran), the players and
// the gaya with who has submitted, the person's medals; the person's decision — gifts and ready in
// the free phase, the chairs to run for (clicked on the map or in the list, with the running time)
// and a block in the go, the vote for the parent, the parent's removal; each period's record;
// the winner and what the medals pay. docs/games/chairs.md describes the view and the actions.

import { h, replace } from '../lib/dom.js';
import { Board, svg, talkText } from './base.js';

/** @typedef {import('./base.js').BoardState} BoardState */
/** @typedef {import('./base.js').GameEvent} GameEvent */
/** @typedef {import('./base.js').Translate} Translate */

/** Colours of the runners' paths, by place among the players. */
const RUNNERS = 6;


/**
 * Metres between two points.
 * @param {number[]} a
 * @param {number[]} b
 */
function dist(a, b) {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

/**
 * The same JSON action?
 * @param {any} a
 * @param {any} b
 */
function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** @param {number} s seconds */
function secs(s) {
  return `${s.toFixed(1)} s`;
}

export default class ChairsBoard extends Board {
  constructor() {
    super();
    /** @type {number[]} chairs of the order being composed */
    this.order = [];
    /** @type {'none' | 'chair' | 'player'} */
    this.blockMode = 'none';
    /** @type {number | null} */
    this.blockChair = null;
    /** @type {number | null} */
    this.blockPlayer = null;
    /** @type {number | null} chair chosen for removal */
    this.removal = null;
    this.giftTo = '';
    this.giftName = '';
    this.giftCount = '1';
    this.stepKey = '';
  }

  /** @param {BoardState} s */
  render(s) {
    const { view } = s;
    // Compositions last for a step (a period's phase), across the other people's submissions.
    const key = `${view.period}/${view.phase}`;
    if (key !== this.stepKey) {
      this.stepKey = key;
      this.order = [];
      this.blockMode = 'none';
      this.blockChair = null;
      this.blockPlayer = null;
      this.removal = null;
    }
    this.classList.add('board', 'b-chairs');
    replace(
      this,
      this.status(s),
      h('div', { class: 'top' }, this.map(s), this.people(s)),
      s.mode === 'play' && s.turn ? this.controls(s) : null,
      this.periods(s),
      this.gifts(s),
      view.phase === 'over' ? this.result(s) : null,
    );
  }

  /** @param {BoardState} s */
  status(s) {
    const { view, t } = s;
    const left = (view.playing || []).filter(Boolean).length;
    const parts = [t('chairs.period', { n: view.period, of: view.periods }), t(`chairs.phase.${view.phase}`), t('chairs.left', { players: left, chairs: (view.in_play || []).length })];
    return h('p', { class: 'status', 'data-testid': 'chairs-status' }, parts.join(' · '));
  }

  /**
   * The chairs this seat may run for now (in play, not the one it sat on last).
   * @param {any} view
   * @param {number} me
   * @returns {number[]}
   */
  allowed(view, me) {
    return (view.in_play || []).filter((/** @type {number} */ c) => c !== view.last_chair[me]);
  }

  /** What clicking a chair does now, or null. @param {BoardState} s */
  chairAction(s) {
    const { view } = s;
    const me = s.seat;
    if (!this.canAct || me === null) return null;
    if (view.phase === 'go' && view.playing[me] && !view.sealed_order[me]) return 'order';
    if (view.phase === 'go' && !view.sealed_block[me] && this.blockMode === 'chair') return 'block';
    if (view.phase === 'remove') return 'remove';
    return null;
  }

  /**
   * A chair clicked (on the map or in a list).
   * @param {BoardState} s
   * @param {number} chair
   */
  clickChair(s, chair) {
    const what = this.chairAction(s);
    const me = /** @type {number} */ (s.seat);
    if (what === 'order') {
      const i = this.order.indexOf(chair);
      if (i >= 0) this.order.splice(i, 1);
      else if (this.order.length < Number(s.view.rules.max_choices) && this.allowed(s.view, me).includes(chair)) this.order.push(chair);
    } else if (what === 'block') this.blockChair = chair;
    else if (what === 'remove') this.removal = chair;
    this.refresh();
  }

  /**
   * The island: totem, chairs, the last race's runs and blocks, the order being composed.
   * @param {BoardState} s
   */
  map(s) {
    const { view, t } = s;
    const R = Number(view.island?.radius || 1000);
    /** @type {number[][]} */
    const pos = view.positions || [];
    const P = (/** @type {number[]} */ p) => [p[0], -p[1]];
    const inPlay = new Set(view.in_play || []);
    /** @type {any} */
    const last = (view.history || [])[(view.history || []).length - 1];
    const showRace = last && last.race && view.phase !== 'go';
    const taken = new Set(showRace ? last.race.filter((/** @type {any} */ r) => r.chair !== null).map((/** @type {any} */ r) => r.chair) : []);
    const stood = new Set(showRace ? last.blocks.filter((/** @type {any} */ b) => b.chair !== undefined).map((/** @type {any} */ b) => b.chair) : []);
    const me = s.seat;
    const mine = me !== null && view.last_chair && view.phase !== 'over' ? view.last_chair[me] : null;
    const what = this.chairAction(s);
    const layers = [svg('circle', { r: R, class: 'island' }), svg('circle', { r: R * 0.5, class: 'contour' })];
    // the last race: each runner's legs from the totem
    if (showRace) {
      last.race.forEach((/** @type {any} */ run, /** @type {number} */ i) => {
        let at = [0, 0];
        const pts = [P(at)];
        for (const leg of run.legs) {
          at = pos[leg.chair - 1];
          pts.push(P(at));
        }
        if (pts.length > 1) layers.push(svg('polyline', { points: pts.map((p) => p.join(',')).join(' '), class: `run r${i % RUNNERS}${run.chair === null ? ' failed' : ''}` }));
      });
    }
    // the order being composed (or sealed)
    const order = this.order.length ? this.order : view.my_order || [];
    if (order.length) {
      const pts = [[0, 0], ...order.map((/** @type {number} */ c) => pos[c - 1])].map(P);
      layers.push(svg('polyline', { points: pts.map((p) => p.join(',')).join(' '), class: 'plan' }));
    }
    layers.push(svg('g', { class: 'totem' }, svg('rect', { x: -34, y: -60, width: 68, height: 120, rx: 8 }), svg('text', { y: 30, 'text-anchor': 'middle' }, 'T')));
    pos.forEach((p, i) => {
      const c = i + 1;
      const [x, y] = P(p);
      const cls = ['chair'];
      if (!inPlay.has(c)) cls.push('removed');
      if (taken.has(c)) cls.push('lit');
      if (stood.has(c)) cls.push('stood');
      if (c === mine) cls.push('mine');
      const k = order.indexOf(c);
      if (k >= 0) cls.push('planned');
      if (this.removal === c || (what === 'block' && this.blockChair === c)) cls.push('chosen');
      const g = svg('g', { class: cls.join(' '), transform: `translate(${x} ${y})` }, svg('circle', { r: 75 }), svg('text', { 'text-anchor': 'middle', dy: '0.35em' }, String(c)));
      if (k >= 0) g.append(svg('circle', { class: 'step', cx: 75, cy: -75, r: 52 }), svg('text', { class: 'step-no', x: 75, y: -75, dy: '0.35em', 'text-anchor': 'middle' }, String(k + 1)));
      if (!inPlay.has(c)) g.append(svg('path', { class: 'cross', d: 'M -50 -50 L 50 50 M 50 -50 L -50 50' }));
      if (what && inPlay.has(c)) {
        g.classList.add('pick');
        g.addEventListener('click', () => this.clickChair(s, c));
      }
      layers.push(g);
    });
    const pad = 120;
    return h(
      'figure',
      { class: 'map' },
      svg('svg', { viewBox: `${-R - pad} ${-R - pad} ${2 * (R + pad)} ${2 * (R + pad)}`, role: 'img', 'aria-label': t('chairs.map_label', { n: inPlay.size }) }, ...layers),
      h(
        'figcaption',
        { class: 'small legend' },
        showRace ? h('span', { class: 'k lit' }, t('chairs.key.lit')) : null,
        mine !== null && mine !== undefined ? h('span', { class: 'k mine' }, t('chairs.key.mine')) : null,
        h('span', { class: 'k removed' }, t('chairs.key.removed')),
        order.length ? h('span', { class: 'k plan' }, t('chairs.key.plan')) : null,
        showRace ? h('span', { class: 'k run' }, t('chairs.key.run', { n: last.period })) : null,
      ),
    );
  }

  /** Players and gaya: who has submitted, their last chair, the person's medals. @param {BoardState} s */
  people(s) {
    const { view, t } = s;
    const n = view.players.length;
    const row = (/** @type {number} */ p) => {
      const facts = [];
      if (view.phase === 'free' && view.ready) facts.push(view.ready[p] ? t('chairs.ready_done') : t('chairs.talking'));
      if (view.phase === 'go') {
        if (view.playing[p]) facts.push(view.sealed_order[p] ? t('chairs.order_sealed') : t('chairs.order_open'));
        facts.push(view.sealed_block[p] ? t('chairs.block_sealed') : t('chairs.block_open'));
      }
      if (view.phase === 'vote') facts.push(view.voted[p] ? t('chairs.voted') : t('chairs.voting'));
      if (view.last_chair && view.last_chair[p] !== null && view.playing[p]) facts.push(t('chairs.sat_on', { c: view.last_chair[p] }));
      const lastLog = (view.history || [])[(view.history || []).length - 1];
      if (lastLog && lastLog.parent === p && view.phase === 'remove') facts.push(t('chairs.parent'));
      if (view.winner === p) facts.push(t('chairs.winner'));
      return h('li', { class: `${p === s.seat ? 'me' : ''}${view.winner === p ? ' win' : ''}`, 'data-seat': p }, h('span', { class: 'name' }, this.name(p)), p === s.seat ? h('span', { class: 'you' }, t('board.you')) : null, facts.length ? h('span', { class: 'small' }, ` ${facts.join(' · ')}`) : null);
    };
    const seats = Array.from({ length: n }, (_, p) => p);
    const players = seats.filter((p) => view.playing[p]);
    const gaya = seats.filter((p) => !view.playing[p]);
    /** @type {number[] | undefined} */
    const medals = view.medals;
    return h(
      'div',
      { class: 'people' },
      h('section', { 'aria-label': t('chairs.players') }, h('h3', {}, t('chairs.players'), ` (${players.length})`), h('ul', { class: players.length > 6 ? 'many' : '', 'data-testid': 'chairs-players' }, players.map(row))),
      gaya.length ? h('section', { 'aria-label': t('chairs.gaya') }, h('h3', {}, t('chairs.gaya'), ` (${gaya.length})`), h('ul', { class: `gaya${gaya.length > 6 ? ' many' : ''}` }, gaya.map(row))) : null,
      medals
        ? h(
            'section',
            { class: 'medals', 'aria-label': t('chairs.my_medals') },
            h('h3', {}, t('chairs.my_medals')),
            h(
              'p',
              { 'data-testid': 'my-medals' },
              medals.some((m) => m > 0)
                ? medals.map((m, q) => (m ? h('span', { class: `medal${view.playing[q] ? '' : ' dead'}`, title: view.playing[q] ? '' : t('chairs.worthless') }, t('chairs.medal', { name: this.name(q), n: m })) : null))
                : t('chairs.no_medals'),
            ),
            h('p', { class: 'small' }, t('chairs.medal_value', { v: Number(view.rules.medal_value).toLocaleString() })),
          )
        : null,
    );
  }

  /** The person's decision in the current phase. @param {BoardState} s */
  controls(s) {
    const { view, t } = s;
    const me = /** @type {number} */ (s.seat);
    const parts = [];
    if (view.phase === 'free' && !view.ready[me]) parts.push(this.freeControls(s));
    if (view.phase === 'go') {
      if (view.playing[me] && !view.sealed_order[me]) parts.push(this.orderControls(s));
      if (!view.sealed_block[me]) parts.push(this.blockControls(s));
    }
    if (view.phase === 'vote' && !view.voted[me]) parts.push(this.voteControls(s));
    if (view.phase === 'remove') parts.push(this.removeControls(s));
    if (!parts.length) return null;
    return h('section', { class: 'controls', 'aria-label': t('board.your_move') }, h('h3', {}, t('board.your_move')), parts);
  }

  /**
   * Is this action listed as legal (when the turn lists them)?
   * @param {any} action
   */
  listed(action) {
    const turn = this.state?.turn;
    if (!turn || !turn.legal) return true;
    return turn.legal.some((/** @type {any} */ a) => same(a, action));
  }

  /** Gifts and ready. @param {BoardState} s */
  freeControls(s) {
    const { view, t } = s;
    const me = /** @type {number} */ (s.seat);
    const n = view.players.length;
    const left = Number(view.rules.gifts_per_phase) - Number(view.gifts_made || 0);
    /** @type {number[]} */
    const medals = view.medals || [];
    const others = Array.from({ length: n }, (_, p) => p).filter((p) => p !== me);
    const names = medals.map((m, q) => (m > 0 ? q : -1)).filter((q) => q >= 0);
    if (!names.includes(Number(this.giftName))) this.giftName = names.length ? String(names.includes(me) ? me : names[0]) : '';
    if (!others.includes(Number(this.giftTo)) || this.giftTo === '') this.giftTo = String(others[0] ?? '');
    const to = h('select', { id: 'gift-to', 'data-key': 'gift-to' }, others.map((p) => h('option', { value: p, selected: String(p) === this.giftTo }, `${this.name(p)}${view.playing[p] ? '' : ` (${t('chairs.gaya')})`}`)));
    const name = h('select', { id: 'gift-name', 'data-key': 'gift-name' }, names.map((q) => h('option', { value: q, selected: String(q) === this.giftName }, t('chairs.medal', { name: this.name(q), n: medals[q] }))));
    const held = () => medals[Number(name.value)] || 0;
    const count = h('input', { id: 'gift-count', type: 'number', min: 1, max: Math.max(1, held()), step: 1, value: this.giftCount, 'data-key': 'gift-count' });
    const give = h('button', { type: 'button', 'data-key': 'gift', 'data-testid': 'gift' }, t('chairs.give'));
    const action = () => ({ type: 'gift', to: Number(to.value), name: Number(name.value), count: Number(count.value) });
    const update = () => {
      this.giftTo = to.value;
      this.giftName = name.value;
      this.giftCount = count.value;
      count.max = String(Math.max(1, held()));
      const c = Number(count.value);
      give.disabled = !this.canAct || left <= 0 || !names.length || !Number.isInteger(c) || c < 1 || c > held() || !this.listed(action());
    };
    for (const el of [to, name, count]) el.addEventListener('input', update);
    give.addEventListener('click', () => {
      if (!give.disabled) this.act(action());
    });
    update();
    return h(
      'div',
      { class: 'part' },
      h('h4', {}, t('chairs.free_title')),
      h('p', { class: 'small' }, t('chairs.free_help', { n: left })),
      h('div', { class: 'inline' }, h('label', { for: 'gift-to' }, t('chairs.gift_to')), to, h('label', { for: 'gift-name' }, t('chairs.gift_name')), name, h('label', { for: 'gift-count' }, t('chairs.gift_count')), count, give),
      h('div', { class: 'buttons' }, h('button', { type: 'button', class: 'primary', 'data-key': 'ready', 'data-testid': 'ready', disabled: !this.canAct, onclick: () => this.act({ type: 'ready' }) }, t('chairs.ready'))),
    );
  }

  /** The chairs to run for, in order, with the running times. @param {BoardState} s */
  orderControls(s) {
    const { view, t } = s;
    const me = /** @type {number} */ (s.seat);
    /** @type {number[][]} */
    const pos = view.positions;
    const speed = Number(view.rules.speed || 5);
    const allowed = this.allowed(view, me);
    const max = Number(view.rules.max_choices);
    let at = [0, 0];
    let time = 0;
    const steps = this.order.map((c, i) => {
      time += dist(at, pos[c - 1]) / speed;
      at = pos[c - 1];
      return h('li', {}, t('chairs.step', { i: i + 1, c, s: secs(time) }));
    });
    const action = { type: 'order', chairs: [...this.order] };
    const byTime = [...allowed].sort((a, b) => dist([0, 0], pos[a - 1]) - dist([0, 0], pos[b - 1]));
    return h(
      'div',
      { class: 'part' },
      h('h4', {}, t('chairs.order_title')),
      h('p', { class: 'small' }, view.last_chair[me] === null ? t('chairs.order_help_first', { n: max }) : t('chairs.order_help', { n: max, last: view.last_chair[me] })),
      h(
        'div',
        { class: 'chair-buttons', role: 'group', 'aria-label': t('chairs.order_title') },
        byTime.map((c) =>
          h(
            'button',
            { type: 'button', class: 'chip chair-btn', 'data-key': `order-${c}`, 'data-testid': 'order-chair', 'data-chair': c, 'aria-pressed': String(this.order.includes(c)), disabled: !this.canAct || (!this.order.includes(c) && this.order.length >= max), onclick: () => this.clickChair(s, c) },
            h('strong', {}, String(c)),
            ` ${secs(dist([0, 0], pos[c - 1]) / speed)}`,
          ),
        ),
      ),
      steps.length ? h('ol', { class: 'plan-list' }, steps) : h('p', { class: 'small warn' }, t('chairs.order_empty')),
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'button', 'data-key': 'order-clear', disabled: !this.canAct || !this.order.length, onclick: () => { this.order = []; this.refresh(); } }, t('chairs.clear')),
        h('button', { type: 'button', class: 'primary', 'data-key': 'order-seal', 'data-testid': 'order-seal', disabled: !this.canAct || !this.listed(action), onclick: () => this.act(action) }, this.order.length ? t('chairs.seal_order', { list: this.order.join(' → ') }) : t('chairs.seal_stay')),
      ),
    );
  }

  /** One block: none, stand on a chair, or get in a player's way. @param {BoardState} s */
  blockControls(s) {
    const { view, t } = s;
    const me = /** @type {number} */ (s.seat);
    const n = view.players.length;
    const targets = Array.from({ length: n }, (_, p) => p).filter((p) => p !== me && view.playing[p]);
    /** @type {any} */
    let action = { type: 'no_block' };
    if (this.blockMode === 'chair') action = this.blockChair === null ? null : { type: 'block_chair', chair: this.blockChair };
    if (this.blockMode === 'player') action = this.blockPlayer === null ? null : { type: 'block_player', player: this.blockPlayer };
    const mode = (/** @type {'none' | 'chair' | 'player'} */ m) => {
      this.blockMode = m;
      this.refresh();
    };
    let pick = null;
    if (this.blockMode === 'chair') {
      pick = h(
        'div',
        { class: 'chair-buttons', role: 'group', 'aria-label': t('chairs.block_chair') },
        (view.in_play || []).map((/** @type {number} */ c) => h('button', { type: 'button', class: 'chip', 'data-key': `block-chair-${c}`, 'data-testid': 'block-chair', 'aria-pressed': String(this.blockChair === c), disabled: !this.canAct, onclick: () => { this.blockChair = c; this.refresh(); } }, String(c))),
      );
    } else if (this.blockMode === 'player') {
      pick = h(
        'div',
        { class: 'buttons', role: 'group', 'aria-label': t('chairs.block_player') },
        targets.map((p) => h('button', { type: 'button', class: 'chip', 'data-key': `block-player-${p}`, 'data-testid': 'block-player', 'aria-pressed': String(this.blockPlayer === p), disabled: !this.canAct, onclick: () => { this.blockPlayer = p; this.refresh(); } }, this.name(p))),
      );
    }
    return h(
      'div',
      { class: 'part' },
      h('h4', {}, t('chairs.block_title')),
      h('p', { class: 'small' }, t('chairs.block_help', { s: Number(view.rules.block_delay) })),
      h(
        'div',
        { class: 'buttons', role: 'group', 'aria-label': t('chairs.block_title') },
        /** @type {const} */ (['none', 'chair', 'player']).map((m) =>
          h('button', { type: 'button', 'data-key': `block-mode-${m}`, 'data-testid': `block-mode-${m}`, 'aria-pressed': String(this.blockMode === m), disabled: !this.canAct || (m === 'player' && !targets.length), onclick: () => mode(m) }, t(`chairs.block_mode.${m}`)),
        ),
      ),
      pick,
      h('div', { class: 'buttons' }, h('button', { type: 'button', class: 'primary', 'data-key': 'block-seal', 'data-testid': 'block-seal', disabled: !this.canAct || !action || !this.listed(action), onclick: () => action && this.act(action) }, t('chairs.seal_block'))),
    );
  }

  /** The vote for the parent. @param {BoardState} s */
  voteControls(s) {
    const { t } = s;
    return h(
      'div',
      { class: 'part' },
      h('h4', {}, t('chairs.vote_title')),
      h('p', { class: 'small' }, t('chairs.vote_help')),
      h(
        'div',
        { class: 'buttons', role: 'group', 'aria-label': t('chairs.vote_title') },
        this.legal('vote').map((a) => h('button', { type: 'button', 'data-key': `vote-${a.candidate}`, 'data-testid': 'vote', disabled: !this.canAct, onclick: () => this.act(a) }, t('chairs.vote_for', { name: this.name(a.candidate) }))),
        this.legal('abstain').length ? h('button', { type: 'button', 'data-key': 'abstain', 'data-testid': 'abstain', disabled: !this.canAct, onclick: () => this.act({ type: 'abstain' }) }, t('chairs.abstain')) : null,
      ),
    );
  }

  /** The parent removes a chair. @param {BoardState} s */
  removeControls(s) {
    const { view, t } = s;
    const chair = this.removal;
    return h(
      'div',
      { class: 'part' },
      h('h4', {}, t('chairs.remove_title')),
      h('p', { class: 'small' }, t('chairs.remove_help')),
      h(
        'div',
        { class: 'chair-buttons', role: 'group', 'aria-label': t('chairs.remove_title') },
        (view.in_play || []).map((/** @type {number} */ c) => h('button', { type: 'button', class: 'chip', 'data-key': `remove-${c}`, 'data-testid': 'remove-chair', 'aria-pressed': String(chair === c), disabled: !this.canAct, onclick: () => this.clickChair(s, c) }, String(c))),
      ),
      h('div', { class: 'buttons' }, h('button', { type: 'button', class: 'primary', 'data-key': 'remove', 'data-testid': 'remove', disabled: !this.canAct || chair === null || !this.listed({ type: 'remove', chair }), onclick: () => chair !== null && this.act({ type: 'remove', chair }) }, chair === null ? t('chairs.remove_pick') : t('chairs.remove', { c: chair }))),
    );
  }

  /** Each period: blocks, the race, the vote, the parent and the removed chair. @param {BoardState} s */
  periods(s) {
    const { view, t } = s;
    /** @type {any[]} */
    const hist = view.history || [];
    if (!hist.length) return null;
    return h(
      'section',
      { class: 'record', 'aria-label': t('chairs.record') },
      h('h3', {}, t('chairs.record')),
      h(
        'ol',
        { reversed: true, class: 'scroll', tabindex: 0, 'aria-label': t('chairs.record') },
        hist
          .slice()
          .reverse()
          .map((p) =>
            h(
              'li',
              {},
              h('strong', {}, t('chairs.period_no', { n: p.period })),
              h(
                'ul',
                {},
                (p.race || []).map((/** @type {any} */ r, /** @type {number} */ i) =>
                  h(
                    'li',
                    { class: `run-line r${i % RUNNERS}` },
                    h('span', { class: 'swatch', 'aria-hidden': 'true' }),
                    `${this.name(r.seat)}: `,
                    r.legs.map((/** @type {any} */ l) => t(`chairs.leg.${l.result}`, { c: l.chair, s: secs(l.time) })).join(' → ') || t('chairs.stayed'),
                    r.chair === null ? ` — ${t('chairs.out')}` : '',
                    r.blockers ? h('span', { class: 'small' }, ` (${t('chairs.blocked_by', { n: r.blockers })})`) : null,
                  ),
                ),
                p.blocks && p.blocks.length ? h('li', { class: 'small' }, t('chairs.blocks'), ' ', p.blocks.map((/** @type {any} */ b) => `${this.name(b.by)} → ${b.chair !== undefined ? t('chairs.chair_n', { c: b.chair }) : this.name(b.player)}`).join(', ')) : null,
                p.votes
                  ? h(
                      'li',
                      { class: 'small' },
                      t('chairs.votes', {
                        list: p.votes.map((/** @type {number} */ v, /** @type {number} */ q) => (v ? `${this.name(q)} ${v}` : null)).filter(Boolean).join(', ') || '—',
                        abstained: p.abstained,
                      }),
                    )
                  : null,
                p.parent !== null && p.parent !== undefined ? h('li', { class: 'small' }, t('chairs.parent_line', { name: this.name(p.parent) }), p.removed ? ` — ${t('chairs.removed', { c: p.removed })}` : '') : null,
              ),
            ),
          ),
      ),
    );
  }

  /** Gifts the person made or received (all, once over or when public). @param {BoardState} s */
  gifts(s) {
    const { view, t } = s;
    /** @type {any[]} */
    const list = view.gifts || [];
    if (!list.length) return null;
    return h(
      'section',
      { class: 'gift-list', 'aria-label': t('chairs.gifts') },
      h('h3', {}, t('chairs.gifts')),
      h('div', { class: 'scroll', tabindex: 0 }, h('ul', {}, list.map((g) => h('li', {}, t('chairs.gift_line', { p: g.period, giver: this.name(g.giver), to: this.name(g.to), n: g.count, name: this.name(g.name) }))))),
    );
  }

  /** The winner, and what each person's medals bearing the winner's name pay. @param {BoardState} s */
  result(s) {
    const { view, t } = s;
    const w = view.winner;
    const value = Number(view.rules.medal_value);
    /** @type {number[][] | undefined} */
    const holdings = view.holdings;
    const text = w === null || w === undefined ? t(`chairs.end.${view.end || 'periods'}`) : t('chairs.won', { name: this.name(w) });
    return h(
      'section',
      { class: 'ending' },
      h('p', { class: 'result', 'data-testid': 'board-result' }, text),
      holdings && w !== null && w !== undefined
        ? h(
            'div',
            { class: 'scroll', tabindex: 0 },
            h(
              'table',
              { 'data-testid': 'chairs-payouts' },
              h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('board.player')), h('th', { scope: 'col' }, t('chairs.medals_of', { name: this.name(w) })), h('th', { scope: 'col' }, t('chairs.payout')))),
              h(
                'tbody',
                {},
                holdings
                  .map((row, p) => ({ p, m: row[w] }))
                  .filter(({ p, m }) => m > 0 || p === s.seat || p === w)
                  .sort((a, b) => b.m - a.m)
                  .map(({ p, m }) => h('tr', { class: p === s.seat ? 'me' : '' }, h('th', { scope: 'row' }, this.name(p)), h('td', {}, String(m)), h('td', {}, (m * value).toLocaleString()))),
              ),
            ),
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
    case 'map':
      return t('chairs.ev.map', { n: (d.positions || []).length });
    case 'period':
      return t('chairs.ev.period', { n: d.period, players: (d.players || []).length, chairs: (d.chairs || []).length });
    case 'gift':
      return t('chairs.ev.gift', { giver: name(d.giver), to: name(d.to), n: d.count, name: name(d.name) });
    case 'ready':
      return t('chairs.ev.ready', { name: name(d.seat) });
    case 'go':
      return t('chairs.ev.go');
    case 'sealed':
      return t('chairs.ev.sealed', { name: name(d.seat) });
    case 'order':
      return t('chairs.ev.order', { list: (d.chairs || []).join(' → ') || t('chairs.stayed') });
    case 'block':
      return t('chairs.ev.block', { what: d.type === 'block_chair' ? t('chairs.chair_n', { c: d.chair }) : d.type === 'block_player' ? name(d.player) : t('chairs.block_mode.none') });
    case 'race':
      return t('chairs.ev.race');
    case 'seated':
      return t('chairs.ev.seated', { name: name(d.seat), c: d.chair, s: secs(d.time) });
    case 'eliminated':
      return t('chairs.ev.eliminated', { name: name(d.seat) });
    case 'race_result':
      return t('chairs.ev.race_result', { n: d.period });
    case 'vote':
      return t('chairs.ev.vote');
    case 'voted':
      return t('chairs.ev.voted', { name: name(d.seat) });
    case 'votes':
      return t('chairs.votes', { list: (d.votes || []).map((/** @type {number} */ v, /** @type {number} */ q) => (v ? `${name(q)} ${v}` : null)).filter(Boolean).join(', ') || '—', abstained: d.abstained });
    case 'parent':
      return t('chairs.parent_line', { name: name(d.parent) });
    case 'removed':
      return t('chairs.ev.removed', { name: name(d.parent), c: d.chair });
    case 'game_over':
      return d.winner === null || d.winner === undefined ? t(`chairs.end.${d.end || 'periods'}`) : t('chairs.won', { name: name(d.winner) });
    case 'talk':
      return talkText(d, players);
    case 'timeout':
      return t('board.ev.timeout', { name: name(d.seat) });
    default:
      return null;
  }
}

customElements.define('dennou-board-chairs', ChairsBoard);
