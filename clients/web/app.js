// CARDAVIA web client: boots the page, wires the connection to the event queue and
// the page's events to the player's actions. The modules: state (shared state),
// net (WebSocket), queue (events shown one by one), narrate (log and live region),
// actions (what the player does), render (views), game (the table picture),
// table / sheet / lobby / rules (HTML of each view), cards, i18n, display.

import {
  act,
  clickCard,
  copyInvite,
  createAndJoin,
  joinTable,
  leave,
  moreTables,
  playAgain,
  refreshTables,
  resume,
  watch,
} from "./actions.js";
import { cardName, installSprite, sortHand } from "./cards.js";
import { applyDisplay, saveDisplay } from "./display.js";
import { saved } from "./dom.js";
import { errorText, setLang, t } from "./i18n.js";
import { poigneePool } from "./game.js";
import { formOptions } from "./lobby.js";
import { announceLive } from "./narrate.js";
import { Connection } from "./net.js";
import { enqueue } from "./queue.js";
import {
  clearHash,
  installHeader,
  layoutHand,
  readHash,
  renderAll,
  renderConn,
  renderMain,
  renderTable,
  setTab,
  toast,
  updateTimers,
} from "./render.js";
import { chooseServer, consentTo, issuedBy } from "./servers.js";
import { goTo, nextMarked, onReviewMessage, reviewId, startReview } from "./review.js";
import { heartbeat, loadSession, storeSession } from "./session.js";
import { app, params } from "./state.js";

function onStatus(status) {
  app.conn = status;
  renderConn();
  if (app.table) renderTable();
}

function onReady() {
  // A seat or table remembered from another server is not this one's: its token stays home.
  const session = app.session && issuedBy(app.session, app.net.url) ? app.session : null;
  if (session && session.token && !app.replaced) {
    resume(session);
  } else if (session && session.watch) {
    watch(session.table_id, session.invite, true);
  } else {
    refreshTables();
  }
}

function onMessage(msg) {
  if (onReviewMessage(app.review, msg)) {
    renderTable();
    return;
  }
  switch (msg.type) {
    case "event":
    case "snapshot":
    case "your_turn":
      if (!app.table || (msg.table_id && msg.table_id !== app.table.tableId)) return;
      if (msg.type === "event") {
        if (msg.seq <= app.receivedSeq) return; // already applied
        if (msg.seq !== app.receivedSeq + 1 && app.receivedSeq > 0) {
          app.net.drop(); // frames were lost: reconnect and resume from the last one
          return;
        }
      }
      if (msg.type !== "your_turn") app.receivedSeq = msg.seq;
      enqueue(msg);
      return;
    case "tables":
      app.lobby.tables = msg.tables;
      if (!app.table) renderMain();
      return;
    case "bye":
      if (msg.reason === "replaced") {
        app.replaced = true;
        app.net.stop();
        app.conn = "replaced";
        renderAll();
      }
      return;
    case "left":
      return;
    case "error":
      onError(msg);
      return;
    default:
      return;
  }
}

function onError(msg) {
  if (app.ui.asking !== null && msg.re === undefined) {
    // The refusal of a card clicked though not playable: say why, by the card.
    const card = cardName(app.ui.asking, app.lang, app.face);
    app.ui.asking = null;
    app.ui.reason = t("hand.refused", { card, reason: errorText(msg) });
    announceLive(app.ui.reason);
    renderTable();
    return;
  }
  if (app.ui.pending !== null || app.ui.lastLegal) {
    if (app.table && app.ui.lastLegal && !app.table.legal) app.table.legal = app.ui.lastLegal;
    app.ui.pending = null;
  }
  toast(errorText(msg));
  renderAll();
}

// ------------------------------------------------------------------ events (DOM)

