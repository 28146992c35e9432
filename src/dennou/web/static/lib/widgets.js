// Pieces the table and replay pages share: the decision clock, the event log, the talk panel
// and the results table.

import { h, replace } from './dom.js';
import { t, tOr } from './i18n.js';

const HOST_ENDINGS = ['resign', 'abort', 'claim', 'cancel'];

/**
 * A host ending (resign, abort, claim, a cancelled tournament) in the current language, or
 * null for any other event.
 * @param {{kind: string, data: Record<string, any>}} e
 * @param {string[]} players
 * @returns {string | null}
 */
export function endingText(e, players) {
  if (!HOST_ENDINGS.includes(e.kind)) return null;
  const seat = e.data ? e.data.seat : null;
  const name = seat === null || seat === undefined ? t('table.ev.host') : players[seat] ?? String(seat);
  return t(`table.ev.${e.kind}`, { name });
}

/**
 * The decision clock: counts down to a deadline (local time, so clocks need not agree). With a
 * time bank, the decision's own seconds count down first, then the bank's. Offline it stops
 * (the host's clock is what counts; the page shows it again from the next turn).
 */
export class Clock {
  constructor() {
    this.el = h('p', { class: 'clock', role: 'timer', 'aria-live': 'off', 'data-testid': 'clock' });
    /** @type {number | null} */
    this.until = null;
    this.bank = 0;
    this.stopped = false;
    setInterval(() => this.tick(), 250);
  }

  /**
   * @param {number | null} secondsLeft all the time left (the bank's included)
   * @param {number} [bank] the part of it that is the seat's time bank
   */
  set(secondsLeft, bank = 0) {
    this.until = secondsLeft === null ? null : performance.now() + secondsLeft * 1000;
    this.bank = Math.max(0, bank);
    this.stopped = false;
    this.tick();
  }

  /** Stop counting (the connection is down): the clock shows that it is not running. */
  stop() {
    if (this.until === null || this.stopped) return;
    this.stopped = true;
    this.el.dataset.state = 'stopped';
    this.el.textContent = t('table.clock_stopped');
  }

  tick() {
    if (this.stopped) return;
    delete this.el.dataset.state;
    if (this.until === null) {
      this.el.hidden = true;
      return;
    }
    const left = Math.max(0, (this.until - performance.now()) / 1000);
    const fmt = (/** @type {number} */ x) => (x < 10 ? x.toFixed(1) : String(Math.ceil(x)));
    this.el.hidden = false;
    if (this.bank > 0 && left > this.bank) {
      this.el.classList.toggle('low', false);
      this.el.textContent = t('table.clock_bank', { s: fmt(left - this.bank), bank: Math.ceil(this.bank) });
      return;
    }
    this.el.classList.toggle('low', left < 10);
    this.el.textContent = this.bank > 0 ? t('table.clock_in_bank', { s: fmt(left) }) : t('table.clock', { s: fmt(left) });
  }
}

/** The event log in words (newest last). */
export class EventLog {
  constructor() {
    this.list = h('ol', { class: 'log', 'data-testid': 'event-log' });
    this.el = h('section', { class: 'log-wrap', 'aria-labelledby': 'h-log' }, h('h2', { id: 'h-log' }, t('table.log')), h('div', { class: 'scroll', role: 'log', 'aria-live': 'polite', tabindex: 0 }, this.list));
  }

  clear() {
    replace(this.list);
  }

  /**
   * @param {string} text
   * @param {number} [version]
   * @param {string} [cls]
   */
  add(text, version, cls = '') {
    const item = h('li', { class: cls, 'data-version': version ?? '' }, text);
    this.list.append(item);
    while (this.list.childElementCount > 600) this.list.firstElementChild?.remove();
    const box = this.list.parentElement;
    if (box) box.scrollTop = box.scrollHeight;
  }
}

/**
 * A channel's name in words.
 * @param {string} channel
 * @param {string[]} players
 * @returns {string}
 */
export function channelName(channel, players) {
  if (channel === 'public') return t('talk.public');
  if (channel === 'room') return t('talk.room');
  if (channel === 'spectators') return t('talk.spectators');
  const team = channel.match(/^team:(.+)$/);
  if (team) return t('talk.team', { team: t(`talk.team.${team[1]}`) });
  const pair = channel.match(/^pair:(\d+)-(\d+)$/);
  if (pair) return t('talk.pair', { a: players[Number(pair[1])] ?? pair[1], b: players[Number(pair[2])] ?? pair[2] });
  return channel;
}

