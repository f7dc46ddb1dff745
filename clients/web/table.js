// The table: four seats around the felt, the trick in the middle, my hand, what I
// may do now (from `your_turn.legal` only), and the public information beside it.

import { backSVG, cardName, cardSVG, isBout, isCard, isKing, isTrump, sortHand } from "./cards.js";
import { html } from "./dom.js";
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
  const suit = !isCard(code) ? "unknown" : code === "EX" ? "ex" : isTrump(code) ? "trump" : code.slice(-1);
  const face = cardSVG(code, ctx.face, ctx.lang);
  if (opts.button) {
    const label = opts.label ? `${name}, ${opts.label}` : name;
    const disabled = opts.disabled ? html` aria-disabled="true"` : "";
    const pressed = opts.pressed !== undefined ? html` aria-pressed="${opts.pressed}"` : "";
    const title = opts.title ? html` title="${opts.title}"` : "";
    return html`<button type="button" class="${cls}" data-card="${code}" data-key="card-${code}" data-suit="${suit}" aria-label="${label}"${disabled}${pressed} tabindex="${opts.tabindex ?? -1}"${title}>${face}${opts.badge || ""}</button>`;
  }
  return html`<span class="${cls}" role="img" aria-label="${name}" data-card="${code}" data-suit="${suit}">${face}</span>`;
}

export function miniCards(codes, ctx, empty = "") {
  if (!codes || !codes.length) return empty ? html`<span class="muted">${empty}</span>` : "";
  return html`<span class="minis">${codes.map((c) => cardHTML(c, ctx, { cls: "mini" }))}</span>`;
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
  if (d && d.dealer === seat) badges.push(html`<span class="badge dealer" title="${t("seat.dealer")}">${t("seat.dealerShort")}</span>`);
  if (d && d.taker === seat) badges.push(html`<span class="badge taker"><span class="role">${t("seat.taker")} · </span>${contractLabel(d.contract)}</span>`);
  if (info.occupant === "human" && !info.connected) badges.push(html`<span class="badge away">${t("seat.away")}</span>`);
  const active = d && d.toAct === seat && d.phase !== "done";
  const bid = d && d.phase === "bidding" ? lastBid(d, seat) : null;
  let bubble = "";
  if (bid) {
    const fresh = isFresh(ctx, `bid-${d.number}-${d.dealer}-${seat}-${bid}`);
    bubble = html`<div class="bubble${bid === "pass" ? " pass" : ""}${fresh ? " enter" : ""}">${contractLabel(bid)}</div>`;
  }
  const size = d ? d.handSizes[seat] : 0;
  const backs =
    !me && d && size > 0
      ? html`<div class="backs" title="${t("seat.cards", { n: size })}">${Array.from({ length: Math.min(size, 24) }, () => html`<span class="back" aria-hidden="true">${backSVG()}</span>`)}<span class="count">${size}</span></div>`
      : "";
  const tricks = (d && d.phase === "play") || (d && d.tricks.length) ? html`<span class="won" title="${t("info.tricksWon")}">${t("seat.tricks", { n: d.tricksWon[seat] })}</span>` : "";
  const thinking = active && !me ? html`<span class="thinking" aria-hidden="true"><i></i><i></i><i></i></span>` : "";
  const timer = active && table.deadline ? html`<span class="timer" data-deadline="${table.deadline}"></span>` : "";
  const label = [name, me ? t("seat.youShort") : "", active ? t("seat.toPlay") : ""].filter(Boolean).join(", ");
  const empty = info.occupant === "empty";
  const cls = `seat pos-${pos}${active ? " active" : ""}${d && d.taker === seat ? " is-taker" : ""}${me ? " me" : ""}${empty ? " empty" : ""}`;
  const you = me ? html` <em>(${t("seat.youShort")})</em>` : "";
  return html`<div class="${cls}" data-seat="${seat}" aria-label="${label}"><div class="plate">${avatarHTML(info, name, seat)}<span class="who"><span class="name">${name}${you}</span><span class="badges">${badges}${tricks}${timer}</span></span>${thinking}</div>${bubble}${backs}</div>`;
}

const EMBLEMS = ["S", "H", "D", "C"];

