// Pandemic Game 感染ゲーム (LIAR GAME): the room of players with the contacts made (a graph),
// who has sealed this tick, the person's watch (what their check-room visits said), their diary
// of actions tick by tick (which contacts happened), the round announcements; the sealed action
// of a tick — contact someone, the check room, the cure switch, or nothing; at the end every
// status and vaccine count, the full history and who qualified. docs/games/pandemic.md describes
// the view and the actions.

import { h, replace } from '../lib/dom.js';
import { Board, svg, talkText } from './base.js';

/** @typedef {import('./base.js').BoardState} BoardState */
/** @typedef {import('./base.js').GameEvent} GameEvent */
/** @typedef {import('./base.js').Translate} Translate */



/**
 * The same action?
 * @param {any} a
 * @param {any} b
 */
function same(a, b) {
  return Boolean(a && b && a.type === b.type && (a.player ?? null) === (b.player ?? null));
}

/**
 * An action in a few words.
 * @param {Translate} t
 * @param {any} a
 * @param {(seat: number) => string} name
 */
function actionText(t, a, name) {
  if (!a) return '—';
  return a.type === 'contact' ? t('pandemic.act.contact_p', { name: name(a.player) }) : t(`pandemic.act.${a.type}`);
}

export default class PandemicBoard extends Board {
  constructor() {
    super();
    /** @type {any} the action chosen, not yet sealed */
    this.choice = null;
    this.decisionKey = '';
  }

  /** @param {BoardState} s */
  render(s) {
    const key = s.turn ? `${s.turn.version}` : '-';
    if (key !== this.decisionKey) {
      this.decisionKey = key;
      this.choice = null;
    }
    const { view } = s;
    const over = view.phase === 'over' || view.phase === 'tiebreak';
    this.classList.add('board', 'b-pandemic');
    replace(
      this,
      this.status(s),
      h('div', { class: 'top' }, this.graph(s), h('div', { class: 'side' }, s.seat !== null ? this.watch(s) : h('p', { class: 'small note' }, s.t('pandemic.spectator_note')), this.announcements(s))),
      s.mode === 'play' && s.turn ? this.controls(s) : null,
      this.people(s),
      s.seat !== null && !over ? this.diary(s) : null,
      view.history ? this.history(s) : null,
      view.phase === 'over' ? this.result(s) : null,
    );
  }

  /** @param {BoardState} s */
  status(s) {
    const { view, t } = s;
    const r = view.rules || {};
    const parts = [t('pandemic.round', { n: view.round, of: r.rounds }), t('pandemic.tick', { n: view.tick, of: r.ticks })];
    if (view.phase === 'tick') {
      const waiting = (view.submitted || []).filter((/** @type {boolean} */ x) => !x).length;
      parts.push(t('pandemic.waiting', { n: waiting }));
    } else parts.push(t(`pandemic.phase.${view.phase}`));
    return h('p', { class: 'status', 'data-testid': 'pandemic-status' }, parts.join(' · '));
  }

  /**
   * Contacts per pair of seats (the ones this seat may see).
   * @param {any} view
   * @returns {Map<string, {a: number, b: number, n: number, last: number}>}
   */
  pairs(view) {
    const ticks = Number(view.rules?.ticks || 8);
    /** @type {Map<string, {a: number, b: number, n: number, last: number}>} */
    const out = new Map();
    for (const c of view.contacts || []) {
      const [a, b] = [...c.players].sort((x, y) => x - y);
      const k = `${a}-${b}`;
      const at = (c.round - 1) * ticks + c.tick;
      const e = out.get(k) || { a, b, n: 0, last: 0 };
      e.n += 1;
      e.last = Math.max(e.last, at);
      out.set(k, e);
    }
    return out;
  }

