// The replay page: /games/{id} (a finished table, as the person may read its record) and /replay
// (a record file the person drops on the page; nothing is stored). The server rebuilds the
// states (the browser cannot run the engines) and sends windows of frames: each frame's view
// and events as one seat, or the spectators, saw them. The step and the seat are in the URL
// (`#step=40&seat=1`), so a moment can be shared.

import { api } from '../lib/client.js';
import { h, replace } from '../lib/dom.js';
import { lang, t, tOr } from '../lib/i18n.js';
import { gameTitle, games, startPage } from '../lib/page.js';
import { EventLog, endingText, resultsTable } from '../lib/widgets.js';
import { loadBoard } from '../boards/index.js';
import { talkText } from '../boards/base.js';

/**
 * @typedef {{kind: string, text: string, data: Record<string, any>}} GameEvent
 * @typedef {{version: number, step: {seat: number, kind: string, reason: string | null} | null,
 *   events: GameEvent[], view: any, to_act: number[], hidden: Record<string, any>[] | null}} Frame
 * @typedef {{game: string, players: string[], rules: any, outcome: any, steps: number,
 *   seat: number | null, audience: string, frames: Frame[]}} Window
 */

const WINDOW = 100;
/** Steps of events shown in the log before the current one. */
const LOG_STEPS = 200;
const SPEEDS = [0.5, 1, 2, 4, 8];

const { main } = await startPage('replay.title');
const tableId = location.pathname.startsWith('/games/')
  ? decodeURIComponent(location.pathname.split('/')[2] || '')
  : null;

const heading = h('h1', {}, t('replay.title'));
const alertBox = h('p', { class: 'error', role: 'alert', 'data-testid': 'replay-error' });
const controls = h('div', { class: 'replay-controls', 'data-testid': 'replay-controls' });
const boardBox = h('div', { class: 'board-col' });
const results = h('div', { id: 'results-box' });
const revealed = h('div', { class: 'revealed', 'data-testid': 'replay-revealed' });
const log = new EventLog();
main.append(heading, alertBox, controls, h('div', { class: 'table-layout' }, h('div', { class: 'board-col' }, h('h2', { class: 'sr-only' }, t('table.board')), boardBox, results, revealed), h('div', { class: 'side-panels' }, log.el)));

/** @type {string | null} the dropped record's text */
let fileText = null;
/** @type {Window | null} */
let meta = null;
/** @type {Map<string, Frame>} frames by `seat:version` */
const frames = new Map();
/** @type {import('../boards/base.js').Board | null} */
let board = null;
/** @type {import('../boards/index.js').BoardModule | null} */
let boardModule = null;
let step = 0;
/** @type {number | null} */
let seat = null;
/** @type {number | null} */
let timer = null;
let speed = 1;

/**
 * The step and seat the URL's hash names.
 * @returns {{step: number, seat: number | null}}
 */
function fromHash() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const at = Math.max(0, Number.parseInt(hash.get('step') || '0', 10) || 0);
  const who = hash.has('seat') && hash.get('seat') !== '' ? Number.parseInt(hash.get('seat') || '', 10) : null;
  return { step: at, seat: who === null || Number.isNaN(who) ? null : who };
}
({ step, seat } = fromHash());

// A hash typed or pasted, and Back and Forward through the steps visited, move the replay.
const follow = () => {
  const wanted = fromHash();
  if (!meta || (wanted.step === step && wanted.seat === seat)) return;
  stop();
  seat = wanted.seat !== null && wanted.seat < meta.players.length ? wanted.seat : null;
  drawControls();
  go(wanted.step, false).catch(fail);
};
window.addEventListener('hashchange', follow);
window.addEventListener('popstate', follow);

if (tableId) {
  start().catch(fail);
} else {
  fileForm();
}

/** @param {unknown} err */
function fail(err) {
  alertBox.textContent = err instanceof Error ? err.message : String(err);
}

// --- loading ---------------------------------------------------------------------------------
/**
 * The window of frames from ``from`` for the current seat (from the server: the stored table's
 * or the dropped file's record).
 * @param {number} from
 * @returns {Promise<Window>}
 */
async function fetchWindow(from) {
  const reveal = meta !== null && from + WINDOW > meta.steps;
  if (tableId) {
    const q = new URLSearchParams({ from: String(from), count: String(WINDOW), reveal: String(reveal) });
    if (seat !== null) q.set('seat', String(seat));
    return api(`/api/tables/${encodeURIComponent(tableId)}/replay?${q}`);
  }
  return api('/api/replay', { method: 'POST', body: { record: fileText, seat, from, count: WINDOW, reveal } });
}