/** Talk: every line with its channel and speaker, and a form for the channels open now. */
export class TalkPanel {
  /** @param {(channel: string, text: string) => Promise<void>} send */
  constructor(send) {
    this.lines = h('ol', { class: 'talk', 'data-testid': 'talk-lines' });
    this.channel = h('select', { id: 'talk-channel', name: 'channel' });
    this.input = h('input', { id: 'talk-text', name: 'text', maxlength: 500, autocomplete: 'off' });
    this.error = h('p', { class: 'error', role: 'alert', id: 'talk-error' });
    this.button = h('button', { type: 'submit', id: 'talk-send' }, t('talk.send'));
    /** @type {string[]} */
    this.players = [];
    /** Who may mute here (the table's owner or an operator): then each talker gets a button. */
    this.me = /** @type {string | null} */ (null);
    this.canMute = false;
    /** @type {string[]} */
    this.muted = [];
    /** @type {(account: string, muted: boolean) => void} */
    this.onMute = () => {};
    /** How to report a line (its table version) to the operators; null: no reporting here. @type {((version: number, reason: string) => Promise<void>) | null} */
    this.onReport = null;
    this.form = h(
      'form',
      {
        class: 'talk-form',
        onsubmit: async (/** @type {Event} */ ev) => {
          ev.preventDefault();
          const text = this.input.value.trim();
          if (!text) return;
          this.error.textContent = '';
          try {
            await send(this.channel.value, text);
            this.input.value = '';
          } catch (err) {
            this.error.textContent = err instanceof Error ? err.message : String(err);
          }
        },
      },
      h('label', { for: 'talk-channel' }, t('talk.channel')),
      this.channel,
      h('label', { for: 'talk-text', class: 'sr-only' }, t('talk.line')),
      this.input,
      this.button,
    );
    this.el = h(
      'section',
      { class: 'talk-wrap', 'aria-labelledby': 'h-talk' },
      h('h2', { id: 'h-talk' }, t('talk.title')),
      h('div', { class: 'scroll', role: 'log', 'aria-live': 'polite', tabindex: 0 }, this.lines),
      this.form,
      this.error,
    );
    this.open([]);
  }

  /** @param {string[]} channels the channels open now */
  open(channels) {
    const before = this.channel.value;
    replace(this.channel, channels.map((c) => h('option', { value: c }, channelName(c, this.players))));
    if (channels.includes(before)) this.channel.value = before;
    const closed = channels.length === 0;
    this.input.disabled = closed;
    this.button.disabled = closed;
    this.channel.disabled = closed;
    this.input.placeholder = closed ? t('talk.closed') : '';
  }

  /**
   * @param {{speaker: number | null, name: string, channel: string, text: string}} line
   * @param {number} [version] the table version the line came at (needed to report it)
   */
  add(line, version) {
    const mod = h('span', { class: 'mod', 'data-account': line.name });
    const rep = h('span', { class: 'rep', 'data-account': line.name, 'data-version': version ?? '' });
    this.lines.append(
      h(
        'li',
        { 'data-channel': line.channel, 'data-version': version ?? '' },
        h('span', { class: 'chan' }, `[${channelName(line.channel, this.players)}]`),
        ' ',
        h('strong', { class: line.speaker === null ? 'spectator' : '' }, line.name),
        line.speaker === null ? h('span', { class: 'small' }, ` (${t('talk.spectator')})`) : null,
        ': ',
        h('span', { class: 'text' }, line.text),
        mod,
        rep,
      ),
    );
    this.modButton(mod);
    this.reportButton(rep);
    const box = this.lines.parentElement;
    if (box) box.scrollTop = box.scrollHeight;
  }

  /**
   * Who is looking, whether they may mute, who is muted, and how to (un)mute.
   * @param {string | null} me
   * @param {boolean} canMute
   * @param {string[]} muted
   * @param {(account: string, muted: boolean) => void} onMute
   */
  moderate(me, canMute, muted, onMute) {
    this.me = me;
    this.canMute = canMute;
    this.muted = muted;
    this.onMute = onMute;
    for (const mod of /** @type {NodeListOf<HTMLElement>} */ (this.lines.querySelectorAll('.mod'))) this.modButton(mod);
    for (const rep of /** @type {NodeListOf<HTMLElement>} */ (this.lines.querySelectorAll('.rep'))) this.reportButton(rep);
  }

