// A table (/tables/{id}): play a seat or watch as a spectator, live. The board shows the view;
// talk, the decision clock, the event log and the results sit around it. After a drop or a
// server restart the connection comes back by itself and the page joins again with the last
// version it saw, so nothing is missed or shown twice.

import { Connection, ServerError, api } from '../lib/client.js';
import { h, replace } from '../lib/dom.js';
import { href, lang, t } from '../lib/i18n.js';
import { SeatRatings, clockText, gameTitle, games, seatLabel, showConnection, startPage } from '../lib/page.js';
import { Clock, EventLog, TalkPanel, endingText, resultsTable } from '../lib/widgets.js';
import { TurnSignal } from '../lib/attention.js';
import { loadBoard } from '../boards/index.js';
import { ACT_EVENT, talkText } from '../boards/base.js';

/** @typedef {import('../lib/client.js').Message} Message */
/** @typedef {import('../lib/page.js').TableInfo} TableInfo */
/** @typedef {import('../boards/base.js').Board} Board */

const tableId = decodeURIComponent(location.pathname.split('/')[2] || '');
// The page's first requests go out together: each is a round trip, long on a busy host.
const infoAsked = api(`/api/tables/${encodeURIComponent(tableId)}`).then(
  (found) => ({ found, err: null }),
  (/** @type {unknown} */ err) => ({ found: null, err }),
);
const operatorAsked = api('/api/session').then((x) => Boolean(x && x.operator)).catch(() => false);
games().catch(() => []);
const { main, account } = await startPage('table.title');
const operator = await operatorAsked;
const conn = new Connection();
/** Whether the connection is up: offline, nothing can be sent, so no control is offered. */
let online = false;
conn.onStatus((status) => {
  showConnection(status);
  const was = online;
  online = status === 'online';
  if (!online) clock.stop();
  if (was !== online) renderMeta(); // seats are taken and left over the connection too
});

/** @type {TableInfo | null} */
let info = null;
const asked = await infoAsked;
if (asked.err) {
  const err = asked.err;
  main.append(h('h1', {}, t('table.title')), h('p', { class: 'error', role: 'alert' }, err instanceof Error ? err.message : String(err)));
  throw err;
}
info = asked.found;
const table = /** @type {TableInfo} */ (info);
const gameInfo = (await games()).find((g) => g.name === table.game);
const boardModule = await loadBoard(gameInfo?.board);

// --- page state ------------------------------------------------------------------------------
/** @type {number | null} */
let seat = null;
let version = -1;
let viewVersion = -1;
/** @type {any} */
let view = null;
/** @type {any} */
let turn = null;
/** @type {any} */
let outcome = table.outcome;
let busy = false;
/** @type {string[]} */
let channels = [];
/** Whether anything but talk happened (a deal, a move): then abort is refused. */
let moved = false;
/** When each other seat was first seen away (local ms), for claim. @type {Map<number, number>} */
const awaySince = new Map();
/** Whether to pick up the spectators' room's lines again (they reach players after the end). */
let backfill = false;
/** Versions of the talk lines shown. @type {Set<number>} */
const talkSeen = new Set();
let confirmResign = false;
let claimTimer = 0;
let rematchWatch = false;
/** The version of the last decision the person was called to. */
let signalled = -1;
/** The seats' ratings beside their names (asked again when someone sits down or leaves). */
const ratings = new SeatRatings();

