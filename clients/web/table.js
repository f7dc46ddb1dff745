// The table: four seats around the felt, the trick in the middle, my hand, what I
// may do now (from `your_turn.legal` only), and the public information beside it.

import { backSVG, cardName, cardSVG, isBout, isKing, isTrump, sortHand } from "./cards.js";
import { esc } from "./dom.js";
import { position } from "./game.js";
import { contractLabel, num, t } from "./i18n.js";

const CONTRACT_ORDER = ["pass", "prise", "garde", "garde_sans", "garde_contre"];

export function seatName(table, seat) {
  const info = table.summary.seats[seat];
  if (!info || info.occupant === "empty") return t("seat.free");
  if (info.occupant === "ai") return t("seat.ai", { n: seat + 1 });
  // The server names a nameless player "Player N": say it in the player's language.
  if (!info.name || info.name === `Player ${seat + 1}`) return t("seat.player", { n: seat + 1 });
  return info.name;
}

export function seatLabel(table, seat) {
  const name = seatName(table, seat);
  return seat === table.seat ? t("seat.you", { name }) : name;
}

/** A card as a button (in my hand) or a picture. */
export function cardHTML(code, ctx, opts = {}) {
  const name = cardName(code, ctx.lang, ctx.face);
  const cls = ["card", opts.cls || ""].join(" ").trim();
  const suit = code === "EX" ? "ex" : isTrump(code) ? "trump" : code.slice(-1);
  if (opts.button) {
    const label = opts.label ? `${name}, ${opts.label}` : name;
    return (
      `<button type="button" class="${cls}" data-card="${code}" data-key="card-${code}" data-suit="${suit}" ` +
      `aria-label="${esc(label)}"${opts.disabled ? ' aria-disabled="true"' : ""}${opts.pressed !== undefined ? ` aria-pressed="${opts.pressed}"` : ""} ` +
      `tabindex="${opts.tabindex ?? -1}"${opts.title ? ` title="${esc(opts.title)}"` : ""}>` +
      `${cardSVG(code, ctx.face, ctx.lang)}${opts.badge || ""}</button>`
    );
  }
  return `<span class="${cls}" role="img" aria-label="${esc(name)}" data-card="${code}" data-suit="${suit}">${cardSVG(code, ctx.face, ctx.lang)}</span>`;
}

export function miniCards(codes, ctx, empty = "") {
  if (!codes || !codes.length) return empty ? `<span class="muted">${esc(empty)}</span>` : "";
  return `<span class="minis">${codes.map((c) => cardHTML(c, ctx, { cls: "mini" })).join("")}</span>`;
}

/** True while an element first shown now should still play its entrance animation.
 * Keys name the deal by number and dealer: a deal dealt again after a cancelled one
 * has its number, and its bids must animate even when a snapshot brought it. */
function isFresh(ctx, key) {
  const now = performance.now();
  const first = ctx.seen.get(key);
  if (first === undefined) {
    ctx.seen.set(key, now);
    return true;
  }
  return now - first < 450;
}

// ------------------------------------------------------------------ seats

function lastBid(deal, seat) {
  if (!deal) return null;
  const bid = deal.bids.filter((b) => b.seat === seat).pop();
  return bid ? bid.contract : null;
}