/** A player's initial; an AI seat gets a suit emblem of its own. */
function avatarHTML(info, name, seat) {
  if (info.occupant === "empty") return html`<span class="avatar empty" aria-hidden="true">+</span>`;
  if (info.occupant === "ai") {
    return html`<span class="avatar ai" aria-hidden="true"><svg viewBox="0 0 100 100"><use href="#sym-marseille-${EMBLEMS[seat]}"/></svg></span>`;
  }
  return html`<span class="avatar" aria-hidden="true">${(name || "?").trim().charAt(0).toUpperCase()}</span>`;
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
    const label = win ? html`<span class="win-label">${t("trick.wins", { name: seatName(table, seat) })}</span>` : "";
    const lead = i === 0 && !win ? html`<span class="lead-label" data-field="led">${t("trick.led")}</span>` : "";
    return html`<div class="slot pos-${pos}${win ? " winner" : ""}${i === 0 ? " led" : ""}${fresh ? " enter" : ""}" data-seat="${seat}">${cardHTML(code, ctx, { cls: "played" })}${label}${lead}</div>`;
  });
  const leaving = trick.leaving ? ` leaving to-${position(trick.winner, table.seat)}` : "";
  return html`<div class="trick${leaving}" aria-label="${t("trick.label")} · ${t("trick.ledBy", { name: seatName(table, trick.leader) })}">${cards}</div>`;
}

function waitingHTML(table, ctx) {
  const link = ctx.inviteLink;
  const seated = table.seat !== null;
  const invite = link
    ? html`<div class="invite-box"><label class="invite-label" for="invite-link">${t(table.summary.options.private ? "wait.invitePrivate" : "wait.invite")}</label><div class="invite"><input id="invite-link" readonly value="${link}"><button type="button" class="btn" data-action="copy-invite">${ctx.copied ? t("wait.copied") : t("wait.copy")}</button></div></div>`
    : "";
  const start = seated ? html`<button type="button" class="btn primary big" data-action="start">${t("wait.start")}</button>` : "";
  return html`${invite}${start}`;
}

function centreHTML(table, ctx) {
  const d = table.deal;
  if (table.summary.status === "waiting" && !d) {
    return html`<div class="centre-msg big waiting-msg">${t("wait.title")}<br><small>${t("wait.text")}</small></div>`;
  }
  if (!d) return html`<div class="centre-msg">${t("table.starting")}</div>`;
  if (d.cancelled) {
    return html`<div class="centre-msg big">${t(`cancel.${d.cancelled}`)}<br><small>${t("cancel.redeal")}</small></div>`;
  }
  if (d.phase === "play" || d.trick) {
    const msg = !d.trick && d.toAct !== null ? html`<div class="centre-msg">${toActText(table, d)}</div>` : "";
    return html`${trickHTML(table, ctx)}${msg}${announceHTML(ctx)}`;
  }
  if (d.chien && !d.discarded) {
    return html`<div class="chien-show"><div class="centre-title">${t("info.chien")}</div><div class="chien-cards">${d.chien.map((c) => cardHTML(c, ctx, { cls: "played" }))}</div></div>`;
  }
  return html`<div class="centre-msg">${toActText(table, d)}</div>${announceHTML(ctx)}`;
}

function announceHTML(ctx) {
  if (!ctx.announce) return "";
  return html`<div class="announce" data-key="${ctx.announce.key}">${ctx.announce.text}</div>`;
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
  const buttons = bids.map(
    (b) => html`<button type="button" class="btn ${b === "pass" ? "" : "primary"}" data-action="bid" data-arg="${b}" data-key="bid-${b}">${contractLabel(b, true)}</button>`,
  );
  return html`<div class="prompt-title" id="prompt-title">${t("bid.title")}</div><div class="buttons" role="group" aria-labelledby="prompt-title">${buttons}</div>`;
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
  const reason = ctx.reason ? html`<p class="reason" role="alert">${ctx.reason}</p>` : "";
  const clear = n ? html`<button type="button" class="btn" data-action="discard-clear">${t("discard.clear")}</button>` : "";
  return html`<div class="prompt-title" id="prompt-title">${t("discard.title", { n: rule.count })} <span class="count" data-field="discard-count">${n}/${rule.count}</span></div><p class="hint">${hint}</p>${reason}<div class="buttons"><button type="button" class="btn primary" data-action="discard" data-key="discard-confirm"${ok ? "" : html` disabled`}>${t("discard.confirm")}</button>${clear}</div>`;
}

/** The chelem decision: "No chelem" first and primary; announcing (−200 if it fails)
 * stands apart and asks again before it is sent. */
function chelemPrompt(ctx) {
  if (ctx.confirmChelem) {
    return html`<div class="prompt-title" id="prompt-title">${t("chelem.ask")}</div><div class="buttons"><button type="button" class="btn" data-action="chelem-back" data-key="chelem-back">${t("chelem.back")}</button><button type="button" class="btn danger" data-action="chelem" data-arg="yes" data-key="chelem-yes">${t("chelem.yes")}</button></div>`;
  }
  return html`<div class="prompt-title" id="prompt-title">${t("chelem.title")}</div><p class="hint">${t("chelem.hint")}</p><div class="buttons apart"><button type="button" class="btn primary" data-action="chelem" data-arg="no" data-key="chelem-no">${t("chelem.no")}</button><button type="button" class="btn" data-action="chelem-ask" data-key="chelem-ask">${t("chelem.announce")}</button></div>`;
}