// --- layout ----------------------------------------------------------------------------------
const heading = h('h1', {}, gameTitle(table.game, gameInfo?.title));
const meta = h('div', { class: 'table-meta', 'data-testid': 'table-meta' });
const alertBox = h('p', { class: 'error', role: 'alert', id: 'table-error', 'data-testid': 'table-error' });
const notice = h('p', { class: 'notice', role: 'status', 'data-testid': 'table-notice' });
const clock = new Clock();
const board = /** @type {Board} */ (document.createElement(boardModule.tag));
board.id = 'board';
const results = h('div', { id: 'results-box' });
// The end of a game of a set or series, held before the next deal replaces it (the host waits
// `deal_pause` while people watch): until dismissed, or until this seat's next decision.
const gameEnd = h('section', { class: 'game-end notice', role: 'dialog', 'aria-labelledby': 'h-game-end', 'data-testid': 'game-end', hidden: true });
const GAME_ENDS = ['game_end', 'game_over'];
const log = new EventLog();
const talk = new TalkPanel(async (channel, text) => {
  await conn.request({ type: 'talk', table: tableId, channel, text });
});
const actionsBox = h('div', { class: 'table-actions buttons', 'data-testid': 'table-actions' });
const rematchBox = h('p', { class: 'notice', role: 'status', 'data-testid': 'rematch' });
const help = h('dialog', { id: 'help', class: 'help', 'aria-labelledby': 'h-help', 'data-testid': 'help' });
const helpButton = h('button', { type: 'button', class: 'link', id: 'help-open', 'data-testid': 'help-open', 'aria-keyshortcuts': '?', onclick: () => openHelp() }, t('keys.open'));
const signal = new TurnSignal(t('turn.at', { game: gameTitle(table.game, gameInfo?.title), id: tableId }));
if (account) {
  talk.reporting(async (at, reason) => {
    await api(`/api/tables/${encodeURIComponent(tableId)}/reports`, { method: 'POST', body: { version: at, reason } });
  });
}
const side = h('div', { class: 'side-panels' }, gameInfo?.talk ? talk.el : null, log.el);
main.append(
  heading,
  meta,
  actionsBox,
  rematchBox,
  alertBox,
  notice,
  h('div', { class: 'table-layout' }, h('div', { class: 'board-col' }, h('h2', { class: 'sr-only' }, t('table.board')), h('div', { class: 'board-bar' }, clock.el, signal.el, helpButton), gameEnd, board, results), side),
  help,
);
board.setAttribute('aria-label', t('keys.board', { game: gameTitle(table.game, gameInfo?.title) }));
board.setAttribute('aria-keyshortcuts', '?');
renderMeta();

// Keys typed while nothing has the focus are the board's; `?` opens the list of keys.
document.addEventListener('keydown', (ev) => {
  const target = ev.target;
  const field = target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
  if (ev.key === 'Escape' && !gameEnd.hidden) {
    hideGameEnd(true);
    return;
  }
  if (ev.key === '?' && !field && !help.open) {
    ev.preventDefault();
    openHelp();
    return;
  }
  if ((target === document.body || target === document.documentElement) && !board.hidden) board.key(ev);
});

function openHelp() {
  /** @type {[string, string][]} */
  const general = [
    ['?', t('keys.help')],
    ['Tab', t('keys.tab')],
    ['Enter', t('keys.enter')],
  ];
  const own = board.shortcuts(t);
  const rows = (/** @type {[string, string][]} */ list) => h('dl', { class: 'keys' }, list.map(([k, what]) => [h('dt', {}, h('kbd', {}, k)), h('dd', {}, what)]));
  replace(
    help,
    h('h2', { id: 'h-help' }, t('keys.title')),
    h('h3', {}, gameTitle(table.game, gameInfo?.title)),
    own.length ? rows(own) : h('p', {}, t('keys.none')),
    h('h3', {}, t('keys.general')),
    rows(general),
    h('form', { method: 'dialog' }, h('button', { type: 'submit', 'data-testid': 'help-close', autofocus: true }, t('keys.close'))),
  );
  help.showModal();
}

board.addEventListener(ACT_EVENT, (ev) => {
  const detail = /** @type {CustomEvent} */ (ev).detail;
  act(detail.action);
});

// For developers (and the forged-action test): `dennou.act({...})` in the console sends an
// action through the same path as a click; the server decides, and a refusal is shown.
/** @type {any} */ (window).dennou = { act, conn, table: tableId };

// --- protocol --------------------------------------------------------------------------------
conn.onMessage(onMessage);
conn.onReady(attach);
conn.start();

async function attach() {
  try {
    const fresh = await api(`/api/tables/${encodeURIComponent(tableId)}`);
    info = fresh;
    const mine = fresh.seats.find((/** @type {any} */ s) => s.kind === 'player' && s.name === conn.account);
    const from = version >= 0 ? version : 0;
    if (mine) {
      const reply = await conn.request({ type: 'join', table: tableId, version: from });
      seat = reply.seat;
    } else {
      await conn.request({ type: 'spectate', table: tableId, version: from });
      seat = null;
    }
    renderMeta();
    refreshView();
    if (fresh.status === 'finished' || fresh.status === 'aborted') watchForRematch();
  } catch (err) {
    showError(err);
  }
}