function seatHTML(table, seat, ctx) {
  const d = table.deal;
  const info = table.summary.seats[seat];
  const pos = position(seat, table.seat);
  const name = seatName(table, seat);
  const me = seat === table.seat;
  const badges = [];
  if (d && d.dealer === seat) badges.push(`<span class="badge dealer" title="${esc(t("seat.dealer"))}">${esc(t("seat.dealerShort"))}</span>`);
  if (d && d.taker === seat) badges.push(`<span class="badge taker"><span class="role">${esc(t("seat.taker"))} · </span>${esc(contractLabel(d.contract))}</span>`);
  if (info.occupant === "human" && !info.connected) badges.push(`<span class="badge away">${esc(t("seat.away"))}</span>`);
  const active = d && d.toAct === seat && d.phase !== "done";
  const bid = d && d.phase === "bidding" ? lastBid(d, seat) : null;
  let bubble = "";
  if (bid) {
    const fresh = isFresh(ctx, `bid-${d.number}-${d.dealer}-${seat}-${bid}`);
    bubble = `<div class="bubble${bid === "pass" ? " pass" : ""}${fresh ? " enter" : ""}">${esc(contractLabel(bid))}</div>`;
  }
  const size = d ? d.handSizes[seat] : 0;
  const backs =
    !me && d && size > 0
      ? `<div class="backs" title="${esc(t("seat.cards", { n: size }))}">${Array.from({ length: Math.min(size, 24) }, () => `<span class="back" aria-hidden="true">${backSVG()}</span>`).join("")}<span class="count">${size}</span></div>`
      : "";
  const tricks = d && d.phase === "play" || (d && d.tricks.length) ? `<span class="won" title="${esc(t("info.tricksWon"))}">${esc(t("seat.tricks", { n: d.tricksWon[seat] }))}</span>` : "";
  const thinking = active && !me ? `<span class="thinking" aria-hidden="true"><i></i><i></i><i></i></span>` : "";
  const timer =
    active && table.deadline
      ? `<span class="timer" data-deadline="${table.deadline}"></span>`
      : "";
  const label = [name, me ? t("seat.youShort") : "", active ? t("seat.toPlay") : ""].filter(Boolean).join(", ");
  const empty = info.occupant === "empty";
  return (
    `<div class="seat pos-${pos}${active ? " active" : ""}${d && d.taker === seat ? " is-taker" : ""}${me ? " me" : ""}${empty ? " empty" : ""}" data-seat="${seat}" aria-label="${esc(label)}">` +
    `<div class="plate">${avatarHTML(info, name, seat)}` +
    `<span class="who"><span class="name">${esc(name)}${me ? ` <em>(${esc(t("seat.youShort"))})</em>` : ""}</span>` +
    `<span class="badges">${badges.join("")}${tricks}${timer}</span></span>${thinking}</div>` +
    bubble +
    backs +
    "</div>"
  );
}

const EMBLEMS = ["S", "H", "D", "C"];

/** A player's initial; an AI seat gets a suit emblem of its own. */
function avatarHTML(info, name, seat) {
  if (info.occupant === "empty") return `<span class="avatar empty" aria-hidden="true">+</span>`;
  if (info.occupant === "ai") {
    return `<span class="avatar ai" aria-hidden="true"><svg viewBox="0 0 100 100"><use href="#sym-marseille-${EMBLEMS[seat]}"/></svg></span>`;
  }
  return `<span class="avatar" aria-hidden="true">${esc((name || "?").trim().charAt(0).toUpperCase())}</span>`;
}

// ------------------------------------------------------------------ centre

function trickHTML(table, ctx) {
  const d = table.deal;
  const trick = d.trick;
  if (!trick) return "";
  const cards = trick.cards.map((code, i) => {
    const seat = (trick.leader + i) % 4;
    const pos = position(seat, table.seat);
    const win = trick.winner === seat;
    const fresh = isFresh(ctx, `t-${d.number}-${d.dealer}-${seat}-${code}`);
    return (
      `<div class="slot pos-${pos}${win ? " winner" : ""}${fresh ? " enter" : ""}" data-seat="${seat}">` +
      cardHTML(code, ctx, { cls: "played" }) +
      (win ? `<span class="win-label">${esc(t("trick.wins", { name: seatName(table, seat) }))}</span>` : "") +
      "</div>"
    );
  });
  const leaving = trick.leaving ? ` leaving to-${position(trick.winner, table.seat)}` : "";
  return `<div class="trick${leaving}" aria-label="${esc(t("trick.label"))}">${cards.join("")}</div>`;
}

function waitingHTML(table, ctx) {
  const link = ctx.inviteLink;
  const seated = table.seat !== null;
  return (
    (link
      ? `<div class="invite-box"><label class="invite-label" for="invite-link">${esc(t(table.summary.options.private ? "wait.invitePrivate" : "wait.invite"))}</label>` +
        `<div class="invite"><input id="invite-link" readonly value="${esc(link)}">` +
        `<button type="button" class="btn" data-action="copy-invite">${esc(ctx.copied ? t("wait.copied") : t("wait.copy"))}</button></div></div>`
      : "") +
    (seated ? `<button type="button" class="btn primary big" data-action="start">${esc(t("wait.start"))}</button>` : "")
  );
}

