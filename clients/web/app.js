// CARDAVIA web client: wires the connection, the table picture, the event queue
// (events are shown one by one with short pauses so that AI moves can be followed),
// the views (lobby, table, score sheet, rules) and the display settings.

import { cardName, installSprite, sortHand } from "./cards.js";
import { applyDisplay, DEFAULTS, loadDisplay, saveDisplay } from "./display.js";
import { esc, saved, setHTML, sleep, tabSaved } from "./dom.js";
import { applyEvent, applySnapshot, newTable, poigneePool } from "./game.js";
import { contractLabel, errorText, getLang, LANGS, setLang, t } from "./i18n.js";
import { formOptions, lobbyHTML } from "./lobby.js";
import { Connection, defaultUrl } from "./net.js";
import { rulesHTML } from "./rules.js";
import { sheetHTML } from "./sheet.js";
import { cardState, handMode, seatLabel, seatName, tableParts } from "./table.js";

const params = new URLSearchParams(window.location.search);
const SPEED = Math.max(0, Math.min(3, Number(params.get("speed") ?? 1) || 0));

// Pauses after each event, in ms at speed 1: long enough to follow, short enough to flow.
const PAUSES = {
  deal_started: 500,
  hand: 400,
  bid: 750,
  taker: 900,
  chien: 2200,
  discard: 700,
  chelem: 300,
  poignee: 1800,
  card: 700,
  trick: 1400,
  cancelled: 2200,
};

const app = {
  lang: getLang(),
  face: saved.get("face", "marseille") === "french" ? "french" : "marseille",
  display: loadDisplay(),
  tab: "table",
  conn: "connecting",
  net: null,
  table: null,
  session: null,
  queue: [],
  pumping: false,
  nextAt: 0,
  fastUntil: 0,
  receivedSeq: 0,
  replaced: false,
  focusTurn: false,
  keyboardUser: false,
  lobby: {
    elsewhere: null,
    tables: [],
    invite: null,
    multiDeals: saved.get("multiDeals", 5),
    name: saved.get("name", ""),
    form: {
      name: "",
      deals: 5,
      endless: false,
      ai_level: "basic",
      turn_seconds: 0,
      grace_seconds: 60,
      private: false,
    },
  },
  ui: freshUi(),
};

function freshUi() {
  return {
    selected: new Set(),
    reason: null,
    poignee: null,
    pool: new Set(),
    focus: null,
    pending: null,
    lastLegal: null,
    sheetFor: null,
    log: [],
    announce: null,
    copied: false,
    seen: new Map(),
  };
}

// ------------------------------------------------------------------ session

/**
 * This tab's seat, else the one remembered by the browser, unless another tab
 * is playing it right now (it says so every two seconds): then offer it instead.
 */
function loadSession() {
  const own = tabSaved.get("session");
  if (own) return own;
  const remembered = saved.get("session");
  const alive = saved.get("alive");
  if (remembered && alive && alive.key === sessionKey(remembered) && Date.now() - alive.at < 5000) {
    app.lobby.elsewhere = remembered;
    return null;
  }
  return remembered;
}

function sessionKey(session) {
  return session.token || `watch:${session.table_id}`;
}

function heartbeat() {
  if (app.session && app.table && !app.replaced) saved.set("alive", { key: sessionKey(app.session), at: Date.now() });
}

function storeSession(session) {
  app.session = session;
  tabSaved.set("session", session);
  saved.set("session", session);
}

function clearSession() {
  app.session = null;
  tabSaved.set("session", null);
  saved.set("session", null);
  saved.set("alive", null);
}

// ------------------------------------------------------------------ connection

function onStatus(status) {
  app.conn = status;
  renderConn();
  if (app.table) renderTable();
}

function onReady() {
  const session = app.session;
  if (session && session.token && !app.replaced) {
    resume(session);
  } else if (session && session.watch) {
    watch(session.table_id, session.invite, true);
  } else {
    refreshTables();
  }
}

