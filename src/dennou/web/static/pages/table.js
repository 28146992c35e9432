// A table (/tables/{id}): play a seat or watch as a spectator, live. The board shows the view;
// talk, the decision clock, the event log and the results sit around it. After a drop or a
// server restart the connection comes back by itself and the page joins again with the last
// version it saw, so nothing is missed or shown twice.

import { Connection, ServerError, api } from '../lib/client.js';
import { h, replace } from '../lib/dom.js';
import { href, lang, t } from '../lib/i18n.js';
import { gameTitle, games, seatLabel, showConnection, startPage } from '../lib/page.js';
import { Clock, EventLog, TalkPanel, resultsTable } from '../lib/widgets.js';
import { loadBoard } from '../boards/index.js';
import { ACT_EVENT } from '../boards/base.js';

/** @typedef {import('../lib/client.js').Message} Message */
/** @typedef {import('../lib/page.js').TableInfo} TableInfo */
/** @typedef {import('../boards/base.js').Board} Board */

const tableId = decodeURIComponent(location.pathname.split('/')[2] || '');
const { main, account } = await startPage('table.title');
const conn = new Connection();
conn.onStatus(showConnection);

/** @type {TableInfo | null} */
let info = null;
try {
  info = await api(`/api/tables/${encodeURIComponent(tableId)}`);
} catch (err) {
  main.append(h('h1', {}, t('table.title')), h('p', { class: 'error', role: 'alert' }, err instanceof Error ? err.message : String(err)));
  throw err;
}
const table = /** @type {TableInfo} */ (info);
const gameInfo = (await games()).find((g) => g.name === table.game);
const boardModule = await loadBoard(table.game);

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

// --- layout ----------------------------------------------------------------------------------
const heading = h('h1', {}, gameTitle(table.game, gameInfo?.title));
const meta = h('div', { class: 'table-meta', 'data-testid': 'table-meta' });
const alertBox = h('p', { class: 'error', role: 'alert', id: 'table-error', 'data-testid': 'table-error' });
const notice = h('p', { class: 'notice', role: 'status', 'data-testid': 'table-notice' });
const clock = new Clock();
const board = /** @type {Board} */ (document.createElement(boardModule.tag));
board.id = 'board';
const results = h('div', { id: 'results-box' });
const log = new EventLog();
const talk = new TalkPanel(async (channel, text) => {
  await conn.request({ type: 'talk', table: tableId, channel, text });
});
const side = h('div', { class: 'side-panels' }, gameInfo?.talk ? talk.el : null, log.el);
main.append(heading, meta, alertBox, notice, h('div', { class: 'table-layout' }, h('div', { class: 'board-col' }, clock.el, board, results), side));
renderMeta();

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
  } catch (err) {
    showError(err);
  }
}

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
      if (msg.version <= version) return;
      version = msg.version;
      for (const e of msg.events) {
        if (e.kind === 'talk') talk.add(e.data);
        log.add(eventText(e), msg.version, msg.step === 'default' ? 'default' : '');
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
      turn = msg;
      if (msg.version >= viewVersion || !view) {
        view = msg.view;
        viewVersion = msg.version;
      }
      channels = msg.channels || channels;
      talk.open(channels);
      clock.set(msg.time_limit);
      render();
      break;
    case 'end':
      outcome = msg.outcome;
      turn = null;
      if (info) info = { ...info, status: 'finished', outcome: msg.outcome };
      refreshView();
      renderMeta();
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

/** Ask for the current view (coalesced: at most one request in flight). */
function refreshView() {
  if (viewInFlight) {
    viewAgain = true;
    return;
  }
  viewInFlight = true;
  conn
    .request({ type: 'get_view', table: tableId })
    .catch(() => {})
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
  const message = err instanceof Error ? err.message : String(err);
  const code = err instanceof ServerError ? err.code : '';
  alertBox.textContent = t(key, { message: code ? `${message} (${code})` : message });
}

/** @param {any} e */
function eventText(e) {
  try {
    return boardModule.eventText(e, t, players(), view) || e.text;
  } catch {
    return e.text;
  }
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
  if (!turn) clock.set(null);
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
      busy,
      t,
      lang: lang(),
    });
  } else {
    board.hidden = true;
  }
  notice.textContent =
    status === 'waiting' ? t('table.waiting') : turn ? t('table.your_turn') : seat === null && status === 'playing' ? t('table.watching') : '';
  if (outcome && status === 'finished') {
    replace(results, resultsTable(outcome, players()), h('p', {}, h('a', { href: href(`/games/${tableId}`), 'data-testid': 'replay-link' }, t('table.replay'))));
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
  const mine = current.seats.find((s) => s.kind === 'player' && s.name === account);
  const actions = [];
  if (account && !mine && current.status === 'waiting') {
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
  if (mine && current.status === 'waiting') {
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
    h('p', {}, t('table.id', { id: tableId }), ' · ', t(`status.${current.status}`), ' · ', t('table.spectators', { n: current.spectators }), seat !== null ? [' · ', h('strong', {}, t('table.you_are', { seat }))] : null),
    h(
      'ul',
      { class: 'seats inline-list', 'aria-label': t('table.seats') },
      current.seats.map((s) => h('li', { class: s.kind === 'player' && !s.connected ? 'away' : '' }, `${s.seat}: `, seatLabel(s), s.kind === 'player' && !s.connected ? ` (${t('seat.away')})` : '')),
    ),
    actions.length ? h('div', { class: 'buttons' }, actions) : null,
  );
  render();
}