// The table info says who is away and how many watch only when asked: look every 5 s while the
// page is seen and the table is not over (for claim, and the spectators' count).
setInterval(async () => {
  const current = info || table;
  if (!online || document.visibilityState !== 'visible' || current.status === 'finished' || current.status === 'aborted') return;
  try {
    info = await api(`/api/tables/${encodeURIComponent(tableId)}`);
    renderMeta();
  } catch {
    // the next look tries again
  }
}, 5000);

/** @param {Message} msg */
function onMessage(msg) {
  if (msg.type === 'table') {
    if (msg.table.id !== tableId) return;
    info = msg.table;
    renderMeta();
    return;
  }
  if (msg.table !== tableId) return;
  switch (msg.type) {
    case 'event':
      if (msg.version <= version) {
        // Picked up again after the end: only the spectators' room's lines are new here.
        if (backfill && !talkSeen.has(msg.version)) {
          for (const e of msg.events) if (e.kind === 'talk' && e.data?.channel === 'spectators') addTalk(e.data, msg.version);
        }
        return;
      }
      version = msg.version;
      if (msg.step !== 'talk' && !moved) {
        moved = true;
        renderActions();
      }
      for (const e of msg.events) {
        if (e.kind === 'talk') addTalk(e.data, msg.version);
        log.add(eventText(e), msg.version, msg.step === 'default' ? 'default' : '');
        if (GAME_ENDS.includes(e.kind) && !msg.events.some((/** @type {any} */ x) => x.kind === 'set_end')) showGameEnd(eventText(e));
      }
      if (seat !== null && msg.seat === seat && msg.step !== 'talk') turn = null;
      if (msg.step !== 'talk') refreshView();
      else render();
      break;
    case 'view':
      if (msg.version < viewVersion) return;
      viewVersion = msg.version;
      if (version < msg.version) {
        // A fresh view instead of events (first visit to a long game, or too much missed).
        version = msg.version;
        if (msg.version > 0) moved = true;
        if (log.list.childElementCount === 0 && Array.isArray(msg.view?.talk)) {
          for (const line of msg.view.talk) if (line && typeof line.text === 'string') talk.add(line);
        }
      }
      view = msg.view;
      channels = msg.channels || [];
      talk.open(channels);
      if (seat !== null && !(msg.to_act || []).includes(seat)) turn = null;
      render();
      break;
    case 'turn':
      hideGameEnd();
      if (msg.version > signalled) {
        signalled = msg.version; // one call per decision, not per repeat of it (a reconnect)
        signal.start();
      }
      turn = msg;
      if (msg.version >= viewVersion || !view) {
        view = msg.view;
        viewVersion = msg.version;
      }
      channels = msg.channels || channels;
      talk.open(channels);
      clock.set(msg.time_limit, msg.time_bank || 0);
      render();
      break;
    case 'end':
      // First: what is waiting now is not a rematch (asked before Play again is shown here).
      watchForRematch();
      outcome = msg.outcome;
      turn = null;
      // The game that just ended was the table's last: no deal follows it.
      gameEnd.querySelector('[data-testid=game-end-next]')?.remove();
      if (info) info = { ...info, status: msg.status || 'finished', outcome: msg.outcome };
      refreshView();
      renderMeta();
      if (seat !== null && gameInfo?.talk && !backfill) {
        // The spectators' room was kept from the seats while the game was on; now it is theirs
        // (once: joining again tells the end again).
        backfill = true;
        conn.request({ type: 'join', table: tableId, version: 0 }).catch(() => {});
      }
      break;
    case 'error':
      if (msg.id === undefined || msg.id === null) showError(new ServerError(msg));
      break;
    default:
      break;
  }
}

let viewInFlight = false;
let viewAgain = false;

/** Seconds a view request may take before it is asked again (the board must not stay stale). */
const VIEW_TIMEOUT = 5000;

/** Ask for the current view (coalesced: at most one request in flight, each with a timeout). */
function refreshView() {
  if (viewInFlight) {
    viewAgain = true;
    return;
  }
  viewInFlight = true;
  conn
    .request({ type: 'get_view', table: tableId }, undefined, VIEW_TIMEOUT)
    .catch((err) => {
      // an answer that never came (not a refusal, not a lost connection: its attach asks again)
      if (!(err instanceof ServerError) && online) viewAgain = true;
    })
    .finally(() => {
      viewInFlight = false;
      if (viewAgain) {
        viewAgain = false;
        refreshView();
      }
    });
}