function resume(session) {
  const same = app.table && app.table.tableId === session.table_id;
  const lastSeq = same ? app.receivedSeq : 0;
  if (!same) {
    app.table = newTable(session.table_id, session.seat);
    app.table.summary.options = session.options || {};
    app.queue = [];
    app.receivedSeq = 0;
    app.ui = freshUi();
  }
  app.fastUntil = performance.now() + 1500;
  app.net
    .request({ type: "resume", token: session.token, last_seq: lastSeq }, ["joined"])
    .then((joined) => {
      app.table.seat = joined.seat;
      heartbeat();
      renderAll();
    })
    .catch((err) => {
      if (err.code === "disconnected" || err.code === "timeout") return;
      clearSession();
      app.table = null;
      app.queue = [];
      toast(t("toast.seatGone"));
      renderAll();
      refreshTables();
    });
}

function onMessage(msg) {
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
  if (app.ui.pending !== null || app.ui.lastLegal) {
    if (app.table && app.ui.lastLegal && !app.table.legal) app.table.legal = app.ui.lastLegal;
    app.ui.pending = null;
  }
  toast(errorText(msg));
  renderAll();
}

// ------------------------------------------------------------------ queue

function enqueue(msg) {
  app.queue.push(msg);
  pump();
}

function significant(msg) {
  return msg.type === "event" && PAUSES[msg.event.kind] !== undefined;
}

function catchingUp() {
  if (performance.now() < app.fastUntil) return true;
  return app.queue.filter(significant).length > 30;
}

async function pump() {
  if (app.pumping) return;
  app.pumping = true;
  try {
    while (app.queue.length) {
      const wait = app.nextAt - performance.now();
      if (wait > 0 && !catchingUp()) await sleep(wait);
      const msg = app.queue.shift();
      if (!msg) break;
      const fast = catchingUp();
      const after = handle(msg, fast);
      const pause = fast ? 0 : pauseFor(msg) * SPEED;
      app.nextAt = performance.now() + pause;
      if (after) {
        if (pause > 0) await sleep(pause);
        await after(fast);
        app.nextAt = performance.now();
      }
      renderTable();
    }
  } finally {
    app.pumping = false;
  }
}

function pauseFor(msg) {
  if (msg.type !== "event") return 0;
  const ev = msg.event;
  const table = app.table;
  if (ev.kind === "card" && ev.seat === table.seat) return 250;
  if (ev.kind === "chien" && table.deal && table.deal.taker === table.seat) return 600;
  if (ev.kind === "chelem" && ev.announced) return 1600;
  return PAUSES[ev.kind] || 0;
}

/** Apply one message to the picture; may return a step to run after its pause. */
function handle(msg, quiet = false) {
  const table = app.table;
  if (!table) return null;
  if (msg.type === "snapshot") {
    const history = table.history;
    applySnapshot(table, msg);
    if (!table.history.length) table.history = history;
    resetChoice();
    if (table.legal) prepareChoice(table.legal);
    return null;
  }
  if (msg.type === "your_turn") {
    if (msg.seq < table.seq) return null;
    table.legal = msg.legal;
    table.deadline = msg.deadline_ms ?? table.deadline;
    resetChoice();
    prepareChoice(msg.legal);
    announceLive(t("turn.yours"));
    app.focusTurn = true;
    return null;
  }
  const ev = msg.event;
  applyEvent(table, msg.seq, ev);
  narrate(table, ev, quiet);
  if (ev.kind === "deal_started") {
    app.ui.sheetFor = null;
    app.ui.seen = new Map();
  }
  if (ev.kind === "turn" && ev.seat !== table.seat) resetChoice();
  if (ev.kind === "score" && ev.sheet.status === "played") app.ui.sheetFor = ev.deal_number;
  if (ev.kind === "table_over" && table.history.length) app.ui.sheetFor = table.history[table.history.length - 1].deal_number;
  if (ev.kind === "trick") {
    // After the pause, the cards slide to the winner, then the centre is cleared.
    return async (fast) => {
      const d = table.deal;
      if (!d || !d.trick || d.trick.winner === null) return;
      if (!fast && SPEED > 0) {
        d.trick.leaving = true;
        renderTable();
        await sleep(320);
      }
      if (d.trick && d.trick.winner !== null) d.trick = null;
    };
  }
  return null;
}

