// The browser's fold of server frames (clients/web/game.js) against recorded tables
// (tests/web/record.py writes them; TAROT_FOLD_TABLES names the file). Each follower's
// frames are folded with applyFrame, as the page's queue does; at every `check` frame
// the picture must be the one the server's snapshot of that moment gives.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { applyFrame, applySnapshot, newTable } from "../../clients/web/game.js";
import { unfold } from "../../clients/web/unfold.js";

const file = process.env.TAROT_FOLD_TABLES;
if (!file) throw new Error("TAROT_FOLD_TABLES names the recorded tables (tests/web/test_fold.py)");
/** @type {Record<string, {seat: number | null, frames: any[]}>} */
const tables = JSON.parse(readFileSync(file, "utf8"));

/** What the server says of a deal, as the picture keeps it (client-only fields left out). */
function dealPicture(deal) {
  if (!deal) return null;
  // A finished trick stays on the felt until the page has shown it; the server's view
  // has no trick then, or the next one with no card yet.
  const trick = deal.trick && deal.trick.winner === null && deal.trick.cards.length ? deal.trick : null;
  const picture = { ...deal, trick };
  delete picture.fromChien; // the taker's hand marks, the page's own
  return picture;
}

/** The table picture, without what a snapshot does not carry (the browser keeps those). */
function picture(table) {
  const s = table.summary;
  return {
    seat: table.seat,
    seq: table.seq,
    status: s.status,
    deal_number: s.deal_number,
    totals: s.totals,
    seats: s.seats,
    over: table.over,
    legal: table.legal,
    deal: dealPicture(table.deal),
  };
}

for (const [name, { seat, frames }] of Object.entries(tables)) {
  test(`the fold of ${name}'s frames agrees with every snapshot`, () => {
    const table = newTable("t1", seat); // the seat the page knows from `joined`
    let checks = 0;
    for (const [index, frame] of frames.entries()) {
      if (frame.type === "spectators") continue; // not a table frame: connect.js routes it aside
      if (frame.type !== "check") {
        for (const one of unfold(frame)) applyFrame(table, one); // version 2's, unfolded as net.js does
        continue;
      }
      const expected = applySnapshot(newTable("t1", table.seat), frame.snapshot);
      assert.deepEqual(picture(table), picture(expected), `${name}, at frame ${index} (seq ${table.seq})`);
      checks += 1;
    }
    assert.ok(checks > 50, `${name}: ${checks} checks`);
  });
}
