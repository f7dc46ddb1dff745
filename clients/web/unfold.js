// @ts-check
// Version 2's folded frames, unfolded into the frames the page folds one at a time
// (PROTOCOL.md sections 5 and 9): an `events` frame is one commit's events, each an
// `event` frame here, in order, then the `your_turn` folded into it, then an `ack` of
// the request whose `re` it carries; a `snapshot` with `your_turn` is the snapshot,
// then the turn. Every other message is itself. Nothing is lost or added: the page's
// queue pauses between events as it did when each came in its own frame.

/** @typedef {import("./messages").ServerMessage} ServerMessage */
/** @typedef {import("./messages").TurnOffer} TurnOffer */
/** @typedef {import("./messages").YourTurn} YourTurn */
/** @typedef {import("./messages").Ack} Ack */

/**
 * @param {string} tableId
 * @param {TurnOffer} turn
 * @returns {YourTurn}
 */
function yourTurn(tableId, turn) {
  return {
    type: "your_turn",
    table_id: tableId,
    seq: turn.seq,
    legal: turn.legal,
    deadline_ms: turn.deadline_ms ?? null,
  };
}

/**
 * @param {ServerMessage} msg
 * @returns {ServerMessage[]}
 */
export function unfold(msg) {
  if (msg.type === "events") {
    /** @type {ServerMessage[]} */
    const out = msg.events.map(({ seq, event }) => ({ type: "event", table_id: msg.table_id, seq, event }));
    if (msg.your_turn) out.push(yourTurn(msg.table_id, msg.your_turn));
    if (msg.re !== undefined && msg.re !== null) {
      const last = msg.events.length ? msg.events[msg.events.length - 1].seq : msg.your_turn ? msg.your_turn.seq : 0;
      /** @type {Ack} */
      const ack = { type: "ack", re: msg.re, table_id: msg.table_id, seq: last };
      out.push(ack);
    }
    return out;
  }
  if (msg.type === "snapshot" && msg.your_turn) {
    const { your_turn: turn, ...snapshot } = msg;
    return [{ ...snapshot, your_turn: null }, yourTurn(msg.table_id, turn)];
  }
  return [msg];
}