function resetChoice() {
  app.ui.selected = new Set();
  app.ui.reason = null;
  app.ui.poignee = null;
  app.ui.pool = new Set();
  app.ui.pending = null;
  app.ui.lastLegal = null;
}

function prepareChoice(legal) {
  if (legal.discard) app.ui.selected = new Set(legal.discard.required);
}

// ------------------------------------------------------------------ narration

function narrate(table, ev, quiet) {
  const who = (seat) => seatLabel(table, seat);
  const card = (code) => cardName(code, app.lang, app.face);
  let line = null;
  let announce = null;
  switch (ev.kind) {
    case "deal_started":
      line = () => t("log.deal", { n: ev.deal_number, name: who(ev.dealer) });
      break;
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
      line = () => t("log.poignee", { name: who(ev.seat), level: t(`poignee.${ev.level}`) });
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
    app.ui.log.push(line);
    if (app.ui.log.length > 40) app.ui.log.shift();
    if (!quiet) announceLive(line());
  }
  if (announce && !quiet) {
    const key = `${ev.kind}-${table.seq}`;
    app.ui.announce = { key, text: announce };
    setTimeout(() => {
      if (app.ui.announce && app.ui.announce.key === key) {
        app.ui.announce = null;
        renderTable();
      }
    }, 2600 * Math.max(SPEED, 0.3));
  }
}

function announceLive(text) {
  const live = document.getElementById("live");
  if (live) live.textContent = text;
}

// ------------------------------------------------------------------ actions

function playerName() {
  return (app.lobby.name || "").trim().slice(0, 40);
}

async function joinTable(tableId, seat, invite, options) {
  const joined = await app.net.request(
    { type: "join", table_id: tableId, seat, name: playerName(), invite: invite || null },
    ["joined"],
  );
  enterTable(joined.table_id, joined.seat, joined.token, invite, options);
  return joined;
}

function enterTable(tableId, seat, token, invite, options) {
  app.table = newTable(tableId, seat);
  app.table.summary.options = options || {};
  app.queue = [];
  app.receivedSeq = 0;
  app.ui = freshUi();
  storeSession({ table_id: tableId, token, seat, invite: invite || null, options: options || {} });
  heartbeat();
  clearHash();
  app.tab = "table";
  renderAll();
}

async function createAndJoin(options, startNow) {
  try {
    const created = await app.net.request({ type: "create_table", options }, ["table_created"]);
    const table = created.table;
    await joinTable(table.table_id, 0, created.invite, table.options);
    if (startNow) app.net.send({ type: "start" });
  } catch (err) {
    toast(errorText(err));
  }
}

async function watch(tableId, invite, quiet = false) {
  try {
    app.table = newTable(tableId, null);
    app.queue = [];
    app.receivedSeq = 0;
    app.ui = freshUi();
    await app.net.request({ type: "watch", table_id: tableId, invite: invite || null }, ["watching"]);
    storeSession({ table_id: tableId, watch: true, invite: invite || null });
    clearHash();
    renderAll();
  } catch (err) {
    app.table = null;
    if (quiet) clearSession();
    toast(errorText(err));
    renderAll();
    refreshTables();
  }
}

function refreshTables() {
  if (!app.net || !app.net.online) return;
  app.net
    .request({ type: "list_tables" }, ["tables"])
    .then((msg) => {
      app.lobby.tables = msg.tables;
      if (!app.table) renderMain();
    })
    .catch(() => {});
}

function act(action) {
  if (!app.table || !app.table.legal) return;
  app.ui.lastLegal = app.table.legal;
  if (!app.net.send({ type: "act", action })) {
    toast(t("conn.offline"));
    return;
  }
  app.table.legal = null;
  renderTable();
}