function centreHTML(table, ctx) {
  const d = table.deal;
  if (table.summary.status === "waiting" && !d) {
    return `<div class="centre-msg big waiting-msg">${esc(t("wait.title"))}<br><small>${esc(t("wait.text"))}</small></div>`;
  }
  if (!d) return `<div class="centre-msg">${esc(t("table.starting"))}</div>`;
  if (d.cancelled) {
    return `<div class="centre-msg big">${esc(t(`cancel.${d.cancelled}`))}<br><small>${esc(t("cancel.redeal"))}</small></div>`;
  }
  if (d.phase === "play" || d.trick) {
    const msg = !d.trick && d.toAct !== null ? `<div class="centre-msg">${esc(toActText(table, d))}</div>` : "";
    return trickHTML(table, ctx) + msg + announceHTML(ctx);
  }
  if (d.chien && !d.discarded) {
    return (
      `<div class="chien-show"><div class="centre-title">${esc(t("info.chien"))}</div>` +
      `<div class="chien-cards">${d.chien.map((c) => cardHTML(c, ctx, { cls: "played" })).join("")}</div></div>`
    );
  }
  return `<div class="centre-msg">${esc(toActText(table, d))}</div>` + announceHTML(ctx);
}

function announceHTML(ctx) {
  if (!ctx.announce) return "";
  return `<div class="announce" data-key="${esc(ctx.announce.key)}">${esc(ctx.announce.text)}</div>`;
}

function toActText(table, d) {
  if (d.toAct === null || d.toAct === undefined) return "";
  const phase = t(`phase.${d.phase}`);
  if (d.toAct === table.seat) return `${phase} · ${t("turn.yours")}`;
  return `${phase} · ${t("turn.other", { name: seatName(table, d.toAct) })}`;
}

// ------------------------------------------------------------------ prompt

function bidPrompt(legal) {
  const bids = [...legal.bids].sort((a, b) => CONTRACT_ORDER.indexOf(a) - CONTRACT_ORDER.indexOf(b));
  return (
    `<div class="prompt-title" id="prompt-title">${esc(t("bid.title"))}</div>` +
    `<div class="buttons" role="group" aria-labelledby="prompt-title">${bids
      .map(
        (b) =>
          `<button type="button" class="btn ${b === "pass" ? "" : "primary"}" data-action="bid" data-arg="${b}" data-key="bid-${b}">${esc(contractLabel(b, true))}</button>`,
      )
      .join("")}</div>`
  );
}

function discardReason(code, rule) {
  if (rule.allowed.includes(code)) return null;
  if (isKing(code)) return t("discard.noKing");
  if (isBout(code)) return t("discard.noBout");
  if (isTrump(code)) return t("discard.noTrump");
  return t("discard.notAllowed");
}

function discardPrompt(table, ctx) {
  const rule = table.legal.discard;
  const n = ctx.selected.size;
  const missing = rule.required.filter((c) => !ctx.selected.has(c));
  const ok = n === rule.count && missing.length === 0;
  const hint = rule.required.length ? t("discard.requiredHint", { n: rule.required.length }) : t("discard.hint");
  return (
    `<div class="prompt-title" id="prompt-title">${esc(t("discard.title", { n: rule.count }))} <span class="count" data-field="discard-count">${n}/${rule.count}</span></div>` +
    `<p class="hint">${esc(hint)}</p>` +
    (ctx.reason ? `<p class="reason" role="alert">${esc(ctx.reason)}</p>` : "") +
    `<div class="buttons"><button type="button" class="btn primary" data-action="discard" data-key="discard-confirm"${ok ? "" : " disabled"}>${esc(t("discard.confirm"))}</button>` +
    (n ? `<button type="button" class="btn" data-action="discard-clear">${esc(t("discard.clear"))}</button>` : "") +
    "</div>"
  );
}