const ACTIONS = {
  // A game against the AI is private: strangers cannot take an AI seat from the lobby.
  "quick-start": () => createAndJoin({ deals: 1, ai_level: app.lobby.quickAi, name: t("lobby.quickName"), private: true }, true),
  "multi-start": () =>
    createAndJoin(
      { deals: Number(app.lobby.multiDeals) || 5, ai_level: app.lobby.quickAi, name: t("lobby.quickName"), private: true },
      true,
    ),
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
    app.lobby.invite = null;
    clearHash();
    renderMain();
  },
  start: () => app.net.send({ type: "start" }),
  leave: () => leave(),
  "leave-ask": () => {
    app.ui.confirmLeave = true;
    renderTable();
    document.querySelector("[data-key=leave-cancel]")?.focus();
  },
  "leave-cancel": () => {
    app.ui.confirmLeave = false;
    renderTable();
  },
  "chelem-ask": () => {
    app.ui.confirmChelem = true;
    renderTable();
    document.querySelector("[data-key=chelem-back]")?.focus();
  },
  "chelem-back": () => {
    app.ui.confirmChelem = false;
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
    app.ui.selected = new Set(rule ? rule.required : []);
    app.ui.reason = null;
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
    app.ui.poignee = { level: offer.level, size: offer.size };
    app.ui.selected = new Set(offer.cards);
    app.ui.pool = poigneePool(app.table.deal.hand, legal.poignees);
    app.ui.reason = null;
    renderTable();
  },
  "poignee-confirm": () => {
    if (!app.ui.poignee || app.ui.selected.size !== app.ui.poignee.size) return;
    act({ kind: "poignee", cards: sortHand([...app.ui.selected]) });
  },
  "poignee-cancel": () => {
    app.ui.poignee = null;
    app.ui.selected = new Set();
    renderTable();
  },
  "next-deal": () => {
    if (app.net.send({ type: "next_deal" })) {
      app.table.ready = true;
      renderTable();
    }
  },
  "close-sheet": () => {
    app.ui.sheetFor = null;
    renderTable();
  },
  "close-sheet-backdrop": () => {},
  "show-sheet": () => {
    const h = app.table?.history;
    if (h && h.length) app.ui.sheetFor = h[h.length - 1].deal_number;
    renderTable();
  },
  "play-again": () => playAgain(),
  "review-deal": (arg) => {
    const deal = Number(arg);
    const record = app.table?.records[deal];
    if (!record) return;
    const same = app.review && app.review.deal === deal && app.review.tableId === app.table.tableId;
    if (!same || app.review.status === "failed") {
      app.review = { ...startReview(deal, record), tableId: app.table.tableId };
      app.net.send({ type: "review_deal", deal_number: deal, id: reviewId(deal) });
    }
    app.ui.reviewOpen = true;
    renderTable();
  },
  "review-step": (arg) => reviewMove(Number(arg)),
  "review-prev": () => reviewMove(app.review.step - 1),
  "review-next": () => reviewMove(app.review.step + 1),
  "review-next-mark": () => reviewMove(nextMarked(app.review)),
  "close-review": () => {
    app.ui.reviewOpen = false;
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
    app.replaced = false;
    app.net.connect();
  },
  "play-here": () => {
    const session = app.lobby.elsewhere;
    app.lobby.elsewhere = null;
    if (!session) return;
    storeSession(session);
    onReady();
    renderAll();
  },
  "server-connect": () => {
    const url = app.lobby.askServer;
    if (!url) return;
    consentTo(url);
    app.lobby.askServer = null;
    connectTo(url);
    renderAll();
  },
  "server-stay": () => {
    app.lobby.askServer = null;
    const query = new URLSearchParams(window.location.search);
    query.delete("server");
    const search = query.toString();
    window.history.replaceState(null, "", `${window.location.pathname}${search ? `?${search}` : ""}${window.location.hash}`);
    renderAll();
  },
  "toggle-display": () => {
    const bar = document.querySelector(".topbar");
    const open = bar.classList.toggle("open");
    document.getElementById("display-toggle").setAttribute("aria-expanded", String(open));
  },
  "tab-table": () => setTab("table"),
  "tab-rules": () => setTab("rules"),
};

