// The lobby (/): sign in, the seven games, live tables, finished games, and the form that
// creates a table (every rules option with its default and description, and each seat: open,
// me, or a built-in bot with options).

import { Connection, ServerError, api } from '../lib/client.js';
import { h, replace } from '../lib/dom.js';
import { href, t, tOr } from '../lib/i18n.js';
import { SeatRatings, clockText, gameTitle, games, seatLabel, showConnection, startPage, when } from '../lib/page.js';

/** @typedef {import('../lib/page.js').GameInfo} GameInfo */
/** @typedef {import('../lib/page.js').TableInfo} TableInfo */

/**
 * Time controls: seconds per decision and a time bank per table (a game, or a Daifugo set).
 * Against people the standard; against bots only, a relaxed clock (nobody waits on a person
 * who thinks longer).
 */
const PRESETS = [
  { name: 'blitz', clock: 10, bank: 60 },
  { name: 'standard', clock: 30, bank: 180 },
  { name: 'relaxed', clock: 60, bank: 600 },
  { name: 'long', clock: 300, bank: 1800 },
];

const { main, account } = await startPage('lobby.title');
const conn = new Connection();
conn.onStatus(showConnection);
const all = await games();

const alert = h('p', { class: 'error', role: 'alert', id: 'lobby-error' });
/** @param {unknown} err */
const fail = (err) => {
  alert.textContent = err instanceof Error ? err.message : String(err);
};

main.append(h('h1', {}, t('lobby.title')), alert);
main.append(account ? h('p', { class: 'hello' }, t('lobby.hello', { name: account })) : signInForm());

// --- games -----------------------------------------------------------------------------------
const gameList = h('ul', { class: 'games' });
for (const g of all) {
  gameList.append(
    h(
      'li',
      { 'data-game': g.name },
      h('strong', {}, gameTitle(g.name, g.title)),
      h('span', { class: 'players' }, t('lobby.players', { min: g.min_players, max: g.max_players })),
      h('span', { class: 'desc' }, tOr(`game.${g.name}.desc`, '')),
      account
        ? h('button', { type: 'button', onclick: () => chooseGame(g.name) }, t('lobby.new_table'))
        : null,
      h('a', { href: href(`/leaderboard/${g.name}`) }, t('nav.leaderboard')),
    ),
  );
}
main.append(h('section', { 'aria-labelledby': 'h-games' }, h('h2', { id: 'h-games' }, t('lobby.games')), gameList));

// --- create a table ----------------------------------------------------------------------------
const createSection = h('section', { 'aria-labelledby': 'h-create', id: 'create' });
/** @type {(name: string) => void} */
let chooseGame = () => {};
if (account) {
  main.append(createSection);
  chooseGame = buildCreateForm(createSection);
}

// --- tables ------------------------------------------------------------------------------------
// Live tables come a page at a time (list_tables: newest first, `total`, `next`); "more" asks for
// a bigger page. Games that are over come from the store (/api/games-over), also by pages.
const PAGE = 20;
let liveLimit = PAGE;
let doneLimit = PAGE;
const liveBody = h('tbody');
const ratings = new SeatRatings();
const doneBody = h('tbody');
const liveMore = h('button', { type: 'button', id: 'live-more', hidden: true, onclick: () => more('live') });
const doneMore = h('button', { type: 'button', id: 'done-more', hidden: true, onclick: () => more('done') });
main.append(
  h(
    'section',
    { 'aria-labelledby': 'h-live' },
    h('h2', { id: 'h-live' }, t('lobby.live')),
    h(
      'table',
      { class: 'tables', id: 'live-tables' },
      h('thead', {}, h('tr', {}, ['game', 'status', 'seats', 'clock', 'spectators', 'actions'].map((c) => h('th', { scope: 'col' }, t(`lobby.col.${c}`))))),
      liveBody,
    ),
    liveMore,
  ),
  h(
    'section',
    { 'aria-labelledby': 'h-done' },
    h('h2', { id: 'h-done' }, t('lobby.finished')),
    h(
      'table',
      { class: 'tables', id: 'finished-tables' },
      h('thead', {}, h('tr', {}, ['game', 'players', 'result', 'finished', 'actions'].map((c) => h('th', { scope: 'col' }, t(`lobby.col.${c}`))))),
      doneBody,
    ),
    doneMore,
  ),
);

conn.onReady(refresh);
conn.start();
setInterval(() => {
  if (conn.status === 'online' && document.visibilityState === 'visible') refresh().catch(() => {});
}, 3000);

