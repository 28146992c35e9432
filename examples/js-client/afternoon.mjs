// A complete dennou client in one file (Node 18+, `npm install ws`).
// Usage: node client.mjs ws://127.0.0.1:8000/ws TOKEN numeron '{"digits": 3}' [bot:random ...]
// Plays one game against built-in bots and prints the outcome as one JSON line.
import WebSocket from 'ws';

/** Pick an action: the first listed one, or for Numeron a number that fits the judgments. */
function choose(turn) {
  if (turn.legal !== null) return turn.legal[0]; // at most 300: all listed (Daifugo's give too)
  const view = turn.view;
  if (view.game === 'numeron' && view.phase === 'call') {
    const calls = view.log.filter((e) => e.kind === 'call' && e.data.seat === view.seat).map((e) => e.data);
    const fits = (n) => calls.every((c) => {
      let eat = 0; let bite = 0;
      for (let i = 0; i < n.length; i++) { if (n[i] === c.number[i]) eat++; else if (c.number.includes(n[i])) bite++; }
      return eat === c.eat && bite === c.bite;
    });
    const walk = (prefix) => {
      if (prefix.length === view.rules.digits) return fits(prefix) ? prefix : null;
      for (const d of '0123456789') if (!prefix.includes(d)) { const n = walk(prefix + d); if (n) return n; }
      return null;
    };
    const number = walk('');
    if (number) return { type: 'call', number };
  }
  return turn.legal_sample[0]; // too many to list: 20 samples, all legal
}

function play(url, token, game, rules, seats) {
  let table = null; let version = 0; let finished = false;
  return new Promise((resolve) => {
    const connect = () => { // one call per connection: a lost connection comes back here
      const ws = new WebSocket(url);
      let id = 0;
      const send = (message) => ws.send(JSON.stringify({ ...message, id: ++id }));
      ws.on('open', () => {
        send({ type: 'hello', protocol: 1, token });
        if (table === null) send({ type: 'create_table', game, rules, seats: ['me', ...seats] });
        else send({ type: 'join', table, version }); // back after a drop: everything after `version`
      });
      ws.on('message', (raw) => {
        const msg = JSON.parse(raw);
        if (msg.type === 'event' && msg.version <= version) return; // already seen: drop it
        if (typeof msg.version === 'number') version = Math.max(version, msg.version);
        if (msg.type === 'table' && table === null) table = msg.table.id;
        else if (msg.type === 'turn') send({ type: 'act', table, action: choose(msg), version: msg.version });
        else if (msg.type === 'error') {
          console.error('refused:', msg.code, msg.message);
          if (msg.code === 'stale_version') send({ type: 'resume', table, version }); // where are we?
        } else if (msg.type === 'end') {
          finished = true;
          ws.close();
          resolve({ table, status: msg.status, outcome: msg.outcome });
        }
      });
      ws.on('close', () => { if (!finished) setTimeout(connect, 500); }); // the server went away
      ws.on('error', () => {});
    };
    connect();
  });
}

const [url, token, game, rules, ...seats] = process.argv.slice(2);
const result = await play(url, token, game, JSON.parse(rules), seats.length ? seats : ['bot:random']);
console.log(JSON.stringify(result));
process.exit(0);