function chelemPrompt() {
  return (
    `<div class="prompt-title" id="prompt-title">${esc(t("chelem.title"))}</div>` +
    `<p class="hint">${esc(t("chelem.hint"))}</p>` +
    `<div class="buttons"><button type="button" class="btn" data-action="chelem" data-arg="yes" data-key="chelem-yes">${esc(t("chelem.announce"))}</button>` +
    `<button type="button" class="btn primary" data-action="chelem" data-arg="no" data-key="chelem-no">${esc(t("chelem.no"))}</button></div>`
  );
}

function poigneePrompt(table, ctx) {
  const offers = table.legal.poignees;
  if (ctx.poignee) {
    const size = ctx.poignee.size;
    const n = ctx.selected.size;
    return (
      `<div class="prompt-title" id="prompt-title">${esc(t("poignee.choose", { n: size, level: t(`poignee.${ctx.poignee.level}`) }))} <span class="count">${n}/${size}</span></div>` +
      `<p class="hint">${esc(t("poignee.chooseHint"))}</p>` +
      (ctx.reason ? `<p class="reason" role="alert">${esc(ctx.reason)}</p>` : "") +
      `<div class="buttons"><button type="button" class="btn primary" data-action="poignee-confirm"${n === size ? "" : " disabled"}>${esc(t("poignee.showThese"))}</button>` +
      `<button type="button" class="btn" data-action="poignee-cancel">${esc(t("poignee.cancel"))}</button></div>`
    );
  }
  const rows = offers
    .map(
      (o) =>
        `<div class="offer"><div class="offer-head"><strong>${esc(t(`poignee.${o.level}`))}</strong> · ${esc(t("poignee.size", { n: o.size, bonus: { simple: 20, double: 30, triple: 40 }[o.level] }))}</div>` +
        `${miniCards(o.cards, ctx)}` +
        `<div class="buttons"><button type="button" class="btn primary" data-action="poignee-show" data-arg="${o.level}" data-key="poignee-${o.level}">${esc(t("poignee.show"))}</button>` +
        `<button type="button" class="btn" data-action="poignee-pick" data-arg="${o.level}">${esc(t("poignee.other"))}</button></div></div>`,
    )
    .join("");
  return (
    `<div class="prompt-title" id="prompt-title">${esc(t("poignee.title"))}</div>` +
    `<p class="hint">${esc(t("poignee.hint"))}</p>` +
    `<div class="offers">${rows}</div>`
  );
}

function promptHTML(table, ctx) {
  const legal = table.legal;
  const d = table.deal;
  if (ctx.reconnecting) return `<div class="prompt-title">${esc(t("conn.reconnecting"))}</div>`;
  if (table.summary.status === "waiting" && !d) return waitingHTML(table, ctx);
  if (!legal || !d) {
    if (table.seat === null && d) return `<div class="prompt-status">${esc(t("table.watching"))} · ${esc(toActText(table, d))}</div>`;
    if (d && d.toAct !== null && d.phase !== "done") return `<div class="prompt-status">${esc(toActText(table, d))}</div>`;
    return "";
  }
  if (legal.phase === "bidding") return bidPrompt(legal);
  if (legal.phase === "discard" && legal.discard) return discardPrompt(table, ctx);
  if (legal.phase === "chelem" && legal.chelem) return chelemPrompt();
  if (legal.phase === "play") {
    const play = `<div class="prompt-title your-turn" id="prompt-title">${esc(t("play.title"))}</div>`;
    if (legal.poignees.length) return poigneePrompt(table, ctx) + (ctx.poignee ? "" : `<p class="hint">${esc(t("poignee.decline"))}</p>`);
    return play;
  }
  return "";
}

// ------------------------------------------------------------------ hand