async function leave() {
  const table = app.table;
  if (table && app.net.online) {
    try {
      await app.net.request({ type: "leave" }, ["left"], { timeout: 4000 });
    } catch {
      /* leaving anyway */
    }
  }
  clearSession();
  app.table = null;
  app.queue = [];
  app.ui = freshUi();
  renderAll();
  refreshTables();
}

async function playAgain() {
  const table = app.table;
  const options = { ...(table?.summary.options || { deals: 1 }) };
  const allAi = table ? table.summary.seats.filter((s) => s.occupant === "human").length <= 1 : true;
  await leave();
  if (allAi) await createAndJoin(options, true);
}

function copyInvite() {
  const input = document.getElementById("invite-link");
  if (!input) return;
  input.select();
  const done = () => {
    app.ui.copied = true;
    renderTable();
    setTimeout(() => {
      app.ui.copied = false;
      renderTable();
    }, 2000);
  };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(done, done);
  else {
    try {
      document.execCommand("copy");
    } catch {
      /* the link stays selected for a manual copy */
    }
    done();
  }
}

function inviteLink() {
  const s = app.session;
  if (!s || !app.table) return null;
  const base = `${window.location.origin}${window.location.pathname}`;
  const invite = s.invite ? `&invite=${encodeURIComponent(s.invite)}` : "";
  return `${base}#join=${encodeURIComponent(app.table.tableId)}${invite}`;
}

// ------------------------------------------------------------------ hand clicks

function clickCard(code) {
  const table = app.table;
  if (!table || !table.deal) return;
  const mode = handMode(table, app.ui);
  const st = cardState(code, table, app.ui, mode);
  app.ui.focus = code;
  if (mode === "play") {
    if (!st.usable) {
      if (table.legal) app.ui.reason = null;
      return;
    }
    app.ui.pending = code;
    act({ kind: "play", card: code });
    return;
  }
  if (mode === "discard") {
    if (!st.usable) {
      app.ui.reason = st.reason;
      renderTable();
      return;
    }
    app.ui.reason = null;
    toggle(code, table.legal.discard.count);
    return;
  }
  if (mode === "poignee") {
    if (!st.usable) return;
    toggle(code, app.ui.poignee.size);
  }
}

function toggle(code, max) {
  const sel = app.ui.selected;
  if (sel.has(code)) sel.delete(code);
  else if (sel.size < max) sel.add(code);
  else app.ui.reason = t("discard.full", { n: max });
  renderTable();
}

function onHandKey(e) {
  const buttons = [...document.querySelectorAll("#hand .card")];
  const i = buttons.indexOf(document.activeElement);
  if (i < 0) return;
  let next = null;
  if (e.key === "ArrowRight" || e.key === "ArrowDown") next = Math.min(buttons.length - 1, i + 1);
  else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = Math.max(0, i - 1);
  else if (e.key === "Home") next = 0;
  else if (e.key === "End") next = buttons.length - 1;
  if (next === null) return;
  e.preventDefault();
  buttons[i].tabIndex = -1;
  buttons[next].tabIndex = 0;
  buttons[next].focus();
  app.ui.focus = buttons[next].dataset.card;
}

// ------------------------------------------------------------------ events (DOM)

const ACTIONS = {
  // A game against the AI is private: strangers cannot take an AI seat from the lobby.
  "quick-start": () => createAndJoin({ deals: 1, ai_level: "basic", name: t("lobby.quickName"), private: true }, true),
  "multi-start": () =>
    createAndJoin(
      { deals: Number(app.lobby.multiDeals) || 5, ai_level: "basic", name: t("lobby.quickName"), private: true },
      true,
    ),
  refresh: () => refreshTables(),
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
  "toggle-display": () => {
    const bar = document.querySelector(".topbar");
    const open = bar.classList.toggle("open");
    document.getElementById("display-toggle").setAttribute("aria-expanded", String(open));
  },
  "tab-table": () => setTab("table"),
  "tab-rules": () => setTab("rules"),
};

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
    case "endless": {
      const deals = el.form?.elements.namedItem("deals");
      if (deals) deals.disabled = el.checked;
      break;
    }
    default:
      break;
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

