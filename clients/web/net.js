// @ts-check
// The WebSocket connection: subprotocol tarot.v2.json, hello first, automatic
// reconnection with back-off. A request carries an id; its answer, or the error
// refusing it, comes back with that id as `re` (PROTOCOL.md section 4), so an
// error is never taken for another request's. The subprotocol and version are the
// server's own (protocol.js, generated from its models). Version 2's folded frames
// (one `events` frame per commit, the turn and the request's `re` in it) are unfolded
// here (unfold.js): the page gets each event, then the turn, then the ack.

import { accountFor, forgetAccount } from "./account.js";
import { PROTOCOL_VERSION, SUBPROTOCOL } from "./protocol.js";
import { unfold } from "./unfold.js";

/** @typedef {import("./messages").ClientMessage} ClientMessage */
/** @typedef {import("./messages").ServerMessage} ServerMessage */
/** @typedef {import("./messages").Error} ErrorMessage */

/**
 * The server URL naming a table (ws://host/t/ID), for a balancer to send a table's players
 * to one node (docs/DEPLOY.md, "Routing"); the URL itself without a table.
 * @param {string} url @param {string | null | undefined} table
 */
export function tableUrl(url, table) {
  if (!table) return url;
  const u = new URL(url);
  u.pathname = u.pathname.replace(/\/t\/.*$/, "/").replace(/\/?$/, "/") + "t/" + encodeURIComponent(table);
  return u.toString();
}

export class Connection {
  /**
   * @param {string} url
   * @param {{onMessage, onStatus, onReady, table?}} handlers
   *   onStatus(status): "connecting" | "online" | "reconnecting" | "closed"
   *   onReady(): called after each welcome (first connection and every reconnection)
   *   table(): optional, the table the page is at: each connection names it in its URL
   */
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.ws = null;
    this.pending = [];
    this.nextId = 1;
    this.attempt = 0;
    this.stopped = false;
    this.welcomed = false;
    this.timer = null;
  }

  connect() {
    this.stopped = false;
    clearTimeout(this.timer);
    this.handlers.onStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    let ws;
    try {
      ws = new WebSocket(tableUrl(this.url, this.handlers.table?.()), [SUBPROTOCOL]);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.welcomed = false;
    ws.onopen = () => this.hello(ws, accountFor(this.url));
    ws.onmessage = (e) => this.receive(ws, e.data);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.welcomed = false;
      this.failPending("connection lost");
      if (!this.stopped) this.scheduleReconnect();
    };
    ws.onerror = () => {}; // onclose follows
  }

  /** `hello`, signed in with the account's session when there is one (account.js). */
  hello(ws, account) {
    this.signing = account ? account.token : null;
    const hello = { type: "hello", protocol: PROTOCOL_VERSION, client: "cardavia-web/1" };
    ws.send(JSON.stringify(account ? { ...hello, session: account.token } : hello));
  }

  receive(ws, data) {
    if (this.ws !== ws) return;
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.type === "error" && !this.welcomed && this.signing) {
      // The session was refused: a revoked one is forgotten; either way, play as a guest.
      if (msg.code === "bad_session") forgetAccount();
      this.hello(ws, null);
      return;
    }
    if (msg.type === "welcome") {
      this.account = msg.account || null;
      this.welcomed = true;
      this.attempt = 0;
      this.handlers.onStatus("online");
      this.handlers.onReady();
      return;
    }
    for (const one of unfold(msg)) this.deliver(one);
  }

  /** @param {ServerMessage} msg  a message of the table or an answer, unfolded */
  deliver(msg) {
    // The request this answers, by its id. An error without `re` is about a message sent
    // without an id (an action): it goes to the page, never to a request.
    const re = "re" in msg ? msg.re : undefined;
    const waiting = re !== undefined ? this.pending.find((p) => p.id === re) : null;
    if (waiting) {
      this.pending.splice(this.pending.indexOf(waiting), 1);
      if (msg.type === "error") {
        waiting.reject(msg);
        return;
      }
      if (!waiting.types.includes(msg.type)) {
        waiting.reject({ type: "error", code: "unexpected_answer", message: `got ${msg.type}` });
        return;
      }
      waiting.resolve(msg);
      if (!waiting.alsoDeliver) return;
    }
    this.handlers.onMessage(msg);
  }

  scheduleReconnect() {
    this.attempt += 1;
    this.handlers.onStatus("reconnecting");
    const delay = Math.min(5000, 300 * 2 ** Math.min(this.attempt - 1, 4));
    this.timer = setTimeout(() => this.connect(), delay);
  }

  failPending(reason) {
    const pending = this.pending;
    this.pending = [];
    for (const p of pending) p.reject({ type: "error", code: "disconnected", message: reason });
  }

  get online() {
    return this.ws !== null && this.welcomed && this.ws.readyState === WebSocket.OPEN;
  }

  /** @param {ClientMessage} msg */
  send(msg) {
    if (!this.online) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /**
   * Send with an id and wait for its answer, one of `types` (rejects on its error).
   * @param {ClientMessage} msg
   * @param {ServerMessage["type"][]} types
   * @returns {Promise<any>}
   */
  request(msg, types, { alsoDeliver = false, timeout = 10000 } = {}) {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      if (!this.send({ ...msg, id })) {
        reject({ type: "error", code: "offline", message: "not connected" });
        return;
      }
      const entry = { id, types, resolve, reject, alsoDeliver };
      this.pending.push(entry);
      setTimeout(() => {
        const i = this.pending.indexOf(entry);
        if (i >= 0) {
          this.pending.splice(i, 1);
          reject({ type: "error", code: "timeout", message: "no answer from the server" });
        }
      }, timeout);
    });
  }

  /** Drop the connection on purpose (e.g. to test resumption); it reconnects. */
  drop() {
    if (this.ws) this.ws.close();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