/** @param {'live' | 'done'} which */
function more(which) {
  if (which === 'live') liveLimit += PAGE;
  else doneLimit += PAGE;
  refresh().catch(fail);
}

async function refresh() {
  const [waiting, playing, over] = await Promise.all([
    conn.request({ type: 'list_tables', status: 'waiting', limit: Math.min(liveLimit, 200) }),
    conn.request({ type: 'list_tables', status: 'playing', limit: Math.min(liveLimit, 200) }),
    api(`/api/games-over?limit=${Math.min(doneLimit, 200)}`),
  ]);
  /** @type {TableInfo[]} */
  const live = [...waiting.tables, ...playing.tables];
  replace(liveBody, live.length ? live.map(liveRow) : h('tr', {}, h('td', { colspan: 6 }, t('lobby.none'))));
  ratings
    .load(live)
    .then((fresh) => {
      if (fresh && live.length) replace(liveBody, live.map(liveRow));
    })
    .catch(() => {}); // ratings are a garnish: the tables show without them
  const liveTotal = waiting.total + playing.total;
  liveMore.hidden = live.length >= liveTotal || liveLimit >= 200;
  liveMore.textContent = t('lobby.more', { shown: live.length, total: liveTotal });
  /** @type {{id: string, game: string, status: string, players: string[] | null, outcome: any, finished_at: number | null}[]} */
  const games = over.games;
  replace(
    doneBody,
    games.length
      ? games.map((f) =>
          h(
            'tr',
            { 'data-table': f.id },
            h('td', {}, gameTitle(f.game)),
            h('td', {}, (f.players || []).join(', ')),
            h('td', {}, f.status === 'aborted' ? t('status.aborted') : winners(f.players || [], f.outcome)),
            h('td', {}, when(f.finished_at)),
            h('td', {}, h('a', { href: href(`/games/${f.id}`) }, t('lobby.replay'))),
          ),
        )
      : h('tr', {}, h('td', { colspan: 5 }, t('lobby.none'))),
  );
  doneMore.hidden = over.next === null || doneLimit >= 200;
  doneMore.textContent = t('lobby.more_games');
}

/**
 * Who came first, in words.
 * @param {string[]} players
 * @param {{ranks?: number[]} | null} outcome
 * @returns {string}
 */
function winners(players, outcome) {
  const ranks = outcome?.ranks || [];
  const first = players.filter((_, i) => ranks[i] === 1);
  return first.length ? t('lobby.won_by', { names: first.join(', ') }) : '';
}

/** @param {TableInfo} table */
function liveRow(table) {
  const mine = table.seats.find((s) => s.kind === 'player' && s.name === account);
  const open = table.seats.filter((s) => s.kind === 'open');
  /** @type {HTMLElement[]} */
  const actions = [h('a', { href: href(`/tables/${table.id}`) }, mine ? t('lobby.open') : t('lobby.watch'))];
  if (account && !mine && table.status === 'waiting' && open.length) {
    actions.push(
      h('button', { type: 'button', onclick: () => joinTable(table.id, open[0].seat) }, t('lobby.join_seat', { seat: open[0].seat })),
    );
  }
  if (mine && table.status === 'waiting') {
    actions.push(h('button', { type: 'button', onclick: () => leaveTable(table.id) }, t('lobby.leave')));
  }
  return h(
    'tr',
    { 'data-table': table.id },
    h('td', {}, gameTitle(table.game)),
    h('td', {}, t(`status.${table.status}`)),
    h(
      'td',
      {},
      h('ul', { class: 'seats' }, table.seats.map((s) => h('li', {}, `${s.seat}: `, seatLabel(s), ' ', ratings.badge(table.id, s.seat), s.kind === 'player' && !s.connected ? ` (${t('seat.away')})` : ''))),
    ),
    h('td', { 'data-testid': 'clock-setting' }, clockText(table.time_limit, table.time_bank || 0)),
    h('td', {}, String(table.spectators)),
    h('td', { class: 'actions' }, actions),
  );
}

/**
 * @param {string} table
 * @param {number} seat
 */
async function joinTable(table, seat) {
  try {
    await conn.request({ type: 'join', table, seat });
    location.href = href(`/tables/${table}`);
  } catch (err) {
    fail(err);
  }
}

/** @param {string} table */
async function leaveTable(table) {
  try {
    await conn.request({ type: 'join', table });
    await conn.request({ type: 'leave', table });
    await refresh();
  } catch (err) {
    fail(err);
  }
}

