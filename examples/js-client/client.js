#!/usr/bin/env node
// A dennou client in JavaScript: Node and the `ws` package, nothing else.
//
// It speaks the protocol of docs/protocol.md: hello, find or create a table, join, answer every
// `turn` with one of the legal actions it was sent, and reconnect (joining again with the last
// version it saw) if the connection drops. It plays any game generically:
//   - when the turn lists the legal actions, it plays the first one: engines list their actions
//     in ascending order, so for Daifugo this is the weakest legal play;
//   - when there are too many to list, it picks from `legal_sample` (for Numeron calls it
//     narrows the candidates with the judgments it has seen, so games end quickly).
//
// Usage (after `npm install` in this directory, which fetches `ws`):
//   node client.js --server ws://127.0.0.1:8000/ws --token TOKEN (--table ID | --join GAME)
//                  [--games N] [--rules '{"digits":3}'] [--seats open,bot:random]
// --server and --token default to the environment's DENNOU_SERVER and DENNOU_TOKEN (as for
// `dennou bot run`). Prints one JSON line per finished game: {"table", "seat", "outcome"};
// exits 0 when done.
'use strict';

let WebSocket;
try {
  WebSocket = require('ws');
} catch (err) {
  console.error(`${err.message}\nthe client needs the ws package: run \`npm install\` in ${__dirname}`);
  process.exit(2);
}

function parseArgs(argv) {
  const args = {
    server: process.env.DENNOU_SERVER || 'ws://127.0.0.1:8000/ws',
    token: process.env.DENNOU_TOKEN,
    games: 1,
  };
  for (let i = 2; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    args[key] = argv[i + 1];
  }
  args.games = Number(args.games);
  if (!args.token || (!args.table && !args.join)) {
    console.error('usage: client.js --server URL --token TOKEN (--table ID | --join GAME) [--games N]');
    process.exit(2);
  }
  return args;
}

// --- choosing an action -------------------------------------------------------------------
function numeronCandidates(view) {
  const digits = view.rules.digits;
  const out = [];
  const walk = (prefix) => {
    if (prefix.length === digits) { out.push(prefix); return; }
    for (let d = 0; d <= 9; d++) if (!prefix.includes(String(d))) walk(prefix + d);
  };
  walk('');
  const judged = view.log.filter((e) => e.kind === 'call' && e.data.seat === view.seat);
  const judge = (secret, call) => {
    let eat = 0; let bite = 0;
    for (let i = 0; i < call.length; i++) {
      if (secret[i] === call[i]) eat++; else if (secret.includes(call[i])) bite++;
    }
    return [eat, bite];
  };
  return out.filter((n) => judged.every((e) => {
    const [eat, bite] = judge(n, e.data.number);
    return eat === e.data.eat && bite === e.data.bite;
  }));
}

function choose(turn) {
  if (turn.legal && turn.legal.length) return turn.legal[0];
  const sample = turn.legal_sample || [];
  const view = turn.view;
  if (view.game === 'numeron' && sample.length && sample[0].type === 'call') {
    // Items change the secret; with them the judgments are not a plain filter any more.
    const candidates = (view.rules.items && view.rules.items.length) ? [] : numeronCandidates(view);
    if (candidates.length) return { type: 'call', number: candidates[0] };
  }
  return sample[0];
}

// --- the protocol -------------------------------------------------------------------------
class Session {
  constructor(args) {
    this.args = args;
    this.nextId = 1;
    this.pending = new Map();
    this.table = args.table || null;
    this.version = null;
    this.played = 0;
    this.retries = 0;
  }

  request(ws, message) {
    const id = this.nextId++;
    ws.send(JSON.stringify({ ...message, id }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  connect() {
    const ws = new WebSocket(this.args.server);
    ws.on('open', () => this.start(ws).catch((err) => this.fail(ws, err)));
    ws.on('message', (raw) => this.onMessage(ws, JSON.parse(raw.toString())));
    ws.on('close', () => this.onClose());
    ws.on('error', () => {});
  }

  async start(ws) {
    await this.request(ws, { type: 'hello', protocol: 1, token: this.args.token });
    if (!this.table) this.table = await this.findTable(ws);
    const joined = await this.request(ws, { type: 'join', table: this.table, version: this.version });
    this.seat = joined.seat;
    this.retries = 0;
  }

  async findTable(ws) {
    const { tables } = await this.request(ws, { type: 'list_tables', game: this.args.join, status: 'waiting' });
    const open = tables.find((t) => t.seats.some((s) => s.kind === 'open'));
    if (open) return open.id;
    const seats = this.args.seats ? this.args.seats.split(',') : null;
    const rules = this.args.rules ? JSON.parse(this.args.rules) : {};
    const { table } = await this.request(ws, { type: 'create_table', game: this.args.join, rules, seats });
    return table.id;
  }

  onMessage(ws, msg) {
    const waiter = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
    if (waiter) {
      this.pending.delete(msg.id);
      if (msg.type === 'error') waiter.reject(new Error(`${msg.code}: ${msg.message}`));
      else waiter.resolve(msg);
    }
    if (msg.table !== undefined && msg.table !== this.table && msg.type !== 'table') return;
    switch (msg.type) {
      case 'view':
      case 'event':
        this.version = msg.version;
        break;
      case 'turn':
        ws.send(JSON.stringify({ type: 'act', table: this.table, action: choose(msg), version: msg.version }));
        break;
      case 'end':
        console.log(JSON.stringify({ table: this.table, seat: this.seat, outcome: msg.outcome }));
        this.played++;
        this.version = null;
        if (this.played >= this.args.games || this.args.table) {
          this.done = true;
          ws.close();
        } else {
          this.table = null;
          this.start(ws).catch((err) => this.fail(ws, err));
        }
        break;
      case 'error':
        if (!waiter && msg.code !== 'stale_version') console.error(`server: ${msg.code}: ${msg.message}`);
        break;
      default:
        break;
    }
  }

  onClose() {
    for (const { reject } of this.pending.values()) reject(new Error('connection closed'));
    this.pending.clear();
    if (this.done) process.exit(process.exitCode || 0);
    if (++this.retries > 300) { console.error('gave up reconnecting'); process.exit(1); }
    setTimeout(() => this.connect(), 200);  // the server may be restarting: join again
  }

  fail(ws, err) {
    console.error(String(err.message || err));
    this.done = true;
    process.exitCode = 1;
    ws.close();
  }
}

if (require.main === module) new Session(parseArgs(process.argv)).connect();
module.exports = { choose, numeronCandidates };