function poigneePrompt(table, ctx) {
  const offers = table.legal.poignees;
  if (ctx.poignee) {
    const size = ctx.poignee.size;
    const n = ctx.selected.size;
    const reason = ctx.reason ? html`<p class="reason" role="alert">${ctx.reason}</p>` : "";
    return html`<div class="prompt-title" id="prompt-title">${t("poignee.choose", { n: size, level: t(`poignee.${ctx.poignee.level}`) })} <span class="count">${n}/${size}</span></div><p class="hint">${t("poignee.chooseHint")}</p>${reason}<div class="buttons"><button type="button" class="btn primary" data-action="poignee-confirm"${n === size ? "" : html` disabled`}>${t("poignee.showThese")}</button><button type="button" class="btn" data-action="poignee-cancel">${t("poignee.cancel")}</button></div>`;
  }
  const rows = offers.map(
    (o) =>
      html`<div class="offer"><div class="offer-head"><strong>${t(`poignee.${o.level}`)}</strong> · ${t("poignee.size", { n: o.size, bonus: { simple: 20, double: 30, triple: 40 }[o.level] })}</div>${miniCards(o.cards, ctx)}<div class="buttons"><button type="button" class="btn primary" data-action="poignee-show" data-arg="${o.level}" data-key="poignee-${o.level}">${t("poignee.show")}</button><button type="button" class="btn" data-action="poignee-pick" data-arg="${o.level}">${t("poignee.other")}</button></div></div>`,
  );
  return html`<div class="prompt-title" id="prompt-title">${t("poignee.title")}</div><p class="hint">${t("poignee.hint")}</p><div class="offers">${rows}</div>`;
}

function promptHTML(table, ctx) {
  const legal = table.legal;
  const d = table.deal;
  if (ctx.reconnecting) return html`<div class="prompt-title">${t("conn.reconnecting")}</div>`;
  if (table.summary.status === "waiting" && !d) return waitingHTML(table, ctx);
  if (!legal || !d) {
    if (table.seat === null && d) {
      const doing = toActText(table, d);
      return html`<div class="prompt-status">${t("table.watching")}${doing ? ` · ${doing}` : ""}</div>`;
    }
    if (d && d.toAct !== null && d.phase !== "done") return html`<div class="prompt-status">${toActText(table, d)}</div>`;
    return html``;
  }
  if (legal.phase === "bidding") return bidPrompt(legal);
  if (legal.phase === "discard" && legal.discard) return discardPrompt(table, ctx);
  if (legal.phase === "chelem" && legal.chelem) return chelemPrompt(ctx);
  if (legal.phase === "play") {
    const reason = ctx.reason ? html`<p class="reason" data-field="refused">${ctx.reason}</p>` : "";
    const chosen = ctx.chosen && legal.cards.includes(ctx.chosen) ? cardName(ctx.chosen, ctx.lang, ctx.face) : null;
    const confirm = chosen
      ? html`<p class="hint">${t("play.chosen", { card: chosen })}</p><div class="buttons"><button type="button" class="btn primary" data-action="play-chosen" data-key="play-chosen">${t("play.confirm", { card: chosen })}</button></div>`
      : "";
    const play = html`<div class="prompt-title your-turn" id="prompt-title">${t("play.title")}</div>${reason}${confirm}`;
    if (legal.poignees.length) return html`${poigneePrompt(table, ctx)}${ctx.poignee ? "" : html`<p class="hint">${t("poignee.decline")}</p>`}`;
    return play;
  }
  return html``;
}

// ------------------------------------------------------------------ hand

