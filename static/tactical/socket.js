// The battle socket (docs/tactical-protocol.md §6): reconnects with backoff, resends unanswered actions
// with their ids (the server never applies an id twice), measures the clock offset with pings.

const BACKOFF = [500, 1000, 2000, 4000, 8000, 15000];
const PING_EVERY = 15000;
const PONG_WAIT = 10000;
const FINAL = { 4403: "forbidden", 4404: "missing" };

export class BattleSocket {
  constructor(path, handlers) {
    this.path = path;
    this.handlers = handlers; // onMessage(msg), onStatus(kind, detail), onOffset(ms)
    this.ws = null;
    this.attempt = 0;
    this.pending = new Map(); // action id → frame, until acked or refused
    this.counter = 0;
    this.session = Math.random().toString(36).slice(2, 10);
    this.pings = new Map();
    this.bestRtt = Infinity;
    this.pingTimer = null;
    this.stopped = false;
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${window.location.host}${this.path}`;
  }

  connect() {
    this.handlers.onStatus("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("message", (e) => this.receive(e.data));
    ws.addEventListener("close", (e) => this.closed(ws, e.code));
    ws.addEventListener("error", () => {});
  }

  closed(ws, code) {
    if (ws !== this.ws) return;
    clearInterval(this.pingTimer);
    this.pingTimer = null;
    if (FINAL[code] || this.stopped) {
      this.stopped = true;
      this.handlers.onStatus(FINAL[code] || "closed");
      return;
    }
    const base = BACKOFF[Math.min(this.attempt, BACKOFF.length - 1)];
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    this.handlers.onStatus("reconnecting", Math.ceil(delay / 1000));
    setTimeout(() => this.connect(), delay);
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.type === "welcome") {
      this.attempt = 0;
      this.handlers.onStatus("live");
      this.startPings();
      this.handlers.onMessage(msg);
      for (const frame of this.pending.values()) this.raw(frame); // same ids: replayed, never doubled
      return;
    }
    if (msg.type === "pong") {
      const sent = this.pings.get(msg.id);
      this.pings.delete(msg.id);
      if (sent !== undefined && msg.server_time) {
        const now = Date.now();
        const rtt = now - sent;
        if (rtt <= this.bestRtt * 1.5 || rtt < 250) {
          this.bestRtt = Math.min(this.bestRtt, rtt);
          this.handlers.onOffset(Date.parse(msg.server_time) + rtt / 2 - now);
        }
      }
      return;
    }
    if ((msg.type === "ack" || msg.type === "error") && msg.id) this.pending.delete(msg.id);
    this.handlers.onMessage(msg);
  }

  startPings() {
    clearInterval(this.pingTimer);
    this.ping();
    this.pingTimer = setInterval(() => this.ping(), PING_EVERY);
  }

  ping() {
    const id = `p${(this.counter += 1)}`;
    this.pings.set(id, Date.now());
    this.raw({ type: "ping", id });
    const ws = this.ws;
    setTimeout(() => {
      if (this.pings.has(id) && ws === this.ws && ws.readyState === WebSocket.OPEN) ws.close();
    }, PONG_WAIT);
  }

  raw(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  /** Send an action with a fresh client id; it is resent after a reconnect until answered. */
  action(action) {
    const id = `c-${this.session}-${(this.counter += 1)}`;
    const frame = { type: "action", id, action };
    this.pending.set(id, frame);
    this.raw(frame);
    return id;
  }

  /** A query (options, preview, sync, order); returns its id. */
  query(type, fields = {}) {
    const id = `q${(this.counter += 1)}`;
    this.raw({ type, id, ...fields });
    return id;
  }
}