  /**
   * A line's *report* control: for a signed-in person, on other people's lines. It opens a
   * short reason field; once sent, the line says it was reported.
   * @param {HTMLElement} rep
   */
  reportButton(rep) {
    const who = rep.dataset.account || '';
    const version = Number(rep.dataset.version);
    const report = this.onReport;
    if (!report || !this.me || !who || who === this.me || !version || rep.dataset.done) {
      if (!rep.dataset.done) replace(rep);
      return;
    }
    const reason = h('input', { class: 'small', maxlength: 500, 'aria-label': t('talk.report_reason'), placeholder: t('talk.report_reason'), 'data-testid': 'report-reason' });
    const form = h(
      'form',
      {
        class: 'report-form',
        onsubmit: async (/** @type {Event} */ ev) => {
          ev.preventDefault();
          try {
            await report(version, reason.value.trim());
            rep.dataset.done = '1';
            replace(rep, ' ', h('span', { class: 'small', 'data-testid': 'reported' }, t('talk.reported')));
          } catch (err) {
            this.error.textContent = err instanceof Error ? err.message : String(err);
          }
        },
      },
      reason,
      ' ',
      h('button', { type: 'submit', class: 'small', 'data-testid': 'report-send' }, t('talk.report_send')),
      ' ',
      h('button', { type: 'button', class: 'link small', onclick: () => this.reportButton(rep) }, t('talk.report_cancel')),
    );
    replace(
      rep,
      ' ',
      h(
        'button',
        {
          type: 'button',
          class: 'link small',
          'data-testid': 'report',
          'aria-label': t('talk.report_who', { name: who }),
          onclick: () => {
            replace(rep, ' ', form);
            reason.focus();
          },
        },
        t('talk.report'),
      ),
    );
  }

  /**
   * Let this person report lines (signed in only; never their own).
   * @param {(version: number, reason: string) => Promise<void>} onReport
   */
  reporting(onReport) {
    this.onReport = onReport;
    for (const rep of /** @type {NodeListOf<HTMLElement>} */ (this.lines.querySelectorAll('.rep'))) this.reportButton(rep);
  }

  /**
   * A talker's mute (or unmute) button, for those who may mute (never at oneself).
   * @param {HTMLElement} mod
   */
  modButton(mod) {
    const who = mod.dataset.account || '';
    if (!this.canMute || !who || who === this.me) {
      replace(mod);
      return;
    }
    const muted = this.muted.includes(who);
    replace(
      mod,
      ' ',
      h(
        'button',
        { type: 'button', class: 'link small', 'data-testid': muted ? 'unmute' : 'mute', 'aria-label': t(muted ? 'talk.unmute_who' : 'talk.mute_who', { name: who }), onclick: () => this.onMute(who, !muted) },
        t(muted ? 'talk.unmute' : 'talk.mute'),
      ),
    );
  }

  clear() {
    replace(this.lines);
  }
}

/**
 * A team's result in words (1 a win, 0.5 a draw, 0 a loss; any other share as a number).
 * @param {number} v
 * @returns {string}
 */
function teamResult(v) {
  if (v === 1) return t('table.team_won');
  if (v === 0.5) return t('table.team_drew');
  if (v === 0) return t('table.team_lost');
  return v.toLocaleString();
}

/** Games whose scores are money (yen). */
const YEN_SCORES = new Set(['smuggling', 'chairs']);

/**
 * The results of a finished game: rank, player, score (in yen where the game's scores are).
 * @param {{scores: number[], ranks: number[], teams?: any, detail?: any}} outcome
 * @param {string[]} players
 * @param {string} [game]
 * @returns {HTMLElement}
 */
export function resultsTable(outcome, players, game = '') {
  const order = players.map((_, i) => i).sort((a, b) => outcome.ranks[a] - outcome.ranks[b] || a - b);
  const number = (/** @type {number} */ x) => (Number.isInteger(x) ? x.toLocaleString() : x.toFixed(3));
  // a host's ending (resign, claim...) scores 1 and 0, never money
  const money = YEN_SCORES.has(game) && !(outcome.detail && HOST_ENDINGS.includes(outcome.detail.end));
  const fmt = (/** @type {number} */ x) => (money ? t('table.yen', { n: number(x) }) : number(x));
  return h(
    'section',
    { class: 'results', 'aria-labelledby': 'h-results', 'data-testid': 'results' },
    h('h2', { id: 'h-results' }, t('table.results')),
    h(
      'table',
      {},
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('table.rank')), h('th', { scope: 'col' }, t('board.player')), h('th', { scope: 'col' }, t('table.score')))),
      h('tbody', {}, order.map((p) => h('tr', { class: outcome.ranks[p] === 1 ? 'winner' : '' }, h('td', {}, String(outcome.ranks[p])), h('th', { scope: 'row' }, players[p] ?? String(p)), h('td', {}, fmt(outcome.scores[p]))))),
    ),
    outcome.teams ? h('p', { 'data-testid': 'teams' }, t('table.teams'), ' ', Object.entries(outcome.teams).map(([team, v]) => t('table.team_score', { team: tOr(`talk.team.${team}`, team), n: teamResult(Number(v)) })).join(t('table.list_sep'))) : null,
  );
}