function handHTML(table, ctx) {
  const d = table.deal;
  if (!d || table.seat === null) return "";
  const hand = sortHand(d.hand);
  const mode = handMode(table, ctx);
  const focusCode = hand.includes(ctx.focus) ? ctx.focus : hand.find((c) => cardState(c, table, ctx, mode).usable) || hand[0];
  const cards = hand.map((code) => {
    const st = cardState(code, table, ctx, mode);
    const cls = [
      st.usable ? "usable" : "",
      st.disabled ? "disabled" : "",
      st.selected ? "selected" : "",
      mode === "play" && st.usable ? "legal" : "",
      d.fromChien.includes(code) ? "from-chien" : "",
      ctx.pending === code ? "pending" : "",
    ]
      .filter(Boolean)
      .join(" ");
    const badge = st.reason ? `<span class="no-badge" aria-hidden="true">⊘</span>` : d.fromChien.includes(code) ? `<span class="chien-badge" aria-hidden="true">${esc(t("hand.chienBadge"))}</span>` : "";
    const labels = [];
    if (mode === "play" && st.usable) labels.push(t("hand.playable"));
    if (st.selected) labels.push(t("hand.selected"));
    if (st.reason) labels.push(st.reason);
    if (d.fromChien.includes(code)) labels.push(t("hand.fromChien"));
    return cardHTML(code, ctx, {
      button: true,
      cls,
      disabled: !st.usable,
      pressed: mode === "discard" || mode === "poignee" ? String(st.selected) : undefined,
      tabindex: code === focusCode ? 0 : -1,
      label: labels.join(", "),
      title: st.reason || "",
      badge,
    });
  });
  const label = mode === "play" ? t("hand.labelPlay") : mode === "discard" ? t("hand.labelDiscard") : t("hand.label");
  return `<div class="hand-cards n${Math.min(hand.length, 24)}" role="group" aria-label="${esc(label)}" data-mode="${mode}">${cards.join("")}</div>`;
}

export function handMode(table, ctx) {
  const legal = table.legal;
  if (!legal) return "view";
  if (legal.phase === "discard" && legal.discard) return "discard";
  if (legal.phase === "play" && ctx.poignee) return "poignee";
  if (legal.phase === "play") return "play";
  return "view";
}

/** What a card in my hand may do now: {usable, disabled, selected, reason}. */
export function cardState(code, table, ctx, mode = handMode(table, ctx)) {
  const legal = table.legal;
  if (mode === "play") {
    const usable = legal.cards.includes(code) && ctx.pending === null;
    return { usable, disabled: !usable, selected: false, reason: null };
  }
  if (mode === "discard") {
    const rule = legal.discard;
    const reason = discardReason(code, rule);
    const required = rule.required.includes(code);
    return {
      usable: reason === null && !required,
      disabled: reason !== null,
      selected: ctx.selected.has(code),
      reason: reason || (required ? t("discard.required") : null),
    };
  }
  if (mode === "poignee") {
    const usable = ctx.pool.has(code);
    return { usable, disabled: !usable, selected: ctx.selected.has(code), reason: null };
  }
  return { usable: false, disabled: false, selected: false, reason: null };
}

// ------------------------------------------------------------------ info

