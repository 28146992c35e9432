// Smuggling Game 密輸ゲーム (LIAR GAME): the two countries and their third-country totals (which
// decide the winner); every player's two accounts, who represents whom and who sits where (the
// inspection room or the team's waiting room); the trunk; the person's decision — nominate a
// teammate, pack the trunk, finish talking, or pass / doubt an amount; the record of small games;
// the settlement at the end. Talk itself is the page's panel. docs/games/smuggling.md describes
// the view and the actions.

import { h, replace } from '../lib/dom.js';
import { Board, talkText } from './base.js';

/** @typedef {import('./base.js').BoardState} BoardState */
/** @typedef {import('./base.js').GameEvent} GameEvent */
/** @typedef {import('./base.js').Translate} Translate */

const TEAMS = ['north', 'south'];
const MAN = 10000;

/**
 * An amount of yen as people write it: 1億5,000万円, or ¥150M in English.
 * @param {number} n
 * @param {string} lang
 */
export function money(n, lang) {
  const sign = n < 0 ? '−' : '';
  const a = Math.abs(n);
  if (lang === 'ja') {
    const oku = Math.floor(a / 1e8);
    const man = Math.floor((a % 1e8) / MAN);
    const yen = a % MAN;
    let text = '';
    if (oku) text += `${oku.toLocaleString('ja-JP')}億`;
    if (man) text += `${man.toLocaleString('ja-JP')}万`;
    if (yen || !text) text += `${yen.toLocaleString('ja-JP')}`;
    return `${sign}${text}円`;
  }
  if (a === 0) return '¥0';
  return `${sign}¥${(a / 1e6).toLocaleString('en-US', { maximumFractionDigits: 4 })}M`;
}

export default class SmugglingBoard extends Board {
  constructor() {
    super();
    /** the amount typed, in 万 (10,000 yen) */
    this.amount = '';
    this.decisionKey = '';
  }

  /** @param {BoardState} s */
  render(s) {
    const { view, t } = s;
    const key = s.turn ? `${s.turn.version}` : '-';
    if (key !== this.decisionKey) {
      this.decisionKey = key;
      this.amount = '';
    }
    this.classList.add('board', 'b-smuggling');
    replace(
      this,
      this.status(s),
      this.score(s),
      h('div', { class: 'teams' }, TEAMS.map((team) => this.team(s, team))),
      h('p', { class: 'small note' }, t('smuggling.team_note')),
      view.phase !== 'over' && view.smuggler !== null && view.smuggler !== undefined ? this.room(s) : null,
      s.mode === 'play' && s.turn ? this.controls(s) : null,
      this.results(s),
      view.ending ? this.ending(s) : null,
    );
  }

  /**
   * Money in the page's language.
   * @param {number} n
   */
  m(n) {
    return money(n, this.state?.lang || 'en');
  }

  /** @param {BoardState} s */
  status(s) {
    const { view, t } = s;
    const parts = [t('smuggling.small_game', { n: view.small_game, of: view.rules?.small_games ?? '?' })];
    if (view.phase !== 'over') parts.push(t('smuggling.sides', { smug: t(`smuggling.team.${view.smuggling_team}`), insp: t(`smuggling.team.${view.inspecting_team}`) }));
    parts.push(t(`smuggling.phase.${view.phase}`));
    return h('p', { class: 'status', 'data-testid': 'smuggling-status' }, parts.join(' · '));
  }

  /** The third-country totals that decide the winner, as a balance. @param {BoardState} s */
  score(s) {
    const { view, t } = s;
    const totals = TEAMS.map((team) => (view.teams[team] || []).reduce((/** @type {number} */ a, /** @type {number} */ p) => a + view.third[p], 0));
    const sum = totals[0] + totals[1] || 1;
    const north = h('span', { class: 'north' });
    north.style.setProperty('width', `${((100 * totals[0]) / sum).toFixed(2)}%`);
    return h(
      'section',
      { class: 'score', 'aria-label': t('smuggling.totals') },
      h('p', { class: 'small' }, t('smuggling.totals')),
      h(
        'div',
        { class: 'totals' },
        h('span', { class: 'n', 'data-testid': 'total-north' }, t('smuggling.team.north'), ' ', h('strong', {}, this.m(totals[0]))),
        h('span', { class: 's', 'data-testid': 'total-south' }, h('strong', {}, this.m(totals[1])), ' ', t('smuggling.team.south')),
      ),
      h('div', { class: 'balance', 'aria-hidden': 'true' }, north),
    );
  }