function setTab(tab) {
  app.tab = tab;
  const hash = tab === "rules" ? "#rules" : "";
  if (window.location.hash !== hash) window.history.replaceState(null, "", `${window.location.pathname}${window.location.search}${hash}`);
  renderAll();
  document.getElementById(`tab-${tab}`)?.focus();
}

function readHash() {
  const hash = window.location.hash.replace(/^#/, "");
  if (hash === "rules") {
    app.tab = "rules";
    return;
  }
  const p = new URLSearchParams(hash);
  if (p.get("join")) {
    app.lobby.invite = { table_id: p.get("join"), invite: p.get("invite") || null };
    app.tab = "table";
  }
}

function clearHash() {
  if (window.location.hash && window.location.hash !== "#rules") {
    window.history.replaceState(null, "", `${window.location.pathname}${window.location.search}`);
  }
  app.lobby.invite = null;
}

// ------------------------------------------------------------------ rendering

let toastTimer = null;

function toast(text) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.hidden = true;
  }, 4500);
}

function renderHeader() {
  document.documentElement.lang = app.lang;
  document.title = `CARDAVIA · ${t("app.title")}`;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  const lang = document.getElementById("lang-select");
  setHTML(lang, LANGS.map((l) => `<option value="${l.code}"${l.code === app.lang ? " selected" : ""}>${esc(l.name)}</option>`).join(""));
  lang.value = app.lang;
  const face = document.getElementById("face-select");
  setHTML(face, ["marseille", "french"].map((f) => `<option value="${f}"${f === app.face ? " selected" : ""}>${esc(t(`face.${f}`))}</option>`).join(""));
  face.value = app.face;
  for (const tab of ["table", "rules"]) {
    const btn = document.getElementById(`tab-${tab}`);
    btn.setAttribute("aria-selected", String(app.tab === tab));
    btn.tabIndex = app.tab === tab ? 0 : -1;
    document.getElementById(`view-${tab}`).hidden = app.tab !== tab;
  }
  renderConn();
}

function renderConn() {
  const el = document.getElementById("conn");
  if (!el) return;
  el.dataset.status = app.conn;
  el.textContent = t(`conn.${app.conn}`);
}

function renderMain() {
  if (app.tab === "rules") {
    setHTML(document.getElementById("view-rules"), rulesHTML(app.lang));
    return;
  }
  const view = document.getElementById("view-table");
  if (!app.table) {
    view.dataset.mode = "lobby";
    setHTML(view, lobbyHTML({ ...app.lobby, face: app.face, lang: app.lang }));
    return;
  }
  renderTable();
}

function ensureTableSkeleton(view) {
  if (view.dataset.mode === "table") return;
  view.dataset.mode = "table";
  view._html = null;
  view.innerHTML =
    '<div class="game">' +
    '<div class="board-wrap"><div class="board" id="board"><div id="seats"></div><div class="centre" id="centre" aria-live="off"></div>' +
    '<div class="conn-banner" id="conn-banner" role="status" hidden></div></div>' +
    '<div class="prompt" id="prompt" aria-live="polite"></div>' +
    '<div class="hand" id="hand"></div></div>' +
    '<aside class="info" id="info"></aside>' +
    '<div id="sheet-layer"></div></div>';
  view.querySelector("#hand").addEventListener("keydown", onHandKey);
}