function handHTML(table, ctx) {
  const d = table.deal;
  if (!d || table.seat === null) return html``;
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
      mode === "play" && ctx.chosen === code ? "chosen" : "",
      d.fromChien.includes(code) ? "from-chien" : "",
      ctx.pending === code ? "pending" : "",
    ]
      .filter(Boolean)
      .join(" ");
    const badge = st.reason ? html`<span class="no-badge" aria-hidden="true">⊘</span>` : d.fromChien.includes(code) ? html`<span class="chien-badge" aria-hidden="true">${t("hand.chienBadge")}</span>` : "";
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
  return html`<div class="hand-cards n${Math.min(hand.length, 24)}" role="group" aria-label="${label}" data-mode="${mode}">${cards}</div>`;
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
  const n = d ? d.number : table.summary.deal_number;
  let dealOf = opts.deals && n <= opts.deals ? t("info.dealOf", { n, total: opts.deals }) : t("info.deal", { n });
  if (!n) dealOf = `${t("status.waiting")} · ${opts.deals ? t("lobby.dealsN", { n: opts.deals }) : t("lobby.endlessShort")}`;
  const title = opts.name ? opts.name : t("info.table", { id: table.tableId });
  const dealer = d ? ` · ${t("info.dealer", { name: seatName(table, d.dealer) })}` : "";
  // What matters during play comes first, so that a laptop screen shows it without
  // scrolling: the contract, the points and target, the scores, the way out; then
  // the last trick, the log, and the deal's details.
  const parts = [html`<div class="info-head"><div class="info-title">${title}</div><div class="muted">${dealOf}${dealer}</div></div>`];
  if (d) {
    const chelem = d.chelem ? html` · <span class="tag">${t("info.chelemAnnounced")}</span>` : "";
    const contract =
      d.taker !== null
        ? html`<strong>${seatLabel(table, d.taker)}</strong> · ${contractLabel(d.contract, true)}${chelem}`
        : html`<span class="muted">${d.phase === "bidding" ? t("info.bidding") : "–"}</span>`;
    parts.push(section(t("info.contract"), contract, "contract"));
    if (d.taker !== null && (d.phase === "play" || d.tricks.length)) parts.push(section(t("info.points"), pointsHTML(d), "points"));
  }
  if (table.summary.status !== "waiting" || d) parts.push(section(t("info.scores"), scoresHTML(table), "scores"));
  const sheet = table.history.length ? html`<button type="button" class="btn small" data-action="show-sheet">${t("sheet.show")}</button>` : "";
  parts.push(html`<div class="info-actions">${sheet}${leaveHTML(table, ctx)}</div>`);
  if (d && ctx.inviteLink && table.seat !== null) {
    // A game under way (a private quick game too) can still be watched: its link.
    const invite = html`<div class="invite"><input id="invite-link" readonly value="${ctx.inviteLink}" aria-label="${t("info.inviteWatch")}"><button type="button" class="btn small" data-action="copy-invite">${ctx.copied ? t("wait.copied") : t("wait.copy")}</button></div>`;
    parts.push(section(t("info.inviteWatch"), invite, "invite"));
  }
  if (d) parts.push(...dealDetails(table, d, ctx));
  if (ctx.log.length) {
    parts.push(section(t("info.log"), html`<ol class="log">${ctx.log.slice(-8).map((l) => html`<li>${l}</li>`)}</ol>`, "log"));
  }
  return html`${parts}`;
}

/** The deal's public information: bids, chien, discard, poignees, tricks. */
function dealDetails(table, d, ctx) {
  const parts = [];
  const last = d.tricks.length ? d.tricks[d.tricks.length - 1] : null;
  if (last && (!d.trick || d.trick !== last)) {
    parts.push(section(t("info.lastTrick"), html`${trickLinesHTML(table, last, ctx)}<div class="muted small">${t("trick.wins", { name: seatLabel(table, last.winner) })}</div>`, "last-trick"));
  }
  if (d.bids.length) {
    const bids = d.bids.map((b) => html`<li><span>${seatLabel(table, b.seat)}</span><span class="${b.contract === "pass" ? "muted" : ""}">${contractLabel(b.contract)}</span></li>`);
    parts.push(section(t("info.bids"), html`<ul class="bids">${bids}</ul>`, "bids"));
  }
  if (d.chien) parts.push(section(t("info.chien"), miniCards(d.chien, ctx), "chien"));
  if (d.discarded || d.discardTrumps.length) {
    parts.push(section(t("info.discardTrumps"), miniCards(d.discardTrumps, ctx, t("info.none")), "discard-trumps"));
  }
  if (d.discard && table.seat === d.taker) parts.push(section(t("info.myDiscard"), miniCards(d.discard, ctx), "my-discard"));
  if (d.poignees.length) {
    const lines = d.poignees.map((p) => html`<div class="poignee-line"><span>${seatLabel(table, p.seat)} · ${t(`poignee.${p.level}`)}</span>${miniCards(p.cards, ctx)}</div>`);
    parts.push(section(t("info.poignees"), html`${lines}`, "poignees"));
  }
  if (d.tricks.length > 1) parts.push(allTricksHTML(table, d, ctx));
  return parts;
}