// --- sign in -------------------------------------------------------------------------------------
// Sign in with a name and password, or create an account (a name and a password); an API token
// signs in too. Each opens a browser session that the server ends at sign-out.
function signInForm() {
  const error = h('p', { class: 'error', role: 'alert', id: 'signin-error' });
  /**
   * @param {Event} ev
   * @param {Record<string, string | boolean>} body
   */
  const submit = async (ev, body) => {
    ev.preventDefault();
    try {
      await api('/api/session', { method: 'POST', body });
      location.reload();
    } catch (err) {
      error.textContent = err instanceof ServerError ? err.message : String(err);
    }
  };
  /**
   * A name field and a password field.
   * @param {string} prefix the ids' prefix
   * @param {boolean} fresh a new account's (the browser may suggest a new password)
   */
  const fields = (prefix, fresh) => {
    const name = h('input', { id: `${prefix}-name`, name: 'name', autocomplete: 'username', required: true, maxlength: 32 });
    const password = h('input', {
      id: `${prefix}-password`,
      name: 'password',
      type: 'password',
      required: true,
      minlength: fresh ? 8 : null,
      maxlength: 256,
      autocomplete: fresh ? 'new-password' : 'current-password',
    });
    return { name, password };
  };
  const signIn = fields('signin', false);
  const signUp = fields('signup', true);
  const token = h('input', { id: 'signin-token', name: 'token', type: 'password', autocomplete: 'off' });
  return h(
    'section',
    { 'aria-labelledby': 'h-signin', class: 'signin' },
    h('h2', { id: 'h-signin' }, t('signin.title')),
    h('p', {}, t('signin.intro')),
    h(
      'form',
      {
        id: 'signin-form',
        onsubmit: (/** @type {Event} */ ev) => submit(ev, { name: signIn.name.value.trim(), password: signIn.password.value }),
      },
      h('label', { for: 'signin-name' }, t('signin.name')),
      signIn.name,
      h('label', { for: 'signin-password' }, t('signin.password')),
      signIn.password,
      h('button', { type: 'submit' }, t('signin.signin')),
    ),
    h('h3', { id: 'h-signup' }, t('signin.new_title')),
    h(
      'form',
      {
        id: 'signup-form',
        'aria-labelledby': 'h-signup',
        onsubmit: (/** @type {Event} */ ev) =>
          submit(ev, { name: signUp.name.value.trim(), password: signUp.password.value, register: true }),
      },
      h('label', { for: 'signup-name' }, t('signin.name')),
      signUp.name,
      h('small', {}, t('signin.name_rule')),
      h('label', { for: 'signup-password' }, t('signin.password')),
      signUp.password,
      h('small', {}, t('signin.password_rule')),
      h('button', { type: 'submit' }, t('signin.create')),
    ),
    h(
      'details',
      {},
      h('summary', {}, t('signin.have_token')),
      h(
        'form',
        { id: 'token-form', onsubmit: (/** @type {Event} */ ev) => submit(ev, { token: token.value.trim() }) },
        h('label', { for: 'signin-token' }, t('signin.token')),
        token,
        h('button', { type: 'submit' }, t('signin.signin')),
      ),
    ),
    error,
  );
}

// --- the create-table form -------------------------------------------------------------------------
/**
 * @param {HTMLElement} section
 * @returns {(name: string) => void} selects a game in the form
 */