  /**
   * The room: players on a ring, a line for every pair that touched (thicker for more; this
   * round's in colour); at the end each player's status and vaccines.
   * @param {BoardState} s
   */
  graph(s) {
    const { view, t } = s;
    const n = view.players.length;
    const R = 96;
    const pos = (/** @type {number} */ p) => {
      const a = -Math.PI / 2 + (2 * Math.PI * p) / n;
      return [R * Math.cos(a), R * Math.sin(a)];
    };
    const ticks = Number(view.rules?.ticks || 8);
    const now = (view.round - 1) * ticks + view.tick;
    const roundStart = (view.round - 1) * ticks;
    const edges = [];
    for (const e of this.pairs(view).values()) {
      const [x1, y1] = pos(e.a);
      const [x2, y2] = pos(e.b);
      const cls = ['edge'];
      if (e.a === s.seat || e.b === s.seat) cls.push('mine');
      if (e.last > roundStart) cls.push('recent');
      if (e.last >= now - 1 && view.phase === 'tick') cls.push('latest');
      edges.push(svg('line', { x1, y1, x2, y2, class: cls.join(' '), 'stroke-width': Math.min(1 + e.n, 5) }));
    }
    const nodes = [];
    const labels = n <= 12;
    for (let p = 0; p < n; p++) {
      const [x, y] = pos(p);
      const cls = ['node'];
      if (p === s.seat) cls.push('me');
      if (view.infected) cls.push(view.infected[p] ? 'infected' : 'normal');
      else if (view.submitted && view.submitted[p]) cls.push('sealed');
      if (this.choice && this.choice.type === 'contact' && this.choice.player === p) cls.push('chosen');
      if ((view.qualified || []).includes(p)) cls.push('qualified');
      const g = svg('g', { class: cls.join(' '), transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})` }, svg('circle', { r: 11 }), svg('text', { class: 'num', 'text-anchor': 'middle', dy: '0.35em' }, String(p)));
      if (view.vaccines) g.append(svg('circle', { class: 'vac-bg', cx: 11, cy: -10, r: 8 }), svg('text', { class: 'vac', x: 11, y: -10, dy: '0.35em', 'text-anchor': 'middle' }, String(view.vaccines[p])));
      if (labels) g.append(svg('text', { class: 'label', y: 22, 'text-anchor': 'middle' }, this.name(p).slice(0, 12)));
      // Clicking a person chooses to ask them for a contact (the list below does the same by keyboard).
      if (p !== s.seat && this.canAct && this.legal('contact').some((a) => a.player === p)) {
        g.classList.add('pick');
        g.addEventListener('click', () => this.choose({ type: 'contact', player: p }));
      }
      nodes.push(g);
    }
    const summary = t('pandemic.graph_summary', { n: (view.contacts || []).length });
    return h(
      'figure',
      { class: 'graph' },
      svg('svg', { viewBox: '-150 -118 300 246', role: 'img', 'aria-label': summary }, svg('circle', { r: R, class: 'ring' }), ...edges, ...nodes),
      h('figcaption', { class: 'small' }, summary, view.infected ? ` · ${t('pandemic.graph_end')}` : ''),
    );
  }

  /** What the person's watch has told them (their check-room visits), and what happened since. @param {BoardState} s */
  watch(s) {
    const { view, t } = s;
    /** @type {any[]} */
    const checks = view.checks || [];
    const me = /** @type {number} */ (s.seat);
    const last = checks[checks.length - 1];
    const ticks = Number(view.rules?.ticks || 8);
    const lastAt = last ? (last.round - 1) * ticks + last.tick : 0;
    const since = (view.contacts || []).filter((/** @type {any} */ c) => c.players.includes(me) && (c.round - 1) * ticks + c.tick > lastAt).length;
    const final = view.infected ? { infected: view.infected[me], vaccines: view.vaccines[me] } : null;
    const shown = final || last;
    return h(
      'section',
      { class: `watch${shown ? (shown.infected ? ' infected' : ' normal') : ''}`, 'aria-label': t('pandemic.watch'), 'data-testid': 'watch' },
      h('h3', {}, t('pandemic.watch')),
      shown
        ? h('p', { class: 'reading' }, h('strong', {}, t(shown.infected ? 'pandemic.infected' : 'pandemic.normal')), ' · ', t('pandemic.vaccines', { n: shown.vaccines }))
        : h('p', { class: 'reading unknown' }, h('strong', {}, '?'), ' ', t('pandemic.unknown')),
      final ? h('p', { class: 'small' }, t('pandemic.final_reading')) : last ? h('p', { class: 'small' }, t('pandemic.checked_at', { round: last.round, tick: last.tick })) : null,
      !final && last && since ? h('p', { class: 'small warn' }, t('pandemic.since_check', { n: since })) : null,
    );
  }

  /** @param {BoardState} s */
  announcements(s) {
    const { view, t } = s;
    /** @type {any[]} */
    const list = view.announcements || [];
    if (!list.length) return null;
    return h(
      'section',
      { class: 'announce', 'aria-label': t('pandemic.announcements') },
      h('h3', {}, t('pandemic.announcements')),
      h('ul', {}, list.map((a) => h('li', {}, t('pandemic.announce', { round: a.round, normal: a.normal, infected: a.infected })))),
    );
  }

  /** The sealed action of this tick. @param {BoardState} s */
  controls(s) {
    const { view, t } = s;
    const name = (/** @type {number} */ p) => this.name(p);
    const simple = ['check', 'cure', 'idle'].filter((type) => this.legal(type).length);
    const choice = this.choice;
    return h(
      'section',
      { class: 'controls', 'aria-label': t('board.your_move') },
      h('h3', {}, t('board.your_move'), ' ', h('span', { class: 'small' }, t('pandemic.tick_of', { round: view.round, tick: view.tick }))),
      h('p', { class: 'small' }, t('pandemic.seal_help')),
      h(
        'div',
        { class: 'buttons', role: 'group', 'aria-label': t('pandemic.actions') },
        simple.map((type) =>
          h('button', { type: 'button', class: `act act-${type}`, 'data-key': `choose-${type}`, 'data-testid': `choose-${type}`, 'aria-pressed': String(same(choice, { type })), disabled: !this.canAct, onclick: () => this.choose({ type }) }, t(`pandemic.act.${type}`)),
        ),
      ),
      h('p', { class: 'small' }, t('pandemic.contact_help')),
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'button', class: 'primary', 'data-key': 'seal', 'data-testid': 'seal', disabled: !this.canAct || !choice, onclick: () => choice && this.act(choice) }, choice ? t('pandemic.seal', { action: actionText(t, choice, name) }) : t('pandemic.seal_none')),
      ),
    );
  }

  /**
   * Choose an action (sealed with the Seal button).
   * @param {any} action
   */
  choose(action) {
    this.choice = same(this.choice, action) ? null : action;
    this.refresh();
  }

  /** Everyone at the table: sealed or not; one's own contacts with them; contact buttons. @param {BoardState} s */
  people(s) {
    const { view, t } = s;
    const me = s.seat;
    const pairs = this.pairs(view);
    const contactable = new Set(this.canAct ? this.legal('contact').map((a) => a.player) : []);
    return h(
      'section',
      { class: 'people', 'aria-label': t('pandemic.people') },
      h('h3', {}, t('pandemic.people')),
      h(
        'ol',
        { class: 'cards' },
        view.players.map((/** @type {string} */ _, /** @type {number} */ p) => {
          const k = me === null ? '' : `${Math.min(me, p)}-${Math.max(me, p)}`;
          const touched = k ? pairs.get(k)?.n || 0 : 0;
          const chosen = same(this.choice, { type: 'contact', player: p });
          const cls = ['person'];
          if (p === me) cls.push('me');
          if (view.infected) cls.push(view.infected[p] ? 'infected' : 'normal');
          const facts = [];
          if (view.phase === 'tick') facts.push(view.submitted && view.submitted[p] ? t('pandemic.sealed') : t('pandemic.thinking'));
          if (touched && p !== me) facts.push(t('pandemic.touched_you', { n: touched }));
          if (view.infected) facts.push(`${t(view.infected[p] ? 'pandemic.infected' : 'pandemic.normal')} · ${t('pandemic.vaccines', { n: view.vaccines[p] })}`);
          if ((view.initially_infected || []).includes(p)) facts.push(t('pandemic.patient_zero'));
          if ((view.qualified || []).includes(p)) facts.push(t('pandemic.qualified'));
          const body = [h('span', { class: 'seatno' }, String(p)), h('span', { class: 'name' }, this.name(p), p === me ? h('span', { class: 'you' }, t('board.you')) : null), h('span', { class: 'about small' }, facts.join(' · '))];
          if (contactable.has(p)) {
            return h('li', { class: cls.join(' ') }, h('button', { type: 'button', class: 'person-btn', 'data-key': `contact-${p}`, 'data-testid': 'contact', 'data-seat': p, 'aria-pressed': String(chosen), onclick: () => this.choose({ type: 'contact', player: p }) }, h('span', { class: 'sr-only' }, t('pandemic.ask', { name: this.name(p) })), body));
          }
          return h('li', { class: cls.join(' '), 'data-seat': p }, h('div', { class: 'person-box' }, body));
        }),
      ),
    );
  }

  /** The person's actions tick by tick, with what came of them. @param {BoardState} s */
  diary(s) {
    const { view, t } = s;
    const me = /** @type {number} */ (s.seat);
    const ticks = Number(view.rules?.ticks || 8);
    /** @type {any[]} */
    const mine = view.my_actions || [];
    if (!mine.length && !view.my_action) return null;
    const touched = new Set((view.contacts || []).filter((/** @type {any} */ c) => c.players.includes(me)).map((/** @type {any} */ c) => `${c.round}/${c.tick}`));
    /** @type {Map<string, any>} */
    const checks = new Map((view.checks || []).map((/** @type {any} */ c) => [`${c.round}/${c.tick}`, c]));
    const rows = mine.map((a, i) => {
      const round = Math.floor(i / ticks) + 1;
      const tick = (i % ticks) + 1;
      const at = `${round}/${tick}`;
      let what = '';
      if (a.type === 'contact') what = touched.has(at) ? t('pandemic.contact_made') : t('pandemic.contact_unanswered');
      else if (a.type === 'check' && checks.has(at)) {
        const c = checks.get(at);
        what = `${t(c.infected ? 'pandemic.infected' : 'pandemic.normal')} · ${t('pandemic.vaccines', { n: c.vaccines })}`;
      } else if (a.type === 'cure') what = t('pandemic.cure_silent');
      return h('tr', { class: a.type === 'contact' && touched.has(at) ? 'made' : '' }, h('td', {}, `${round}-${tick}`), h('td', {}, actionText(t, a, (p) => this.name(p))), h('td', {}, what));
    });
    return h(
      'section',
      { class: 'diary', 'aria-label': t('pandemic.diary') },
      h('h3', {}, t('pandemic.diary')),
      view.my_action ? h('p', {}, t('pandemic.sealed_now', { action: actionText(t, view.my_action, (p) => this.name(p)) })) : null,
      rows.length
        ? h(
            'div',
            { class: 'scroll', tabindex: 0 },
            h('table', { 'data-testid': 'diary' }, h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('pandemic.when')), h('th', { scope: 'col' }, t('pandemic.action')), h('th', { scope: 'col' }, t('pandemic.came_of_it')))), h('tbody', {}, rows.reverse())),
          )
        : null,
    );
  }

  /** At the end: every action of every tick, by player. @param {BoardState} s */
  history(s) {
    const { view, t } = s;
    /** @type {any[][]} */
    const hist = view.history || [];
    const ticks = Number(view.rules?.ticks || 8);
    /** @type {Set<string>} */
    const made = new Set((view.contacts || []).flatMap((/** @type {any} */ c) => c.players.map((/** @type {number} */ p) => `${p}@${c.round}/${c.tick}`)));
    const cures = new Set((view.cures || []).map((/** @type {number[]} */ [r, tk, p]) => `${p}@${r}/${tk}`));
    const cell = (/** @type {any} */ a, /** @type {number} */ p, /** @type {number} */ i) => {
      const at = `${p}@${Math.floor(i / ticks) + 1}/${(i % ticks) + 1}`;
      if (a.type === 'contact') return h('td', { class: made.has(at) ? 'made' : 'miss', title: actionText(t, a, (q) => this.name(q)) }, `→${a.player}`);
      if (a.type === 'check') return h('td', { class: 'check', title: t('pandemic.act.check') }, '?');
      if (a.type === 'cure') return h('td', { class: cures.has(at) ? 'cured' : 'cure', title: t('pandemic.act.cure') }, '+');
      return h('td', { class: 'idle', title: t('pandemic.act.idle') }, '·');
    };
    return h(
      'section',
      { class: 'history', 'aria-label': t('pandemic.history') },
      h('h3', {}, t('pandemic.history')),
      h('p', { class: 'small' }, t('pandemic.history_key')),
      h(
        'div',
        { class: 'scroll', tabindex: 0, 'data-wide': '' },
        h(
          'table',
          { 'data-testid': 'pandemic-history' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('board.player')), hist.map((_, i) => h('th', { scope: 'col', class: i % ticks === 0 ? 'round-start' : '' }, `${Math.floor(i / ticks) + 1}-${(i % ticks) + 1}`)))),
          h(
            'tbody',
            {},
            view.players.map((/** @type {string} */ _, /** @type {number} */ p) => h('tr', { class: view.infected[p] ? 'infected' : 'normal' }, h('th', { scope: 'row' }, `${p} ${this.name(p)}`), hist.map((tickActions, i) => cell(tickActions[p], p, i)))),
          ),
        ),
      ),
    );
  }

  /** @param {BoardState} s */
  result(s) {
    const { view, t } = s;
    /** @type {number[]} */
    const q = view.qualified || [];
    return h('p', { class: 'result', 'data-testid': 'board-result' }, q.length ? t('pandemic.result', { names: q.map((p) => this.name(p)).join(', ') }) : t('pandemic.result_none'));
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
  const names = (/** @type {number[]} */ seats) => (seats || []).map(name).join(', ');
  switch (e.kind) {
    case 'start':
      return t('pandemic.ev.start', { k: d.infected, n: d.players });
    case 'infect':
      return t('pandemic.ev.infect', { names: names(d.seats) });
    case 'sealed':
      return t('pandemic.ev.sealed', { name: name(d.seat) });
    case 'my_action':
      return t('pandemic.ev.my_action', { action: actionText(t, d.action, name) });
    case 'contact':
      return t('pandemic.ev.contact', { round: d.round, tick: d.tick, a: name(d.players[0]), b: name(d.players[1]) });
    case 'check':
      return t('pandemic.ev.check', { status: t(d.infected ? 'pandemic.infected' : 'pandemic.normal'), n: d.vaccines });
    case 'tick':
      return t('pandemic.ev.tick', { round: d.round, tick: d.tick });
    case 'announce':
      return t('pandemic.announce', { round: d.round, normal: d.normal, infected: d.infected });
    case 'final':
      return t('pandemic.ev.final', {
        list: (d.infected || []).map((/** @type {boolean} */ inf, /** @type {number} */ p) => `${name(p)} ${t(inf ? 'pandemic.infected' : 'pandemic.normal')}/${d.vaccines[p]}`).join(', '),
      });
    case 'draw_due':
      return t('pandemic.ev.draw_due', { slots: d.slots, names: names(d.tied) });
    case 'tiebreak':
      return t('pandemic.ev.tiebreak', { names: names(d.seats) });
    case 'qualified':
      return (d.qualified || []).length ? t('pandemic.result', { names: names(d.qualified) }) : t('pandemic.result_none');
    case 'talk':
      return talkText(d, players);
    case 'timeout':
      return t('pandemic.ev.timeout', { name: name(d.seat) });
    default:
      return null;
  }
}

customElements.define('dennou-board-pandemic', PandemicBoard);