function renderTable() {
  if (app.tab !== "table" || !app.table) return;
  const view = document.getElementById("view-table");
  ensureTableSkeleton(view);
  const table = app.table;
  const ctx = {
    lang: app.lang,
    face: app.face,
    selected: app.ui.selected,
    reason: app.ui.reason,
    poignee: app.ui.poignee,
    pool: app.ui.pool,
    focus: app.ui.focus,
    pending: app.ui.pending,
    seen: app.ui.seen,
    log: app.ui.log.map((line) => line()),
    announce: app.ui.announce ? { key: app.ui.announce.key, text: app.ui.announce.text() } : null,
    inviteLink: inviteLink(),
    copied: app.ui.copied,
    reconnecting: app.conn !== "online",
  };
  const parts = tableParts(table, ctx);
  view.querySelector(".game").dataset.phase = parts.phase;
  view.querySelector(".game").dataset.mine = String(Boolean(table.legal));
  setHTML(document.getElementById("seats"), parts.seats);
  setHTML(document.getElementById("centre"), parts.centre);
  setHTML(document.getElementById("prompt"), parts.prompt);
  setHTML(document.getElementById("hand"), parts.hand);
  layoutHand();
  setHTML(document.getElementById("info"), parts.info);
  const banner = document.getElementById("conn-banner");
  banner.hidden = app.conn === "online";
  setHTML(
    banner,
    app.conn === "replaced"
      ? `<span>${esc(t("conn.replacedLong"))}</span> <button type="button" class="btn small" data-action="take-back">${esc(t("conn.takeBack"))}</button>`
      : `<span class="spinner" aria-hidden="true"></span> ${esc(t(`conn.${app.conn}`))}`,
  );
  const entry = app.ui.sheetFor !== null ? table.history.find((h) => h.deal_number === app.ui.sheetFor) : null;
  const layer = document.getElementById("sheet-layer");
  const opened = setHTML(layer, entry ? sheetHTML(table, entry) : "");
  if (opened && entry && !layer.contains(document.activeElement)) {
    const primary = layer.querySelector(".sheet .btn.primary") || layer.querySelector(".sheet .btn");
    if (primary) primary.focus({ preventScroll: true });
  }
  updateTimers();
  if (app.focusTurn) focusTurn();
}

/** A new turn: bring the keyboard focus to it, unless the player is busy elsewhere. */
function focusTurn() {
  app.focusTurn = false;
  if (!app.keyboardUser) return; // a mouse or touch player keeps the page as it is
  const active = document.activeElement;
  const idle = !active || active === document.body || active.closest("#hand, #prompt, #centre, #seats");
  if (!idle || document.querySelector(".overlay")) return;
  const target =
    document.querySelector("#prompt .btn.primary:not([disabled])") ||
    document.querySelector('#hand .card[tabindex="0"]');
  if (target) target.focus({ preventScroll: true });
}

/** Overlap the cards of my hand so that they fit on one row when they can. */
function layoutHand() {
  const row = document.querySelector("#hand .hand-cards");
  if (!row) return;
  const cards = row.querySelectorAll(".card");
  if (!cards.length) return;
  const width = row.parentElement.clientWidth - 8;
  const card = cards[0].getBoundingClientRect().width || 60;
  const n = cards.length;
  let step = n > 1 ? (width - card) / (n - 1) : card;
  let wrap = false;
  if (step < card * 0.3) {
    step = card * 0.42;
    wrap = true;
  }
  step = Math.min(step, card * 0.64);
  row.style.setProperty("--overlap", `${(card - step).toFixed(1)}px`);
  row.classList.toggle("wrap", wrap);
}

function renderAll() {
  renderHeader();
  renderMain();
}

function updateTimers() {
  for (const el of document.querySelectorAll(".timer[data-deadline]")) {
    const left = Math.max(0, Math.round((Number(el.dataset.deadline) - Date.now()) / 1000));
    el.textContent = `${left}s`;
    el.classList.toggle("low", left <= 10);
  }
}

// ------------------------------------------------------------------ boot

function installHeader() {
  const sliders = document.getElementById("sliders");
  sliders.innerHTML = Object.keys(DEFAULTS)
    .map(
      (key) =>
        `<label class="slider" for="slider-${key}"><span data-i18n="display.${key}"></span>` +
        `<input type="range" id="slider-${key}" min="0" max="100" step="1" value="${app.display[key]}" data-slider="${key}">` +
        `<output id="value-${key}" for="slider-${key}">${app.display[key]}%</output></label>`,
    )
    .join("");
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
  renderAll();
  app.net = new Connection(params.get("server") || defaultUrl(), { onMessage, onStatus, onReady });
  app.net.connect();
  // A handle for tests and the curious: the state, and a way to drop the connection.
  window.cardavia = { app, drop: () => app.net.drop() };
}

boot();
