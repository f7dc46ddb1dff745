// @ts-check
// The page's controls: every click on a `data-action` element, the hand's cards, the
// settings and forms, each turned into the player's action (actions.js) or a change of view.

import { act, clickCard, copyInvite, createAndJoin, joinTable, leave, moreTables, playAgain, refreshTables, rematch, watch } from "./actions.js";
import { sortHand } from "./cards.js";
import { connectTo, onReady } from "./connect.js";
import { applyDisplay, saveDisplay } from "./display.js";
import { saved } from "./dom.js";
import { poigneePool } from "./game.js";
import { errorText, setLang, t } from "./i18n.js";
import { formOptions } from "./lobby.js";
import { relanguageLive } from "./narrate.js";
import { clearHash, renderAll, renderMain, renderTable, setTab, toast } from "./render.js";
import { nextMarked, reviewId, startReview } from "./review.js";
import { cancelQueue, confirmReady, playNow, queue } from "./quickplay.js";
import { consentTo } from "./servers.js";
import { storeDiscard, storeSession } from "./session.js";
import { app } from "./state.js";
import { dispatch } from "./store.js";

const ACTIONS = {
  // A game against the AI is private: strangers cannot take an AI seat from the lobby.
  "quick-start": () => createAndJoin({ deals: 1, ai_level: app.lobby.quickAi, name: t("lobby.quickName"), private: true }, true),
  "multi-start": () =>
    createAndJoin(
      { deals: Number(app.lobby.multiDeals) || 5, ai_level: app.lobby.quickAi, name: t("lobby.quickName"), private: true },
      true,
    ),
  "queue-play": () => queue(),
  "queue-cancel": () => cancelQueue(),
  "queue-ready": () => confirmReady(),
  "queue-now": () => playNow(),
  refresh: () => refreshTables(),
  "more-tables": () => moreTables(),
  "take-seat": (arg) => {
    const [tableId, seat] = arg.split(":");
    const summary = app.lobby.tables.find((x) => x.table_id === tableId);
    joinTable(tableId, Number(seat), null, summary ? summary.options : {}).catch((err) => {
      toast(errorText(err));
      refreshTables();
    });
  },
  watch: (arg) => watch(arg, null),
  "join-invite": () => {
    const inv = app.lobby.invite;
    if (!inv) return;
    joinTable(inv.table_id, null, inv.invite, {}).catch((err) => toast(errorText(err)));
  },
  "watch-invite": () => {
    const inv = app.lobby.invite;
    if (inv) watch(inv.table_id, inv.invite);
  },
  "dismiss-invite": () => {
    clearHash();
    renderMain();
  },
  start: () => app.net.send({ type: "start" }),
  leave: () => leave(),
  "leave-ask": () => {
    dispatch("choose", { confirmLeave: true });
    renderTable();
    /** @type {HTMLElement | null} */ (document.querySelector("[data-key=leave-cancel]"))?.focus();
  },
  "leave-cancel": () => {
    dispatch("choose", { confirmLeave: false });
    renderTable();
  },
  "chelem-ask": () => {
    dispatch("choose", { confirmChelem: true });
    renderTable();
    /** @type {HTMLElement | null} */ (document.querySelector("[data-key=chelem-back]"))?.focus();
  },
  "chelem-back": () => {
    dispatch("choose", { confirmChelem: false });
    renderTable();
  },
  "play-chosen": () => {
    const code = app.ui.chosen;
    if (code) clickCard(code, true);
  },
  "copy-invite": () => copyInvite(),
  bid: (arg) => act({ kind: "bid", contract: arg }),
  discard: () => {
    const rule = app.table?.legal?.discard;
    if (!rule || app.ui.selected.size !== rule.count) return;
    act({ kind: "discard", cards: sortHand([...app.ui.selected]) });
  },
  "discard-clear": () => {
    const rule = app.table?.legal?.discard;
    dispatch("choose", { selected: new Set(rule ? rule.required : []), reason: null });
    if (app.table) storeDiscard(app.table);
    renderTable();
  },
  chelem: (arg) => act({ kind: "chelem", announce: arg === "yes" }),
  "poignee-show": (arg) => {
    const offer = app.table?.legal?.poignees.find((o) => o.level === arg);
    if (offer) act({ kind: "poignee", cards: offer.cards });
  },
  "poignee-pick": (arg) => {
    const legal = app.table?.legal;
    const offer = legal?.poignees.find((o) => o.level === arg);
    if (!offer) return;
    dispatch("choose", {
      poignee: { level: offer.level, size: offer.size },
      selected: new Set(offer.cards),
      pool: poigneePool(app.table.deal.hand, legal.poignees),
      reason: null,
    });
    renderTable();
  },
  "poignee-confirm": () => {
    if (!app.ui.poignee || app.ui.selected.size !== app.ui.poignee.size) return;
    act({ kind: "poignee", cards: sortHand([...app.ui.selected]) });
  },
  "poignee-cancel": () => {
    dispatch("choose", { poignee: null, selected: new Set() });
    renderTable();
  },
  "next-deal": () => {
    if (app.net.send({ type: "next_deal" })) {
      dispatch("ready");
      renderTable();
    }
  },
  "close-sheet": () => {
    dispatch("choose", { sheetFor: null });
    renderTable();
  },
  "close-sheet-backdrop": () => {},
  "show-sheet": () => {
    const h = app.table?.history;
    if (h && h.length) dispatch("choose", { sheetFor: h[h.length - 1].deal_number });
    renderTable();
  },
  "play-again": () => playAgain(),
  rematch: () => rematch(true),
  "rematch-no": () => rematch(false),
  "review-deal": (arg) => {
    const deal = Number(arg);
    const record = app.table?.records[deal];
    if (!record) return;
    const same = app.review && app.review.deal === deal && app.review.tableId === app.table.tableId;
    if (!same || app.review.status === "failed") {
      dispatch("review", { ...startReview(deal, record), tableId: app.table.tableId });
      app.net.send({ type: "review_deal", deal_number: deal, id: reviewId(deal) });
    }
    dispatch("choose", { reviewOpen: true });
    renderTable();
  },
  "review-step": (arg) => reviewMove(Number(arg)),
  "review-prev": () => reviewMove(app.review.step - 1),
  "review-next": () => reviewMove(app.review.step + 1),
  "review-next-mark": () => reviewMove(nextMarked(app.review)),
  "close-review": () => {
    dispatch("choose", { reviewOpen: false });
    renderTable();
  },
  "save-record": (arg) => {
    const record = app.table?.records[arg];
    if (!record) return;
    const blob = new Blob([`${JSON.stringify(record, null, 2)}\n`], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `cardavia-${app.table.tableId}-deal-${arg}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  },
  "take-back": () => {
    dispatch("replaced", false);
    app.net.connect();
  },
  "play-here": () => {
    const session = app.lobby.elsewhere;
    dispatch("elsewhere", null);
    if (!session) return;
    storeSession(session);
    onReady();
    renderAll();
  },
  "server-connect": () => {
    const url = app.lobby.askServer;
    if (!url) return;
    consentTo(url);
    dispatch("askServer", null);
    connectTo(url);
    renderAll();
  },
  "server-stay": () => {
    dispatch("askServer", null);
    const query = new URLSearchParams(window.location.search);
    query.delete("server");
    const search = query.toString();
    window.history.replaceState(null, "", `${window.location.pathname}${search ? `?${search}` : ""}${window.location.hash}`);
    renderAll();
  },
  "toggle-display": () => showSettings(!document.querySelector(".topbar").classList.contains("open")),
  "tab-table": () => setTab("table"),
  "tab-rules": () => setTab("rules"),
};

/** The settings menu under the header's toggle: it closes on Escape or a press elsewhere. */
export function showSettings(open) {
  document.querySelector(".topbar").classList.toggle("open", open);
  document.getElementById("display-toggle").setAttribute("aria-expanded", String(open));
}

function reviewMove(step) {
  if (!app.review) return;
  dispatch("reviewStep", step);
  renderTable();
}

export function onClick(e) {
  const cardEl = e.target.closest("#hand .card");
  if (cardEl) {
    clickCard(cardEl.dataset.card);
    return;
  }
  const el = e.target.closest("[data-action]");
  if (!el || el.disabled) return;
  if (el.dataset.action === "close-sheet-backdrop" && e.target !== el) return;
  const fn = ACTIONS[el.dataset.action];
  if (fn) {
    e.preventDefault();
    fn(el.dataset.arg);
  }
}

export function onChange(e) {
  const el = e.target;
  if (el.form && el.form.id === "create-form") rememberForm(el.form);
  switch (el.dataset.change) {
    case "player-name":
      rememberName(el.value);
      break;
    case "multi-deals":
      dispatch("lobbyChoice", "multiDeals", Number(el.value) || 5);
      saved.set("multiDeals", app.lobby.multiDeals);
      renderMain();
      break;
    case "quick-mode":
      dispatch("quick", { mode: el.value === "rated" ? "rated" : "casual" });
      saved.set("quickMode", app.lobby.quick.mode);
      break;
    case "quick-ai":
      dispatch("lobbyChoice", "quickAi", el.value);
      saved.set("quickAi", app.lobby.quickAi);
      break;
    case "endless": {
      const deals = el.form?.elements.namedItem("deals");
      if (deals) deals.disabled = el.checked;
      break;
    }
    default:
      break;
  }
  if (el.dataset.setting) {
    dispatch("setting", el.dataset.setting, el.checked);
    saved.set(el.dataset.setting, el.checked);
    renderAll();
    return;
  }
  if (el.id === "lang-select") {
    dispatch("lang", setLang(el.value));
    relanguageLive();
    renderAll();
  } else if (el.id === "face-select") {
    dispatch("face", el.value === "french" ? "french" : "marseille");
    saved.set("face", app.face);
    renderAll();
  }
}

/** Keep what was typed in the create form across re-renders of the lobby. */
function rememberForm(form) {
  const options = formOptions(form);
  dispatch("lobbyChoice", "form", {
    ...options,
    deals: Number(form.elements.namedItem("deals").value) || app.lobby.form.deals,
    endless: options.deals === null,
    turn_seconds: options.turn_seconds || 0,
  });
}

/** The player's name, as typed (remembered for the next visit). */
function rememberName(value) {
  dispatch("lobbyChoice", "name", value.trim().slice(0, 40));
  saved.set("name", app.lobby.name);
}

export function onInput(e) {
  const el = e.target;
  if (el.form && el.form.id === "create-form") {
    rememberForm(el.form);
    return;
  }
  if (el.dataset.change === "player-name") {
    rememberName(el.value);
    return;
  }
  if (el.dataset.slider) {
    dispatch("display", el.dataset.slider, Number(el.value));
    applyDisplay(app.display);
    saveDisplay(app.display);
  }
}

export function onSubmit(e) {
  const form = e.target;
  if (form.dataset.submit !== "create") return;
  e.preventDefault();
  rememberForm(form);
  createAndJoin(formOptions(form), false);
}