function infoHTML(table, ctx) {
  const d = table.deal;
  const opts = table.summary.options || {};
  const parts = [];
  const n = d ? d.number : table.summary.deal_number;
  let dealOf = opts.deals && n <= opts.deals ? t("info.dealOf", { n, total: opts.deals }) : t("info.deal", { n });
  if (!n) dealOf = `${t("status.waiting")} · ${opts.deals ? t("lobby.dealsN", { n: opts.deals }) : t("lobby.endlessShort")}`;
  const title = opts.name ? esc(opts.name) : esc(t("info.table", { id: table.tableId }));
  parts.push(`<div class="info-head"><div class="info-title">${title}</div><div class="muted">${esc(dealOf)}${d ? ` · ${esc(t("info.dealer", { name: seatName(table, d.dealer) }))}` : ""}</div></div>`);
  if (d) {
    const contract = d.taker !== null
      ? `<strong>${esc(seatLabel(table, d.taker))}</strong> · ${esc(contractLabel(d.contract, true))}${d.chelem ? ` · <span class="tag">${esc(t("info.chelemAnnounced"))}</span>` : ""}`
      : `<span class="muted">${esc(d.phase === "bidding" ? t("info.bidding") : "–")}</span>`;
    parts.push(section(t("info.contract"), contract, "contract"));
    if (d.bids.length) {
      parts.push(section(t("info.bids"), `<ul class="bids">${d.bids.map((b) => `<li><span>${esc(seatLabel(table, b.seat))}</span><span class="${b.contract === "pass" ? "muted" : ""}">${esc(contractLabel(b.contract))}</span></li>`).join("")}</ul>`, "bids"));
    }
    if (d.chien) parts.push(section(t("info.chien"), miniCards(d.chien, ctx), "chien"));
    if (d.discarded || d.discardTrumps.length) {
      parts.push(section(t("info.discardTrumps"), miniCards(d.discardTrumps, ctx, t("info.none")), "discard-trumps"));
    }
    if (d.discard && table.seat === d.taker) parts.push(section(t("info.myDiscard"), miniCards(d.discard, ctx), "my-discard"));
    if (d.poignees.length) {
      parts.push(section(t("info.poignees"), d.poignees.map((p) => `<div class="poignee-line"><span>${esc(seatLabel(table, p.seat))} · ${esc(t(`poignee.${p.level}`))}</span>${miniCards(p.cards, ctx)}</div>`).join(""), "poignees"));
    }
    if (d.taker !== null && (d.phase === "play" || d.tricks.length)) {
      const total = d.points[0] + d.points[1];
      const pct = total ? Math.round((d.points[0] / 91) * 100) : 0;
      parts.push(
        section(
          t("info.points"),
          `<div class="points"><div><span class="side taker-side">${esc(t("side.taker"))}</span> <strong data-field="points-taker">${num(d.points[0])}</strong></div>` +
            `<div><span class="side defence-side">${esc(t("side.defence"))}</span> <strong data-field="points-defence">${num(d.points[1])}</strong></div></div>` +
            `<div class="bar" aria-hidden="true"><span style="width:${pct}%"></span></div>` +
            `<div class="muted small">${esc(t("info.tricksCount", { n: d.tricks.length }))}</div>`,
          "points",
        ),
      );
    }
    const last = d.tricks.length ? d.tricks[d.tricks.length - 1] : null;
    if (last && (!d.trick || d.trick !== last)) {
      parts.push(section(t("info.lastTrick"), `${miniCards(last.cards, ctx)}<div class="muted small">${esc(t("trick.wins", { name: seatLabel(table, last.winner) }))}</div>`, "last-trick"));
    }
  }
  if (table.summary.status !== "waiting" || d) parts.push(section(t("info.scores"), scoresHTML(table), "scores"));
  if (ctx.log.length) {
    parts.push(section(t("info.log"), `<ol class="log">${ctx.log.slice(-8).map((l) => `<li>${esc(l)}</li>`).join("")}</ol>`, "log"));
  }
  const leave = table.seat !== null ? t("table.leave") : t("table.stopWatching");
  parts.push(`<div class="info-actions">${table.history.length ? `<button type="button" class="btn small" data-action="show-sheet">${esc(t("sheet.show"))}</button>` : ""}<button type="button" class="btn small" data-action="leave">${esc(leave)}</button></div>`);
  return parts.join("");
}

function section(title, body, key) {
  return `<section class="info-sec" data-section="${key}"><h3>${esc(title)}</h3>${body}</section>`;
}

function scoresHTML(table) {
  const totals = table.summary.totals || [0, 0, 0, 0];
  return `<ul class="totals">${[0, 1, 2, 3].map((s) => `<li class="${s === table.seat ? "me" : ""}"><span>${esc(seatLabel(table, s))}</span><strong data-field="total-${s}">${num(totals[s])}</strong></li>`).join("")}</ul>`;
}

// ------------------------------------------------------------------ whole

/** The parts of the table view, each rendered into its own container. */
export function tableParts(table, ctx) {
  const d = table.deal;
  const seats = [0, 1, 2, 3].map((s) => seatHTML(table, s, ctx)).join("");
  return {
    seats,
    centre: centreHTML(table, ctx),
    prompt: promptHTML(table, ctx),
    hand: handHTML(table, ctx),
    info: infoHTML(table, ctx),
    phase: d ? d.phase : table.summary.status,
  };
}
