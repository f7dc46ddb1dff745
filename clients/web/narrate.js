// @ts-check
// What happened, in words: the log beside the table, the banner in its centre and
// the screen reader's live region.

import { cardName } from "./cards.js";
import { contractLabel, getLang, t } from "./i18n.js";
import { renderTable } from "./render.js";
import { app, SPEED } from "./state.js";
import { dispatch } from "./store.js";
import { seatedAs, seatLabel } from "./seats.js";

export function narrate(table, ev, quiet) {
  // The names as they are now, kept: a line read later still names who did it.
  const seated = seatedAs(table, (table.deal?.seats ?? table.summary.seats).map((s) => ({ ...s })));
  const who = (seat) => seatLabel(seated, seat);
  const card = (code) => cardName(code, app.lang, app.face);
  let line = null;
  let announce = null;
  switch (ev.kind) {
    case "deal_started": {
      // A deal dealt again after a cancelled one keeps its number: say so, not the same line twice.
      const again = table.history.some((h) => h.deal_number === ev.deal_number && h.sheet.status === "cancelled");
      line = () => t(again ? "log.dealAgain" : "log.deal", { n: ev.deal_number, name: who(ev.dealer) });
      break;
    }
    case "bid":
      line = () => t(ev.contract === "pass" ? "log.pass" : "log.bid", { name: who(ev.seat), contract: contractLabel(ev.contract) });
      break;
    case "taker":
      line = () => t("log.taker", { name: who(ev.seat), contract: contractLabel(ev.contract) });
      announce = line;
      break;
    case "chien":
      line = () => t("log.chien");
      break;
    case "discard":
      line = () => (ev.trumps.length ? t("log.discardTrumps", { name: who(ev.seat), cards: ev.trumps.map(card).join(", ") }) : t("log.discard", { name: who(ev.seat) }));
      break;
    case "chelem":
      if (ev.announced) {
        line = () => t("log.chelem", { name: who(ev.seat) });
        announce = line;
      }
      break;
    case "poignee":
      // Mid-sentence: "shows a simple poignée", not "a Simple poignée".
      line = () => t("log.poignee", { name: who(ev.seat), level: t(`poignee.${ev.level}`).toLowerCase() });
      announce = line;
      break;
    case "card":
      line = () => t("log.card", { name: who(ev.seat), card: card(ev.card) });
      break;
    case "trick":
      line = () => t("log.trick", { n: ev.number, name: who(ev.winner) });
      break;
    case "cancelled":
      line = () => t(`cancel.${ev.reason}`);
      break;
    case "score":
      if (ev.sheet.status === "played") line = () => t(ev.sheet.made ? "log.made" : "log.failed", { name: who(ev.sheet.taker) });
      break;
    case "table_over":
      line = () => t("log.over");
      break;
    default:
      break;
  }
  if (line) {
    dispatch("logLine", line, `${table.tableId}-${table.seq}`);
    if (!quiet) announceLive(line);
  }
  if (announce && !quiet) {
    const key = `${ev.kind}-${table.seq}`;
    dispatch("choose", { announce: { key, text: announce } });
    setTimeout(() => {
      if (app.ui.announce && app.ui.announce.key === key) {
        dispatch("choose", { announce: null });
        renderTable();
      }
    }, 2600 * Math.max(SPEED, 0.3));
  }
}

// The away seats whose grace period has ended and were said to be played by the AI.
const aiPlaying = new Set();

/** A human away past the grace period: the AI plays for them. Said once, in the log and
 * the live region; true when something was said (the seats are drawn again then). */
export function sayAiPlays(table) {
  let said = false;
  for (const s of table ? table.summary.seats : []) {
    const over = s.occupant === "human" && !s.connected && s.away_until_ms && Date.now() >= s.away_until_ms;
    const key = `${table.tableId}-${s.seat}-${s.away_until_ms}`;
    if (!over || aiPlaying.has(key)) continue;
    aiPlaying.add(key);
    const name = seatLabel(table, s.seat);
    const line = () => t("log.aiPlays", { name });
    dispatch("logLine", line);
    announceLive(line);
    said = true;
  }
  return said;
}

// What the live region says last, as words of the current language (a function of it).
let spoken = () => "";

/** Say `text` (a string, or words made in the current language) in the live region. */
export function announceLive(text) {
  spoken = typeof text === "function" ? text : () => text;
  const live = document.getElementById("live");
  if (live) {
    live.textContent = spoken();
    live.lang = getLang();
  }
}

/** After a change of language: what the live region holds, in the new language. */
export function relanguageLive() {
  announceLive(spoken);
}