function reviewMove(step) {
  if (!app.review) return;
  goTo(app.review, step);
  renderTable();
}

function onClick(e) {
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

function onChange(e) {
  const el = e.target;
  if (el.form && el.form.id === "create-form") rememberForm(el.form);
  switch (el.dataset.change) {
    case "player-name":
      app.lobby.name = el.value.trim().slice(0, 40);
      saved.set("name", app.lobby.name);
      break;
    case "multi-deals":
      app.lobby.multiDeals = Number(el.value) || 5;
      saved.set("multiDeals", app.lobby.multiDeals);
      renderMain();
      break;
    case "quick-ai":
      app.lobby.quickAi = el.value;
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
    app.settings[el.dataset.setting] = el.checked;
    saved.set(el.dataset.setting, el.checked);
    app.ui.chosen = null;
    renderAll();
    return;
  }
  if (el.id === "lang-select") {
    app.lang = setLang(el.value);
    renderAll();
  } else if (el.id === "face-select") {
    app.face = el.value === "french" ? "french" : "marseille";
    saved.set("face", app.face);
    renderAll();
  }
}

/** Keep what was typed in the create form across re-renders of the lobby. */
function rememberForm(form) {
  const options = formOptions(form);
  app.lobby.form = {
    ...options,
    deals: Number(form.elements.namedItem("deals").value) || app.lobby.form.deals,
    endless: options.deals === null,
    turn_seconds: options.turn_seconds || 0,
  };
}

function onInput(e) {
  const el = e.target;
  if (el.form && el.form.id === "create-form") {
    rememberForm(el.form);
    return;
  }
  if (el.dataset.change === "player-name") {
    app.lobby.name = el.value.trim().slice(0, 40);
    saved.set("name", app.lobby.name);
    return;
  }
  if (el.dataset.slider) {
    app.display[el.dataset.slider] = Number(el.value);
    applyDisplay(app.display);
    saveDisplay(app.display);
  }
}

function onSubmit(e) {
  const form = e.target;
  if (form.dataset.submit !== "create") return;
  e.preventDefault();
  rememberForm(form);
  createAndJoin(formOptions(form), false);
}

/** Talk to `url` from now on (the page's own server, or one the player agreed to). */
function connectTo(url) {
  if (app.net) app.net.stop();
  app.table = null;
  app.queue = [];
  app.receivedSeq = 0;
  app.net = new Connection(url, { onMessage, onStatus, onReady });
  app.net.connect();
}

function boot() {
  installSprite();
  installHeader();
  applyDisplay(app.display);
  app.session = loadSession();
  readHash();
  document.addEventListener("click", onClick);
  document.addEventListener("change", onChange);
  document.addEventListener("input", onInput);
  document.addEventListener("submit", onSubmit);
  document.addEventListener("pointerdown", () => {
    app.keyboardUser = false;
  });
  document.addEventListener("keydown", (e) => {
    if (["Tab", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Enter", " "].includes(e.key)) {
      app.keyboardUser = true;
    }
    if (e.key === "Escape" && app.ui.sheetFor !== null) {
      app.ui.sheetFor = null;
      renderTable();
    }
  });
  document.getElementById("tabs").addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") setTab(app.tab === "table" ? "rules" : "table");
  });
  window.addEventListener("hashchange", () => {
    readHash();
    if (window.location.hash === "") app.tab = "table";
    renderAll();
  });
  setInterval(() => {
    updateTimers();
    if (!app.table && app.tab === "table" && document.visibilityState === "visible") refreshTables();
  }, 4000);
  setInterval(updateTimers, 1000);
  setInterval(heartbeat, 2000);
  window.addEventListener("resize", layoutHand);
  const server = chooseServer(params);
  app.lobby.askServer = server.ask;
  renderAll();
  connectTo(server.url);
  // A handle for tests and the curious: the state, and a way to drop the connection.
  window.cardavia = { app, drop: () => app.net.drop() };
}

boot();