  /**
   * One country: its members with their accounts, roles and whereabouts.
   * @param {BoardState} s
   * @param {string} team
   */
  team(s, team) {
    const { view, t } = s;
    /** @type {number[]} */
    const members = view.teams[team] || [];
    const role = team === view.smuggling_team ? 'smuggling' : 'inspecting';
    return h(
      'section',
      { class: `team ${team}${view.team === team ? ' mine' : ''}`, 'aria-label': t(`smuggling.team.${team}`), 'data-team': team },
      h('h3', {}, t(`smuggling.team.${team}`), view.phase !== 'over' ? h('span', { class: 'role' }, t(`smuggling.side.${role}`)) : null),
      h(
        'table',
        {},
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('board.player')), h('th', { scope: 'col', class: 'money', title: t('smuggling.home') }, t('smuggling.col.home')), h('th', { scope: 'col', class: 'money', title: t('smuggling.third') }, t('smuggling.col.third')))),
        h(
          'tbody',
          {},
          members.map((p) =>
            h(
              'tr',
              { class: s.seat === p ? 'me' : '', 'data-seat': p },
              h(
                'th',
                { scope: 'row' },
                h('span', { class: 'name' }, this.name(p)),
                s.seat === p ? h('span', { class: 'you' }, t('board.you')) : null,
                view.smuggler === p && view.phase !== 'over' ? h('span', { class: 'tag smuggler' }, t('smuggling.smuggler')) : null,
                view.inspector === p && view.phase !== 'over' ? h('span', { class: 'tag inspector' }, t('smuggling.inspector')) : null,
                h('span', { class: 'reps small', title: t('smuggling.represented', { n: view.represented ? view.represented[p] : 0 }) }, `×${view.represented ? view.represented[p] : 0}`),
                this.where(s, p) ? h('span', { class: 'where small' }, this.where(s, p)) : null,
              ),
              h('td', { class: 'money' }, this.m(view.home[p])),
              h('td', { class: 'money' }, this.m(view.third[p])),
            ),
          ),
        ),
      ),
    );
  }

  /**
   * Where a player is and what they are doing now ('' when simply with the team).
   * @param {BoardState} s
   * @param {number} p
   */
  where(s, p) {
    const { view, t } = s;
    if (view.phase === 'over') return '';
    if (view.phase === 'nominate') return view.nominated && view.nominated[p] ? t('smuggling.has_nominated') : t('smuggling.nominating');
    if (p === view.smuggler || p === view.inspector) {
      if (view.phase === 'trunk') return p === view.smuggler ? t('smuggling.packing') : t('smuggling.waiting_room');
      return t('smuggling.in_room');
    }
    return '';
  }

  /** The inspection room: who is in, the trunk, who has finished. @param {BoardState} s */
  room(s) {
    const { view, t } = s;
    const me = s.seat;
    const inRoom = view.phase === 'room';
    const trunk = view.trunk !== null && view.trunk !== undefined ? this.m(view.trunk) : view.trunk_packed ? t('smuggling.sealed') : t('smuggling.empty_case');
    return h(
      'section',
      { class: `room${inRoom ? ' open' : ''}`, 'aria-label': t('smuggling.room'), 'data-testid': 'room' },
      h('h3', {}, t('smuggling.room')),
      h(
        'div',
        { class: 'people' },
        h(
          'div',
          { class: 'rep' },
          h('span', { class: 'tag smuggler' }, t('smuggling.smuggler')),
          h('strong', {}, this.name(view.smuggler)),
          h('span', { class: 'small' }, t(`smuggling.team.${view.smuggling_team}`)),
          inRoom ? h('span', { class: 'state' }, view.ready ? t('smuggling.done_talking') : t('smuggling.talking')) : null,
        ),
        h('div', { class: `trunk${view.trunk_packed ? ' packed' : ''}`, 'data-testid': 'trunk', role: 'img', 'aria-label': `${t('smuggling.trunk')}: ${trunk}` }, h('span', { class: 'handle', 'aria-hidden': 'true' }), h('span', { class: 'label' }, trunk)),
        h(
          'div',
          { class: 'rep' },
          h('span', { class: 'tag inspector' }, t('smuggling.inspector')),
          h('strong', {}, this.name(view.inspector)),
          h('span', { class: 'small' }, t(`smuggling.team.${view.inspecting_team}`)),
          inRoom ? h('span', { class: 'state' }, view.verdict_given ? t('smuggling.verdict_given') : t('smuggling.deciding')) : null,
        ),
      ),
      view.my_verdict !== null && view.my_verdict !== undefined ? h('p', {}, t('smuggling.my_verdict', { verdict: view.my_verdict ? t('smuggling.doubt_x', { x: this.m(view.my_verdict) }) : t('smuggling.pass') })) : null,
      inRoom && (me === view.smuggler || me === view.inspector) && view.room_left !== null && view.room_left !== undefined ? h('p', { class: 'small' }, t('smuggling.room_left', { n: view.room_left })) : null,
      view.votes ? h('p', { class: 'small' }, t('smuggling.votes', { list: TEAMS.map((team) => (view.votes[team] || []).map((/** @type {number[]} */ [p, n]) => `${this.name(p)} ${n}`).join(', ')).join(' / ') })) : null,
    );
  }

  /** The person's decision. @param {BoardState} s */
  controls(s) {
    const { view, t } = s;
    const me = /** @type {number} */ (s.seat);
    const body = [];
    if (view.phase === 'nominate') {
      body.push(
        h('p', { id: 'smug-nominate' }, t('smuggling.choose_nominee', { role: t(view.team === view.smuggling_team ? 'smuggling.smuggler' : 'smuggling.inspector') })),
        h(
          'div',
          { class: 'buttons', role: 'group', 'aria-labelledby': 'smug-nominate' },
          this.legal('nominate').map((a) =>
            h('button', { type: 'button', 'data-key': `nominate-${a.seat}`, 'data-testid': 'nominate', disabled: !this.canAct, onclick: () => this.act({ type: 'nominate', seat: a.seat }) }, this.name(a.seat), a.seat === me ? ` (${t('board.you')})` : '', h('span', { class: 'small' }, ` ${t('smuggling.represented', { n: view.represented[a.seat] })}`)),
          ),
        ),
      );
    } else if (view.phase === 'trunk' && me === view.smuggler) {
      const desc = s.turn?.legal_description || {};
      const max = Number(desc.max ?? Math.min(view.rules.trunk_max, view.home[me]));
      body.push(h('p', {}, t('smuggling.pack_help', { max: this.m(max) })), this.amountForm(s, 'trunk', Number(desc.min ?? 0), max));
    } else if (view.phase === 'room' && me === view.smuggler && !view.ready) {
      body.push(
        h('p', {}, t('smuggling.ready_help')),
        h('button', { type: 'button', class: 'primary', 'data-key': 'ready', 'data-testid': 'ready', disabled: !this.canAct, onclick: () => this.act({ type: 'ready' }) }, t('smuggling.ready')),
      );
    } else if (view.phase === 'room' && me === view.inspector && !view.verdict_given) {
      const unit = Number(view.rules.unit || MAN);
      const limit = Math.floor((Number(view.rules.doubt_factor || 2) * view.third[me]) / unit) * unit;
      body.push(
        h('p', {}, t('smuggling.verdict_help')),
        h('ul', { class: 'cases small' }, ['pass', 'empty', 'caught', 'through'].map((c) => h('li', {}, t(`smuggling.case_help.${c}`)))),
        h('div', { class: 'buttons' }, h('button', { type: 'button', 'data-key': 'pass', 'data-testid': 'pass', disabled: !this.canAct, onclick: () => this.act({ type: 'pass' }) }, t('smuggling.btn.pass'))),
        limit >= unit ? [h('p', {}, t('smuggling.doubt_help', { max: this.m(limit) })), this.amountForm(s, 'doubt', unit, limit)] : h('p', { class: 'small' }, t('smuggling.no_doubt')),
      );
    }
    if (!body.length) return null;
    return h('section', { class: 'controls', 'aria-label': t('board.your_move') }, h('h3', {}, t('board.your_move')), body);
  }

  /**
   * An amount of yen between min and max in whole units, typed in 万 (10,000 yen) or chosen
   * from presets, and the button that sends it.
   * @param {BoardState} s
   * @param {'trunk' | 'doubt'} type
   * @param {number} min
   * @param {number} max
   */
  amountForm(s, type, min, max) {
    const { t } = s;
    const unit = Number(s.view.rules.unit || MAN);
    const id = `smug-${type}`;
    const input = h('input', { id, type: 'number', inputmode: 'decimal', min: min / MAN, max: max / MAN, step: unit / MAN, value: this.amount, 'data-key': `${type}-amount`, 'data-testid': `${type}-amount`, autocomplete: 'off' });
    const shown = h('output', { class: 'amount', for: id, 'aria-live': 'polite' });
    const send = h('button', { type: 'button', class: 'primary', 'data-key': `${type}-send`, 'data-testid': `${type}-send` });
    /** @returns {number | null} the amount in yen, if it is a legal one */
    const yen = () => {
      const v = input.value.trim();
      if (!/^\d+(\.\d+)?$/.test(v)) return null;
      const units = Math.round((Number(v) * MAN) / unit);
      const amount = units * unit;
      if (Math.abs(Number(v) * MAN - amount) > 0.5 || amount < min || amount > max) return null;
      return amount;
    };
    const update = () => {
      this.amount = input.value;
      const a = yen();
      shown.textContent = a === null ? (input.value.trim() ? t('smuggling.bad_amount', { min: this.m(min), max: this.m(max) }) : '') : this.m(a);
      send.textContent = t(type === 'trunk' ? 'smuggling.pack' : 'smuggling.btn.doubt', { x: a === null ? '…' : this.m(a) });
      send.disabled = !this.canAct || a === null;
    };
    input.addEventListener('input', update);
    send.addEventListener('click', () => {
      const a = yen();
      if (a !== null) this.act({ type, amount: a });
    });
    const set = (/** @type {number} */ a) => {
      input.value = String(a / MAN);
      update();
    };
    const presets = [...new Set([min, ...[0.25, 0.5, 0.75].map((f) => Math.floor((max * f) / unit) * unit), max])].filter((a) => a >= min && a <= max);
    update();
    return h(
      'div',
      { class: 'amount-form' },
      h('div', { class: 'inline' }, h('label', { for: id }, t('smuggling.amount_man')), input, shown),
      h('div', { class: 'buttons' }, h('span', { class: 'small' }, t('smuggling.presets')), presets.map((a, i) => h('button', { type: 'button', class: 'chip', 'data-key': `${type}-preset-${i}`, 'data-testid': `${type}-preset`, disabled: !this.canAct, onclick: () => set(a) }, this.m(a)))),
      h('div', { class: 'buttons' }, send),
    );
  }

  /** @param {Translate} t @returns {[string, string][]} */
  shortcuts(t) {
    return [['0–9', t('keys.smuggling.amount')]];
  }

  /** Every finished small game. @param {BoardState} s */
  results(s) {
    const { view, t } = s;
    /** @type {any[]} */
    const rows = view.results || [];
    if (!rows.length) return null;
    return h(
      'section',
      { class: 'record', 'aria-label': t('smuggling.record') },
      h('h3', {}, t('smuggling.record')),
      h(
        'div',
        { class: 'scroll', tabindex: 0 },
        h(
          'table',
          { 'data-testid': 'smuggling-results' },
          h(
            'thead',
            {},
            h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, t('smuggling.col.smuggler')), h('th', { scope: 'col', class: 'money' }, t('smuggling.trunk')), h('th', { scope: 'col' }, t('smuggling.col.inspector')), h('th', { scope: 'col' }, t('smuggling.verdict')), h('th', { scope: 'col' }, t('smuggling.outcome'))),
          ),
          h(
            'tbody',
            {},
            rows
              .slice()
              .reverse()
              .map((r) =>
                h(
                  'tr',
                  { class: `case-${r.case}` },
                  h('td', {}, String(r.game)),
                  h('td', {}, this.name(r.smuggler), h('span', { class: 'small' }, ` ${t(`smuggling.team.${r.smuggling}`)}`)),
                  h('td', { class: 'money' }, this.m(r.amount)),
                  h('td', {}, this.name(r.inspector)),
                  h('td', {}, r.verdict === 'pass' ? t('smuggling.pass') : t('smuggling.doubt_x', { x: this.m(r.doubt) })),
                  h('td', {}, this.caseText(t, r)),
                ),
              ),
          ),
        ),
      ),
    );
  }

  /**
   * What a small game's settlement did, in words.
   * @param {Translate} t
   * @param {any} r a result
   */
  caseText(t, r) {
    return t(`smuggling.case.${r.case}`, { s: this.m(r.amount), c: this.m(r.compensation), smuggler: this.name(r.smuggler), inspector: this.name(r.inspector) });
  }

  /** The end: the team result, then everyone's money after the leftovers and the loan. @param {BoardState} s */
  ending(s) {
    const { view, t } = s;
    const e = view.ending;
    const winner = e.winner;
    const text = winner ? t('smuggling.team_wins', { team: t(`smuggling.team.${winner}`), a: this.m(e.totals[winner]), b: this.m(e.totals[winner === 'north' ? 'south' : 'north']) }) : t('smuggling.draw', { a: this.m(e.totals.north) });
    const loan = Number(view.rules.home_start) + Number(view.rules.third_start);
    return h(
      'section',
      { class: 'ending', 'aria-label': t('smuggling.settlement') },
      h('p', { class: 'result', 'data-testid': 'board-result' }, text),
      h('h3', {}, t('smuggling.settlement')),
      h('p', { class: 'small' }, t('smuggling.settlement_help', { loan: this.m(loan) })),
      h(
        'div',
        { class: 'scroll', tabindex: 0 },
        h(
          'table',
          { 'data-testid': 'smuggling-final' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('board.player')), h('th', { scope: 'col', class: 'money' }, t('smuggling.col.third')), h('th', { scope: 'col', class: 'money' }, t('smuggling.prize')), h('th', { scope: 'col', class: 'money' }, t('smuggling.final')))),
          h(
            'tbody',
            {},
            view.players.map((/** @type {string} */ _, /** @type {number} */ p) =>
              h(
                'tr',
                { class: s.seat === p ? 'me' : '' },
                h('th', { scope: 'row' }, this.name(p), h('span', { class: 'small' }, ` ${t(`smuggling.team.${TEAMS.find((tm) => (view.teams[tm] || []).includes(p)) || 'north'}`)}`)),
                h('td', { class: 'money' }, this.m(view.third[p])),
                h('td', { class: 'money' }, this.m(e.prizes[p])),
                h('td', { class: `money${e.final[p] < 0 ? ' debt' : ''}` }, this.m(e.final[p]), e.final[p] < 0 ? ` (${t('smuggling.debt')})` : ''),
              ),
            ),
          ),
        ),
      ),
    );
  }
}

