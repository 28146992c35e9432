// The protocol client (docs/protocol.md): one WebSocket, JSON messages, replies matched by id.
// It authenticates from the session cookie (hello with no token), and reconnects by itself after
// a drop or a server restart: every `ready` listener runs again after each new welcome, which is
// where pages join their table again with the last version they saw.

/**
 * @typedef {{type: string, id?: number | string | null, [key: string]: any}} Message
 * @typedef {'connecting' | 'online' | 'offline'} Status
 */

/** A refusal from the server (an `error` message), as a JavaScript error. */
export class ServerError extends Error {
  /** @param {Message} msg */
  constructor(msg) {
    super(String(msg.message || msg.code));
    this.code = String(msg.code || 'error');
    this.msg = msg;
  }
}

/** Milliseconds a request waits for its answer by default. */
export const REQUEST_TIMEOUT = 20000;

export class Connection {
  constructor(url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`) {
    this.url = url;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.nextId = 1;
    /** @type {Map<number, {resolve: (m: Message) => void, reject: (e: Error) => void}>} */
    this.pending = new Map();
    /** @type {Set<(m: Message) => void>} */
    this.listeners = new Set();
    /** @type {Set<(welcome: Message) => void | Promise<void>>} */
    this.readyListeners = new Set();
    /** @type {Set<(s: Status) => void>} */
    this.statusListeners = new Set();
    /** @type {Status} */
    this.status = 'offline';
    /** @type {string | null} */
    this.account = null;
    this.retry = 0;
    this.stopped = false;
    this.connections = 0;
  }

  /** Open the connection (and keep it open). */
  start() {
    this.stopped = false;
    this.open();
  }

  /** Close for good. */
  stop() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }

  /** @private */
  open() {
    this.setStatus('connecting');
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.request({ type: 'hello', protocol: 1, token: null }, ws)
        .then(async (welcome) => {
          this.retry = 0;
          this.connections += 1;
          this.account = welcome.account ?? null;
          this.setStatus('online');
          for (const fn of this.readyListeners) {
            try {
              await fn(welcome);
            } catch (err) {
              console.error(err);
            }
          }
        })
        .catch((err) => console.error(err));
    });
    ws.addEventListener('message', (ev) => {
      /** @type {Message} */
      let msg;
      try {
        msg = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      this.dispatch(msg);
    });
    ws.addEventListener('close', () => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const { reject } of this.pending.values()) reject(new Error('connection lost'));
      this.pending.clear();
      this.setStatus('offline');
      if (this.stopped) return;
      // Back off up to 4 s: the server may be restarting.
      const wait = Math.min(4000, 250 * 2 ** Math.min(this.retry, 4));
      this.retry += 1;
      setTimeout(() => this.open(), wait);
    });
  }

  /**
   * @private
   * @param {Message} msg
   */
  dispatch(msg) {
    const waiter = typeof msg.id === 'number' ? this.pending.get(msg.id) : undefined;
    if (waiter && typeof msg.id === 'number') {
      this.pending.delete(msg.id);
      if (msg.type === 'error') waiter.reject(new ServerError(msg));
      else waiter.resolve(msg);
    }
    for (const fn of this.listeners) fn(msg);
  }

  /**
   * @private
   * @param {Status} status
   */
  setStatus(status) {
    this.status = status;
    for (const fn of this.statusListeners) fn(status);
  }

  /**
   * Send a message and wait for the reply with its id (an `error` rejects with ServerError). A
   * reply that does not come within `timeout` ms rejects (a late one is then dropped), so that
   * nothing waits for ever on one lost answer. Sent before the connection is up (a click while
   * the page is still connecting), the message first waits up to `timeout` for it, then up to
   * `timeout` for its reply.
   * @param {Message} message
   * @param {WebSocket | null} [ws] the socket to send on (the hello names its own); by default
   *   the connection's, once it is online
   * @param {number} [timeout]
   * @returns {Promise<Message>}
   */
  request(message, ws = undefined, timeout = REQUEST_TIMEOUT) {
    if (ws === undefined) {
      if (this.status === 'online') ws = this.ws;
      else return this.whenOnline(timeout).then(() => this.request(message, this.ws, timeout));
    }
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.reject(new Error('not connected'));
    const id = this.nextId++;
    ws.send(JSON.stringify({ ...message, id }));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) reject(new Error('no answer in time'));
      }, timeout);
      this.pending.set(id, {
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
  }

  /**
   * Resolves once the connection is online (at once if it is); rejects after `timeout` ms, or
   * when the connection is stopped for good.
   * @param {number} timeout
   * @returns {Promise<void>}
   */
  whenOnline(timeout) {
    if (this.status === 'online') return Promise.resolve();
    if (this.stopped) return Promise.reject(new Error('not connected'));
    return new Promise((resolve, reject) => {
      /** @param {Status} status */
      const watch = (status) => {
        if (status === 'online') done(null);
        else if (this.stopped) done(new Error('not connected'));
      };
      /** @param {Error | null} err */
      const done = (err) => {
        clearTimeout(timer);
        this.statusListeners.delete(watch);
        if (err) reject(err);
        else resolve();
      };
      const timer = setTimeout(() => done(new Error('not connected')), timeout);
      this.statusListeners.add(watch);
    });
  }

  /**
   * Every message the server sends (replies included).
   * @param {(m: Message) => void} fn
   */
  onMessage(fn) {
    this.listeners.add(fn);
  }

  /**
   * After each (re)connection's welcome.
   * @param {(welcome: Message) => void | Promise<void>} fn
   */
  onReady(fn) {
    this.readyListeners.add(fn);
  }

  /** @param {(s: Status) => void} fn */
  onStatus(fn) {
    this.statusListeners.add(fn);
  }
}

/**
 * GET or POST JSON over HTTP; a refusal throws ServerError.
 * @param {string} path
 * @param {{method?: string, body?: unknown}} [options]
 * @returns {Promise<any>}
 */
export async function api(path, options = {}) {
  /** @type {RequestInit} */
  const init = { method: options.method || 'GET', credentials: 'same-origin', headers: {} };
  if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
    init.headers = { 'content-type': 'application/json' };
  }
  const reply = await fetch(path, init);
  const text = await reply.text();
  const data = text ? JSON.parse(text) : null;
  if (!reply.ok) throw new ServerError({ type: 'error', ...(data || { message: reply.statusText }) });
  return data;
}