/**
 * Make sure frames ``lo..hi`` of the current seat are here.
 * @param {number} lo
 * @param {number} hi
 */
async function ensure(lo, hi) {
  for (let v = Math.max(0, lo); v <= hi; v++) {
    if (frames.has(`${seat}:${v}`)) continue;
    const got = await fetchWindow(v);
    meta = meta || got;
    for (const f of got.frames) frames.set(`${seat}:${f.version}`, f);
    if (!got.frames.length) break;
    v = got.frames[got.frames.length - 1].version;
  }
}

async function start() {
  const first = await fetchWindow(0);
  meta = first;
  for (const f of first.frames) frames.set(`${seat}:${f.version}`, f);
  const info = (await games()).find((g) => g.name === first.game);
  heading.textContent = `${t('replay.title')} — ${gameTitle(first.game, info?.title)}`;
  boardModule = await loadBoard(info?.board);
  board = /** @type {import('../boards/base.js').Board} */ (document.createElement(boardModule.tag));
  board.id = 'board';
  replace(boardBox, board);
  drawControls();
  await go(Math.min(step, first.steps), false);
}

function fileForm() {
  const input = /** @type {HTMLInputElement} */ (h('input', { type: 'file', id: 'replay-file', accept: '.jsonl,.json,.txt,application/x-ndjson' }));
  const zone = h('div', { class: 'drop-zone', 'data-testid': 'drop-zone', tabindex: 0 }, h('p', {}, t('replay.drop')), h('label', { for: 'replay-file' }, t('replay.choose')), input);
  /** @param {File | undefined | null} file */
  const read = async (file) => {
    if (!file) return;
    try {
      fileText = await file.text();
      frames.clear();
      meta = null;
      alertBox.textContent = '';
      await start();
    } catch (err) {
      fail(err);
    }
  };
  input.addEventListener('change', () => read(input.files?.[0]));
  zone.addEventListener('dragover', (ev) => ev.preventDefault());
  zone.addEventListener('drop', (ev) => {
    ev.preventDefault();
    read(/** @type {DragEvent} */ (ev).dataTransfer?.files?.[0]);
  });
  replace(controls, zone);
}

// --- moving ----------------------------------------------------------------------------------
/**
 * Show step ``to`` (clamped to the record). A person's move is a history entry (Back returns to
 * the step before); playing and following the URL only rewrite the current one.
 * @param {number} to
 * @param {boolean} [remember]
 */
async function go(to, remember = true) {
  if (!meta) return;
  step = Math.max(0, Math.min(to, meta.steps));
  try {
    await ensure(Math.max(0, step - LOG_STEPS), step);
    const end = frames.get(`${seat}:${step}`);
    if (step === meta.steps && end && !end.hidden) {
      // the last frame with every seat's hidden fields (fetched at first without them)
      const got = await fetchWindow(step);
      for (const f of got.frames) frames.set(`${seat}:${f.version}`, f);
    }
  } catch (err) {
    stop();
    fail(err);
    return;
  }
  const params = new URLSearchParams({ step: String(step) });
  if (seat !== null) params.set('seat', String(seat));
  if (`#${params}` !== location.hash) {
    if (remember && location.hash) history.pushState(null, '', `#${params}`);
    else history.replaceState(null, '', `#${params}`);
  }
  draw();
}

function draw() {
  if (!meta || !board || !boardModule) return;
  const frame = frames.get(`${seat}:${step}`);
  if (!frame) return;
  const last = step === meta.steps;
  const players = meta.players;
  board.state = {
    game: meta.game,
    view: frame.view,
    seat,
    players,
    turn: null,
    outcome: last ? meta.outcome : null,
    mode: 'replay',
    busy: false,
    t,
    lang: lang(),
  };
  const module = boardModule;
  log.clear();
  for (let v = Math.max(0, step - LOG_STEPS); v <= step; v++) {
    const f = frames.get(`${seat}:${v}`);
    for (const e of f?.events || []) log.add((e.kind === 'talk' && e.data ? talkText(e.data, players) : null) || endingText(e, players) || module.eventText(e, t, players, f?.view) || e.text, v);
  }
  const position = /** @type {HTMLElement | null} */ (controls.querySelector('[data-testid=replay-step]'));
  if (position) position.textContent = t('replay.step', { step, total: meta.steps });
  const slider = /** @type {HTMLInputElement | null} */ (controls.querySelector('#replay-slider'));
  if (slider) slider.value = String(step);
  replace(results, last && meta.outcome ? resultsTable(meta.outcome, players, meta.game) : '');
  replace(revealed, ...(last && frame.hidden ? revealedHands(frame.hidden, players) : []));
}