/** The card points so far, the discard the taker knows of, and the live target (R15):
 * every figure is the server's (trick events, discard_kept); only added up here. */
function pointsHTML(d) {
  const discard = d.discardPoints ?? 0;
  const taker = d.points[0] + discard;
  const pct = Math.max(0, Math.min(100, Math.round((taker / 91) * 100)));
  let note = "";
  if (d.discardPoints !== null) note = t("info.withDiscard", { n: num(discard) });
  else if (d.contract === "prise" || d.contract === "garde") note = t("info.discardLater");
  else if (d.contract === "garde_sans") note = t("info.chienTaker");
  else if (d.contract === "garde_contre") note = t("info.chienDefence");
  const bouts = t("info.bouts", { n: d.takerBouts });
  const target = t("info.target", { bouts, target: d.target, points: num(taker) });
  return html`<div class="target" data-field="target">${target}</div><div class="points"><div><span class="side taker-side">${t("side.taker")}</span> <strong data-field="points-taker">${num(taker)}</strong></div><div><span class="side defence-side">${t("side.defence")}</span> <strong data-field="points-defence">${num(d.points[1])}</strong></div></div><div class="bar" aria-hidden="true"><span style="width:${pct}%"></span><i style="left:${Math.round((d.target / 91) * 100)}%"></i></div>${note ? html`<div class="muted small" data-field="points-note">${note}</div>` : ""}<div class="muted small">${t("info.tricksCount", { n: d.tricks.length })}</div>`;
}

/** A finished trick, card by card with who played it (from its leader). */
function trickLinesHTML(table, trick, ctx) {
  const rows = trick.cards.map((code, i) => {
    const seat = (trick.leader + i) % 4;
    const lead = i === 0 ? html` <span class="muted">(${t("trick.led")})</span>` : "";
    return html`<li class="${seat === trick.winner ? "won" : ""}">${cardHTML(code, ctx, { cls: "mini" })}<span>${seatName(table, seat)}${lead}</span></li>`;
  });
  return html`<ol class="trick-lines">${rows}</ol>`;
}

function allTricksHTML(table, d, ctx) {
  const items = d.tricks.map(
    (trick, i) => html`<li><span class="muted small">${i + 1} · ${t("trick.wins", { name: seatName(table, trick.winner) })}</span>${trickLinesHTML(table, trick, ctx)}</li>`,
  );
  return html`<section class="info-sec" data-section="all-tricks"><details><summary>${t("info.allTricks", { n: d.tricks.length })}</summary><ol class="all-tricks">${items}</ol></details></section>`;
}

/** Leaving a game under way hands the seat to the AI: it asks first, apart from the
 * score sheet button. Watching, waiting or after the last deal it leaves at once. */
function leaveHTML(table, ctx) {
  if (table.seat === null) return html`<button type="button" class="btn small leave" data-action="leave">${t("table.stopWatching")}</button>`;
  const underWay = table.summary.status === "playing" && !table.over;
  if (!underWay) return html`<button type="button" class="btn small leave" data-action="leave">${t("table.leave")}</button>`;
  if (!ctx.confirmLeave) return html`<button type="button" class="btn small leave" data-action="leave-ask">${t("table.leave")}</button>`;
  return html`<div class="leave-ask" role="group" aria-labelledby="leave-ask"><p id="leave-ask">${t("table.leaveAsk")}</p><div class="buttons"><button type="button" class="btn small" data-action="leave-cancel" data-key="leave-cancel">${t("table.stay")}</button><button type="button" class="btn small danger" data-action="leave" data-key="leave-yes">${t("table.leaveYes")}</button></div></div>`;
}

function section(title, body, key) {
  return html`<section class="info-sec" data-section="${key}"><h3>${title}</h3>${body}</section>`;
}

function scoresHTML(table) {
  const totals = table.summary.totals || [0, 0, 0, 0];
  const rows = [0, 1, 2, 3].map((s) => html`<li class="${s === table.seat ? "me" : ""}"><span>${seatLabel(table, s)}</span><strong data-field="total-${s}">${num(totals[s])}</strong></li>`);
  return html`<ul class="totals">${rows}</ul>`;
}

// ------------------------------------------------------------------ whole

/** The parts of the table view, each rendered into its own container. */
export function tableParts(table, ctx) {
  const d = table.deal;
  const seats = html`${[0, 1, 2, 3].map((s) => seatHTML(table, s, ctx))}`;
  return {
    seats,
    centre: centreHTML(table, ctx),
    prompt: promptHTML(table, ctx),
    hand: handHTML(table, ctx),
    info: infoHTML(table, ctx),
    phase: d ? d.phase : table.summary.status,
  };
}