/**
 * An event in the current language (null: use the engine's English text).
 * @param {GameEvent} e
 * @param {Translate} t
 * @param {string[]} players
 * @param {any} [view] the latest view (for the language of amounts: none needed)
 * @returns {string | null}
 */
export function eventText(e, t, players, view) {
  void view;
  const d = e.data || {};
  const lang = document.documentElement.lang === 'ja' ? 'ja' : 'en';
  const m = (/** @type {number} */ n) => money(n, lang);
  const name = (/** @type {number} */ seat) => players[seat] ?? String(seat);
  const team = (/** @type {string} */ x) => t(`smuggling.team.${x}`);
  switch (e.kind) {
    case 'small_game':
      return t('smuggling.ev.small_game', { n: d.game, smug: team(d.smuggling), insp: team(d.smuggling === 'north' ? 'south' : 'north') });
    case 'nominated':
      return t('smuggling.ev.nominated', { name: name(d.nominee) });
    case 'nomination_in':
      return t('smuggling.ev.nomination_in', { name: name(d.seat) });
    case 'representatives':
      return t('smuggling.ev.representatives', { n: d.game, smuggler: name(d.smuggler), inspector: name(d.inspector) });
    case 'trunk':
      return t('smuggling.ev.trunk', { x: m(d.amount) });
    case 'room':
      return t('smuggling.ev.room', { smuggler: name(d.smuggler), inspector: name(d.inspector) });
    case 'ready':
      return t('smuggling.ev.ready', { name: name(d.seat) });
    case 'verdict_sealed':
      return t('smuggling.ev.verdict_sealed', { verdict: d.doubt ? t('smuggling.doubt_x', { x: m(d.doubt) }) : t('smuggling.pass') });
    case 'verdict_in':
      return t('smuggling.ev.verdict_in', { name: name(d.seat) });
    case 'result':
      return t('smuggling.ev.result', {
        n: d.game,
        inspector: name(d.inspector),
        verdict: d.verdict === 'pass' ? t('smuggling.pass') : t('smuggling.doubt_x', { x: m(d.doubt) }),
        s: m(d.amount),
        outcome: t(`smuggling.case.${d.case}`, { s: m(d.amount), c: m(d.compensation), smuggler: name(d.smuggler), inspector: name(d.inspector) }),
      });
    case 'end':
      return d.winner
        ? t('smuggling.team_wins', { team: team(d.winner), a: m(d.totals[d.winner]), b: m(d.totals[d.winner === 'north' ? 'south' : 'north']) })
        : t('smuggling.draw', { a: m(d.totals.north) });
    case 'talk':
      return talkText(d, players);
    case 'timeout':
      return t('board.ev.timeout', { name: name(d.seat) });
    default:
      return null;
  }
}

customElements.define('dennou-board-smuggling', SmugglingBoard);