function buildCreateForm(section) {
  const gameSelect = h('select', { id: 'create-game', name: 'game' }, all.map((g) => h('option', { value: g.name }, gameTitle(g.name, g.title))));
  const rulesBox = h('fieldset', { id: 'create-rules' });
  const seatsBox = h('fieldset', { id: 'create-seats' });
  const countSelect = h('select', { id: 'create-count', name: 'count' });
  const preset = h('select', { id: 'opt-preset', 'data-testid': 'time-preset' }, PRESETS.map((x) => h('option', { value: x.name }, presetText(x))), h('option', { value: 'custom' }, t('create.preset.custom')));
  const timeLimit = h('input', { id: 'opt-time', type: 'number', min: 1, step: 'any', inputmode: 'decimal' });
  const timeBank = h('input', { id: 'opt-bank', type: 'number', min: 0, step: 'any', inputmode: 'decimal' });
  const customClock = h(
    'div',
    { class: 'custom-clock', hidden: true },
    h('div', { class: 'field' }, h('label', { for: 'opt-time' }, t('create.time_limit')), timeLimit),
    h('div', { class: 'field' }, h('label', { for: 'opt-bank' }, t('create.time_bank')), timeBank),
  );
  // The preset follows the seats (people or only bots) until the creator picks one.
  let presetChosen = false;
  const syncPreset = () => {
    if (!presetChosen) {
      const people = seatReaders.some((read) => read() === 'open');
      preset.value = people ? 'standard' : 'relaxed';
    }
    const chosen = PRESETS.find((x) => x.name === preset.value);
    customClock.hidden = Boolean(chosen);
    if (chosen) {
      timeLimit.value = String(chosen.clock);
      timeBank.value = String(chosen.bank);
    }
  };
  preset.addEventListener('change', () => {
    presetChosen = true;
    syncPreset();
  });
  const grace = h('input', { id: 'opt-grace', type: 'number', min: 0, step: 'any', placeholder: '5' });
  const seed = h('input', { id: 'opt-seed', type: 'number', step: 1, min: 0 });
  const error = h('p', { class: 'error', role: 'alert', id: 'create-error' });
  /** @type {(() => [string, any] | null)[]} */
  let ruleReaders = [];
  /** @type {(() => string)[]} */
  let seatReaders = [];

  const current = () => /** @type {GameInfo} */ (all.find((g) => g.name === gameSelect.value));

  const buildRules = () => {
    const g = current();
    ruleReaders = [];
    replace(rulesBox, h('legend', {}, t('create.rules')));
    for (const opt of g.rules) {
      const id = `rule-${opt.name}`;
      const desc = t(`rules.${g.name}.${opt.name}`);
      const { input, read } = ruleInput(opt, id, g.name);
      ruleReaders.push(() => {
        const value = read();
        return value === undefined ? null : [opt.name, value];
      });
      rulesBox.append(
        h(
          'div',
          { class: 'field' },
          h('label', { for: id, 'data-testid': 'rule-label' }, t(`rules.${g.name}.${opt.name}.label`), ' ', h('code', { class: 'small' }, opt.name)),
          input,
          h('small', { id: `${id}-desc` }, desc, ' ', h('span', { class: 'default' }, t('create.default', { value: valueText(g.name, opt.name, opt.default) }))),
        ),
      );
      input.setAttribute('aria-describedby', `${id}-desc`);
    }
  };

  const buildSeats = () => {
    const g = current();
    const n = Number(countSelect.value) || g.min_players;
    seatReaders = [];
    replace(seatsBox, h('legend', {}, t('create.seats')));
    const preferred = g.bots.find((b) => b !== 'random' && b !== 'montecarlo') || g.bots[0] || 'random';
    for (let i = 0; i < n; i++) {
      const kind = h(
        'select',
        { id: `seat-${i}`, 'data-seat': i },
        h('option', { value: 'me' }, t('create.seat_me')),
        h('option', { value: 'open' }, t('create.seat_open')),
        g.bots.map((b) => h('option', { value: `bot:${b}` }, t('create.seat_bot', { name: b }))),
      );
      kind.value = i === 0 ? 'me' : `bot:${preferred}`;
      const opts = h('input', { id: `seat-${i}-opts`, placeholder: 'ms=500', 'aria-label': t('create.bot_options', { seat: i }) });
      const sync = () => {
        opts.hidden = !kind.value.startsWith('bot:');
      };
      kind.addEventListener('change', sync);
      sync();
      kind.addEventListener('change', syncPreset);
      seatReaders.push(() => (kind.value.startsWith('bot:') && opts.value.trim() ? `${kind.value}:${opts.value.trim()}` : kind.value));
      seatsBox.append(h('div', { class: 'seat-row' }, h('label', { for: `seat-${i}` }, t('create.seat', { seat: i })), kind, opts));
    }
    syncPreset();
  };

  const buildCount = () => {
    const g = current();
    replace(countSelect);
    for (let n = g.min_players; n <= g.max_players; n++) countSelect.append(h('option', { value: n }, String(n)));
    countSelect.value = String(g.min_players);
    buildSeats();
  };

  gameSelect.addEventListener('change', () => {
    buildRules();
    buildCount();
  });
  countSelect.addEventListener('change', buildSeats);

  const submit = async (/** @type {Event} */ ev) => {
    ev.preventDefault();
    error.textContent = '';
    try {
      /** @type {Record<string, any>} */
      const rules = {};
      for (const read of ruleReaders) {
        const pair = read();
        if (pair) rules[pair[0]] = pair[1];
      }
      const seats = seatReaders.map((read) => read());
      /** @type {Record<string, number>} */
      const options = {};
      if (timeLimit.value) options.time_limit = Number(timeLimit.value);
      if (timeBank.value) options.time_bank = Number(timeBank.value);
      if (grace.value) options.absent_grace = Number(grace.value);
      if (seed.value) options.seed = Number(seed.value);
      const reply = await conn.request({ type: 'create_table', game: gameSelect.value, rules, seats, options });
      location.href = href(`/tables/${reply.table.id}`);
    } catch (err) {
      error.textContent = err instanceof Error ? err.message : String(err);
    }
  };

  replace(
    section,
    h('h2', { id: 'h-create' }, t('create.title')),
    h(
      'form',
      { id: 'create-form', onsubmit: submit },
      h('div', { class: 'field' }, h('label', { for: 'create-game' }, t('create.game')), gameSelect),
      rulesBox,
      h('div', { class: 'field' }, h('label', { for: 'create-count' }, t('create.count')), countSelect),
      seatsBox,
      h(
        'fieldset',
        {},
        h('legend', {}, t('create.options')),
        h('div', { class: 'field' }, h('label', { for: 'opt-preset' }, t('create.preset')), preset, h('small', {}, t('create.preset_help'))),
        customClock,
        h('div', { class: 'field' }, h('label', { for: 'opt-grace' }, t('create.absent_grace')), grace),
        h('div', { class: 'field' }, h('label', { for: 'opt-seed' }, t('create.seed')), seed),
      ),
      h('button', { type: 'submit', id: 'create-submit' }, t('create.submit')),
      error,
    ),
  );
  buildRules();
  buildCount();
  return (name) => {
    gameSelect.value = name;
    buildRules();
    buildCount();
    section.scrollIntoView();
    gameSelect.focus();
  };
}