/**
 * What each seat saw that a spectator did not, once the game is over (hands revealed).
 * @param {Record<string, any>[]} hidden
 * @param {string[]} players
 * @returns {Node[]}
 */
function revealedHands(hidden, players) {
  const rows = hidden
    .map((fields, i) => ({ i, fields }))
    .filter((r) => Object.keys(r.fields).length)
    .map((r) => h('li', {}, h('strong', {}, players[r.i] || String(r.i)), ': ', Object.entries(r.fields).map(([k, v]) => `${t(`replay.field.${k}`)}: ${hiddenText(v)}`).join('; ')));
  return rows.length ? [h('h2', {}, t('replay.revealed')), h('ul', {}, ...rows)] : [];
}

/**
 * A hidden field's value in words (cards, numbers, lists), never as JSON.
 * @param {any} value
 * @returns {string}
 */
function hiddenText(value) {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return t(value ? 'create.yes' : 'create.no');
  if (typeof value === 'number') return value.toLocaleString();
  if (typeof value === 'string') return tOr(`replay.value.${value}`, value);
  if (Array.isArray(value)) return value.map(hiddenText).join(' ');
  return Object.entries(value)
    .map(([k, v]) => `${k} ${hiddenText(v)}`)
    .join(', ');
}

/**
 * Whose record this is, in words (the server says `all`, `seat N` or `spectators`).
 * @param {string} audience
 * @param {string[]} players
 * @returns {string}
 */
function audienceText(audience, players) {
  const seatNo = audience.match(/^seat (\d+)$/);
  if (seatNo) return t('replay.audience_seat', { name: players[Number(seatNo[1])] ?? seatNo[1] });
  return audience === 'all' ? t('replay.audience_all') : t('replay.spectator');
}

function stop() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  const button = controls.querySelector('#replay-play');
  if (button) button.textContent = t('replay.play');
}

function play() {
  if (timer !== null) {
    stop();
    return;
  }
  if (meta && step >= meta.steps) step = 0;
  const button = controls.querySelector('#replay-play');
  if (button) button.textContent = t('replay.pause');
  timer = window.setInterval(() => {
    if (!meta || step >= meta.steps) {
      stop();
      return;
    }
    go(step + 1, false);
  }, 1000 / speed);
}

function drawControls() {
  if (!meta) return;
  const total = meta.steps;
  /**
   * @param {string} id
   * @param {string} label
   * @param {() => void} fn
   */
  const button = (id, label, fn) => {
    const b = h('button', { type: 'button', id, 'data-testid': id }, label);
    b.addEventListener('click', fn);
    return b;
  };
  const who = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { id: 'replay-seat', 'aria-label': t('replay.seat') },
      h('option', { value: '' }, t('replay.spectator')),
      ...meta.players.map((name, i) => h('option', { value: String(i) }, `${i}: ${name}`)),
    )
  );
  who.value = seat === null ? '' : String(seat);
  who.addEventListener('change', () => {
    seat = who.value === '' ? null : Number(who.value);
    go(step).catch(fail);
  });
  const pace = /** @type {HTMLSelectElement} */ (
    h('select', { id: 'replay-speed', 'aria-label': t('replay.speed') }, ...SPEEDS.map((s) => h('option', { value: String(s) }, t('replay.per_second', { n: s }))))
  );
  pace.value = String(speed);
  pace.addEventListener('change', () => {
    speed = Number(pace.value);
    if (timer !== null) {
      stop();
      play();
    }
  });
  const slider = /** @type {HTMLInputElement} */ (h('input', { type: 'range', id: 'replay-slider', min: 0, max: total, value: step, 'aria-label': t('replay.position') }));
  slider.addEventListener('change', () => go(Number(slider.value)));
  replace(
    controls,
    h('label', { for: 'replay-seat' }, t('replay.seat')),
    who,
    button('replay-first', t('replay.first'), () => go(0)),
    button('replay-back', t('replay.back'), () => go(step - 1)),
    button('replay-play', t('replay.play'), play),
    button('replay-forward', t('replay.forward'), () => go(step + 1)),
    button('replay-last', t('replay.last'), () => go(total)),
    pace,
    slider,
    h('span', { 'data-testid': 'replay-step', role: 'status' }, t('replay.step', { step, total })),
    h('span', { class: 'audience' }, t('replay.audience', { audience: audienceText(meta.audience, meta.players) })),
  );
}

document.addEventListener('keydown', (ev) => {
  const target = /** @type {HTMLElement} */ (ev.target);
  if (!meta || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName)) return;
  if (ev.key === 'ArrowRight') go(step + 1);
  else if (ev.key === 'ArrowLeft') go(step - 1);
  else if (ev.key === 'Home') go(0);
  else if (ev.key === 'End') go(meta.steps);
});