/** @param {any} action */
async function act(action) {
  alertBox.textContent = '';
  busy = true;
  render();
  try {
    await conn.request({ type: 'act', table: tableId, action, version: turn ? turn.version : undefined });
    turn = null;
  } catch (err) {
    showError(err, 'table.refused');
  } finally {
    busy = false;
    render();
  }
}

/**
 * @param {unknown} err
 * @param {string} [key]
 */
function showError(err, key = 'table.error') {
  const message = onceRules(err instanceof Error ? err.message : String(err));
  const code = err instanceof ServerError ? err.code : '';
  alertBox.textContent = t(key, { message: code ? `${message} (${code})` : message });
}

/**
 * Show the end of a game of the set (its places and points in words) before the next deal.
 * @param {string} text
 */
function showGameEnd(text) {
  const focused = document.activeElement;
  const close = h('button', { type: 'button', 'data-testid': 'game-end-close', onclick: () => hideGameEnd(true) }, t('table.game_end_close'));
  replace(gameEnd, h('h2', { id: 'h-game-end' }, t('table.game_end_title')), h('p', {}, text), h('p', { class: 'small', 'data-testid': 'game-end-next' }, t('table.game_end_next')), close);
  gameEnd.hidden = false;
  if (focused === board || focused === document.body) close.focus({ preventScroll: true });
}

/** @param {boolean} [byHand] the person closed it (the focus goes back to the board) */
function hideGameEnd(byHand = false) {
  if (gameEnd.hidden) return;
  const had = gameEnd.contains(document.activeElement);
  gameEnd.hidden = true;
  if (had || byHand) board.focus({ preventScroll: true });
}

/**
 * A refusal's message with the rules section it names said once (an engine's message may carry
 * it already when the host adds it again), in the page's words.
 * @param {string} message
 * @returns {string}
 */
function onceRules(message) {
  const parts = message.split(' — rules: ');
  if (parts.length < 2) return message;
  const sections = [...new Set(parts.slice(1).map((x) => x.trim()))];
  return `${parts[0]} (${t('table.rules_section', { section: sections.join(', ') })})`;
}

/** @param {any} e */
function eventText(e) {
  try {
    if (e.kind === 'talk' && e.data) return talkText(e.data, players());
    return endingText(e, players()) || boardModule.eventText(e, t, players(), view) || e.text;
  } catch {
    return e.text;
  }
}

/**
 * @param {any} line a talk event's data
 * @param {number} at its version
 */
function addTalk(line, at) {
  if (talkSeen.has(at)) return;
  talkSeen.add(at);
  talk.add(line, at);
}

/** @returns {string[]} */
function players() {
  if (view && Array.isArray(view.players)) return view.players;
  return (info?.seats || []).map((s) => s.name || t('seat.open'));
}

// --- drawing ---------------------------------------------------------------------------------
function render() {
  const status = info?.status || 'waiting';
  talk.players = players();
  if (!turn) {
    clock.set(null);
    signal.quiet();
  }
  if (view) {
    board.hidden = false;
    drawBoard({
      game: table.game,
      view,
      seat,
      players: players(),
      turn,
      outcome,
      mode: seat !== null && status === 'playing' ? 'play' : 'watch',
      busy: busy || !online,
      t,
      lang: lang(),
    });
  } else {
    board.hidden = true;
  }
  notice.textContent =
    status === 'waiting' ? t('table.waiting') : status === 'aborted' ? t('table.aborted') : turn ? t('table.your_turn') : seat === null && status === 'playing' ? t('table.watching') : '';
  if (outcome && status === 'finished') {
    replace(results, resultsTable(outcome, players(), table.game), h('p', {}, h('a', { href: href(`/games/${tableId}`), 'data-testid': 'replay-link' }, t('table.replay'))));
  }
}

/**
 * Give the board its state; a board's bug is logged and shown, and the page carries on.
 * @param {import('../boards/base.js').BoardState} state
 */
function drawBoard(state) {
  try {
    board.state = state;
  } catch (err) {
    console.error(err);
    alertBox.textContent = t('table.error', { message: String(err) });
  }
}

