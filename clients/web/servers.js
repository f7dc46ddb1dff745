// @ts-check
// Which server this page talks to. Its own origin, always; another server only when
// the operator lists it (<meta name="cardavia-servers" content="wss://a/ wss://b/">)
// or the player agrees to the one a `?server=` link names. A seat token is sent only
// to the server that issued it (session.js keeps that server with the token).

import { tabSaved } from "./dom.js";

export function ownServer(loc = window.location) {
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${loc.host}/`;
}

/** A WebSocket address in one spelling (ws: or wss: only), or null. */
export function normalise(text) {
  try {
    const url = new URL(String(text));
    if (url.protocol !== "ws:" && url.protocol !== "wss:") return null;
    if (url.username || url.password) return null;
    return url.href;
  } catch {
    return null;
  }
}

/** The servers the operator allows besides the page's own. */
export function configuredServers(doc = document) {
  const meta = doc.querySelector('meta[name="cardavia-servers"]');
  const listed = (meta?.getAttribute("content") || "").split(/\s+/).filter(Boolean);
  return listed.map(normalise).filter(Boolean);
}

/**
 * The server to connect to now, and the one a link asks for that needs the
 * player's consent first (null when there is none).
 */
export function chooseServer(params, doc = document, loc = window.location) {
  const own = ownServer(loc);
  const asked = params.get("server");
  if (!asked) return { url: own, ask: null };
  const wanted = normalise(asked);
  if (!wanted || wanted === own) return { url: own, ask: null };
  if (configuredServers(doc).includes(wanted) || tabSaved.get("server-consent") === wanted) {
    return { url: wanted, ask: null };
  }
  return { url: own, ask: wanted };
}

/** The player agreed to play on `url` (for this tab; a reload keeps it). */
export function consentTo(url) {
  tabSaved.set("server-consent", url);
}

/** True when this session's token was issued by `url` (older sessions: the page's own). */
export function issuedBy(session, url) {
  return (session.server || ownServer()) === url;
}