/** @param {{name: string, clock: number, bank: number}} x */
function presetText(x) {
  return `${t(`create.preset.${x.name}`)} — ${clockText(x.clock, x.bank)}`;
}

/**
 * A rules value in words (a default, a select's choice): yes/no, none, a list, a choice's name.
 * @param {string} game
 * @param {string} option
 * @param {any} value
 * @returns {string}
 */
function valueText(game, option, value) {
  if (value === null || value === undefined) return t('create.none');
  if (typeof value === 'boolean') return t(value ? 'create.yes' : 'create.no');
  if (Array.isArray(value)) return value.map((v) => valueText(game, option, v)).join(', ');
  if (typeof value === 'string') return tOr(`rules.${game}.${option}.value.${value}`, value);
  if (typeof value === 'number') return value.toLocaleString();
  return JSON.stringify(value);
}

/**
 * An input for one rules option, and how to read it (undefined: keep the default).
 * @param {{name: string, type: string, default: any}} opt
 * @param {string} id
 * @param {string} game
 * @returns {{input: HTMLInputElement | HTMLSelectElement, read: () => any}}
 */
function ruleInput(opt, id, game) {
  const type = opt.type;
  if (type === 'bool') {
    const input = h('input', { id, type: 'checkbox' });
    input.checked = Boolean(opt.default);
    return { input, read: () => (input.checked === Boolean(opt.default) ? undefined : input.checked) };
  }
  const literal = type.match(/^one of ([\w|]+)$/) || type.match(/^Literal\[(.*)\]$/);
  if (literal) {
    const values = literal[1].includes("'") ? [...literal[1].matchAll(/'([^']*)'/g)].map((m) => m[1]) : literal[1].split('|');
    const input = h('select', { id }, values.map((v) => h('option', { value: v }, t(`rules.${game}.${opt.name}.value.${v}`))));
    input.value = String(opt.default);
    return { input, read: () => (input.value === opt.default ? undefined : input.value) };
  }
  const numeric = /^(int|float)( or none)?$/.test(type) || /^Optional\[Annotated\[(int|float)/.test(type);
  if (numeric) {
    const input = h('input', { id, type: 'number', step: type.includes('float') ? 'any' : 1, placeholder: opt.default === null ? '—' : String(opt.default), inputmode: 'decimal' });
    return { input, read: () => (input.value === '' ? undefined : Number(input.value)) };
  }
  // Lists and other structures: JSON, or a comma-separated list.
  const input = h('input', { id, placeholder: opt.default === null ? '—' : JSON.stringify(opt.default) });
  return {
    input,
    read: () => {
      const text = input.value.trim();
      if (!text) return undefined;
      if (/^[[{"]|^-?\d+$|^null$/.test(text)) return JSON.parse(text);
      return text.split(',').map((part) => {
        const p = part.trim();
        return /^-?\d+(\.\d+)?$/.test(p) ? Number(p) : p;
      });
    },
  };
}