function renderMeta() {
  const current = info || table;
  ratings
    .load([current])
    .then((fresh) => fresh && renderMeta())
    .catch(() => {}); // ratings are a garnish: the table shows without them
  const mine = current.seats.find((s) => s.kind === 'player' && s.name === account);
  const actions = [];
  if (online && account && !mine && current.status === 'waiting') {
    for (const s of current.seats.filter((x) => x.kind === 'open')) {
      actions.push(
        h(
          'button',
          {
            type: 'button',
            'data-testid': `take-${s.seat}`,
            onclick: async () => {
              try {
                const reply = await conn.request({ type: 'join', table: tableId, seat: s.seat });
                seat = reply.seat;
              } catch (err) {
                showError(err);
              }
            },
          },
          t('table.take_seat', { seat: s.seat }),
        ),
      );
    }
  }
  if (online && mine && current.status === 'waiting') {
    actions.push(
      h(
        'button',
        {
          type: 'button',
          onclick: async () => {
            try {
              await conn.request({ type: 'leave', table: tableId });
              location.href = href('/');
            } catch (err) {
              showError(err);
            }
          },
        },
        t('lobby.leave'),
      ),
    );
  }
  replace(
    meta,
    h(
      'p',
      {},
      t('table.id', { id: tableId }),
      ' · ',
      t(`status.${current.status}`),
      ' · ',
      h('span', { 'data-testid': 'spectators' }, t('table.spectators', { n: current.spectators })),
      ' · ',
      h('span', { 'data-testid': 'time-control' }, t('table.time_control', { clock: clockText(current.time_limit, current.time_bank || 0) })),
      seat !== null ? [' · ', h('strong', {}, t('table.you_are', { seat }))] : null,
    ),
    h(
      'ul',
      { class: 'seats inline-list', 'aria-label': t('table.seats') },
      current.seats.map((s) => h('li', { class: s.kind === 'player' && !s.connected ? 'away' : '' }, `${s.seat}: `, seatLabel(s), ' ', ratings.badge(tableId, s.seat), s.kind === 'player' && !s.connected ? ` (${t('seat.away')})` : '')),
    ),
    actions.length ? h('div', { class: 'buttons' }, actions) : null,
    current.muted && current.muted.length ? h('p', { class: 'small', 'data-testid': 'muted' }, t('talk.muted_list', { names: current.muted.join(', ') })) : null,
  );
  const now = Date.now();
  for (const s of current.seats) {
    if (s.kind === 'player' && !s.connected && s.seat !== seat) {
      if (!awaySince.has(s.seat)) awaySince.set(s.seat, now);
    } else awaySince.delete(s.seat);
  }
  talk.moderate(account, mayMute(current), current.muted || [], mute);
  renderActions();
  render();
}

/**
 * Whether this person may mute talk here: the table's owner, or the host's operator.
 * @param {TableInfo} current
 */
function mayMute(current) {
  return Boolean(account && (current.owner === account || operator));
}

/**
 * @param {string} who
 * @param {boolean} muted
 */
async function mute(who, muted) {
  try {
    const reply = await conn.request({ type: 'mute', table: tableId, account: who, muted });
    info = reply.table;
    renderMeta();
  } catch (err) {
    showError(err);
  }
}

// --- ending early, playing again -------------------------------------------------------------
/**
 * Send one of the table's own requests (resign, abort, claim); a refusal shows the server's
 * reason.
 * @param {'resign' | 'abort' | 'claim'} type
 */
async function tableRequest(type) {
  alertBox.textContent = '';
  confirmResign = false;
  try {
    await conn.request({ type, table: tableId });
  } catch (err) {
    showError(err, 'table.refused');
  }
  renderActions();
}

/**
 * Milliseconds until a claim is allowed (0: now), or null when it cannot come: someone else
 * (a bot included) is here.
 * @param {TableInfo} current
 * @returns {number | null}
 */
function claimIn(current) {
  const others = current.seats.filter((s) => s.seat !== seat);
  if (!others.length || others.some((s) => s.kind !== 'player' || s.connected)) return null;
  const grace = Number(current.claim_grace || 0) * 1000;
  const since = Math.max(...others.map((s) => awaySince.get(s.seat) ?? Date.now()));
  return Math.max(0, since + grace - Date.now());
}

function renderActions() {
  const current = info || table;
  const playing = current.status === 'playing' && seat !== null;
  const over = current.status === 'finished' || current.status === 'aborted';
  /** @type {HTMLElement[]} */
  const buttons = [];
  window.clearTimeout(claimTimer);
  if (playing) {
    if (confirmResign) {
      buttons.push(
        h('span', { role: 'alert' }, t('table.resign_confirm')),
        h('button', { type: 'button', class: 'danger', 'data-testid': 'resign-yes', onclick: () => tableRequest('resign') }, t('table.resign_yes')),
        h('button', { type: 'button', 'data-testid': 'resign-no', onclick: () => ((confirmResign = false), renderActions()) }, t('table.cancel')),
      );
    } else {
      buttons.push(h('button', { type: 'button', 'data-testid': 'resign', onclick: () => ((confirmResign = true), renderActions()) }, t('table.resign')));
    }
    if (!moved) buttons.push(h('button', { type: 'button', 'data-testid': 'abort', onclick: () => tableRequest('abort') }, t('table.abort')));
    const wait = claimIn(current);
    if (wait !== null) {
      buttons.push(
        h('button', { type: 'button', 'data-testid': 'claim', disabled: wait > 0, onclick: () => tableRequest('claim') }, wait > 0 ? t('table.claim_in', { s: Math.ceil(wait / 1000) }) : t('table.claim')),
      );
      if (wait > 0) claimTimer = window.setTimeout(renderActions, Math.min(wait, 1000));
    }
  }
  if (over && seat !== null && account) {
    buttons.push(h('button', { type: 'button', 'data-testid': 'play-again', onclick: () => playAgain() }, t('table.play_again')));
  }
  const focused = document.activeElement instanceof HTMLElement && actionsBox.contains(document.activeElement) ? document.activeElement.dataset.testid : undefined;
  if (!online) for (const b of buttons) if (b instanceof HTMLButtonElement) b.disabled = true;
  replace(actionsBox, buttons);
  if (focused) {
    // Keyboard users stay here: Resign hands the focus to Cancel (the safe choice), the
    // confirmation's buttons hand it back to Resign, anything gone to the board.
    const next = { resign: 'resign-no', 'resign-no': 'resign', 'resign-yes': 'resign' }[focused];
    const again = /** @type {HTMLElement | null} */ (actionsBox.querySelector(`[data-testid="${focused}"]`) || (next ? actionsBox.querySelector(`[data-testid="${next}"]`) : null));
    (again || board).focus();
  }
}

/**
 * A new table with the same game, rules, clock and seats: this person's seat is theirs again,
 * bots come back, the other people's seats are open for them (they see a notice here).
 */
async function playAgain() {
  const current = info || table;
  const seats = current.seats.map((s) => (s.kind === 'bot' ? `bot:${s.name}` : s.kind === 'player' && s.name === account ? 'me' : 'open'));
  try {
    const reply = await conn.request({
      type: 'create_table',
      game: current.game,
      rules: current.rules,
      seats,
      options: { time_limit: current.time_limit, time_bank: current.time_bank || 0, absent_grace: current.absent_grace },
    });
    location.href = href(`/tables/${encodeURIComponent(reply.table.id)}`);
  } catch (err) {
    showError(err, 'table.refused');
  }
}

/**
 * After the end, players look for a rematch another player of this table opened: a waiting
 * table of the same game and rules, owned by one of them, with a seat open, that was not
 * there at the end. Bounded: every 3 s for 10 minutes, while the page is open.
 */
async function watchForRematch() {
  if (rematchWatch || seat === null || !account) return;
  const current = info || table;
  const people = new Set(current.seats.filter((s) => s.kind === 'player' && s.name && s.name !== account).map((s) => s.name));
  if (!people.size) return;
  rematchWatch = true;
  /** @returns {Promise<TableInfo[]>} */
  const waiting = async () => (await conn.request({ type: 'list_tables', game: current.game, status: 'waiting', limit: 50 })).tables;
  const before = new Set((await waiting().catch(() => [])).map((x) => x.id));
  const rules = JSON.stringify(current.rules);
  for (let i = 0; i < 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const found = (await waiting().catch(() => [])).find(
      (x) => !before.has(x.id) && Boolean(x.owner) && people.has(x.owner || null) && JSON.stringify(x.rules) === rules && x.seats.length === current.seats.length && x.seats.some((s) => s.kind === 'open'),
    );
    if (found) {
      replace(rematchBox, t('table.rematch', { name: found.owner || '' }), ' ', h('a', { href: href(`/tables/${encodeURIComponent(found.id)}`), 'data-testid': 'rematch-link' }, t('table.rematch_join')));
      return;
    }
  }
}
