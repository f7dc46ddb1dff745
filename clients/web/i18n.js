// @ts-check
// The interface in English, Dutch and French: the strings are data, files per language
// (strings-en.js, strings-nl.js, strings-fr.js, and the players page's in
// strings-players-LANG.js); the choice is remembered.

import { fmt, saved } from "./dom.js";
import enTable from "./strings-en.js";
import frTable from "./strings-fr.js";
import nlTable from "./strings-nl.js";
import enPlayers from "./strings-players-en.js";
import frPlayers from "./strings-players-fr.js";
import nlPlayers from "./strings-players-nl.js";
import enSocial from "./strings-social-en.js";
import frSocial from "./strings-social-fr.js";
import nlSocial from "./strings-social-nl.js";

const en = { ...enTable, ...enPlayers, ...enSocial };
const nl = { ...nlTable, ...nlPlayers, ...nlSocial };
const fr = { ...frTable, ...frPlayers, ...frSocial };

export const LANGS = [
  { code: "en", name: "English" },
  { code: "nl", name: "Nederlands" },
  { code: "fr", name: "Français" },
];

export const STRINGS = { en, nl, fr };

let current = pick(saved.get("lang", null));

function pick(code) {
  if (code && STRINGS[code]) return code;
  const nav = (globalThis.navigator?.language || "en").slice(0, 2).toLowerCase();
  return STRINGS[nav] ? nav : "en";
}

export function getLang() {
  return current;
}

export function setLang(code) {
  current = pick(code);
  saved.set("lang", current);
  return current;
}

/** The string `key` in the current language, with {name} placeholders filled. */
export function t(key, params = {}) {
  const strings = STRINGS[current];
  // The plural follows `count` when the number is shown formatted (`n: num(x)`), else `n`.
  const n = typeof params.count === "number" ? params.count : params.n;
  const one = typeof n === "number" && (current === "fr" ? Math.abs(n) < 2 : n === 1);
  const text = (one && strings[`${key}.one`]) || strings[key] || en[key] || key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** A table's name as shown: a quick game's own name (given in its creator's language) in
 * this one; a table without a name by its players, else its id. */
export function tableTitle(name, id, players = "") {
  if (name && Object.values(STRINGS).some((s) => s["lobby.quickName"] === name)) return t("lobby.quickName");
  if (name) return name;
  return players ? t("info.tableOf", { names: players }) : t("info.table", { id });
}

const MULTIPLIERS = { prise: 1, garde: 2, garde_sans: 4, garde_contre: 6 };

/** "Garde" or, with `withMultiplier`, "Garde ×2". */
export function contractLabel(code, withMultiplier = false) {
  if (!code) return "–";
  const label = t(`contract.${code}`);
  return withMultiplier && MULTIPLIERS[code] ? `${label} ×${MULTIPLIERS[code]}` : label;
}

/** A score in the current language: 52.5 in English, 52,5 in Dutch and French. */
export function num(n, signed = false) {
  const text = fmt(n, signed);
  return current === "en" ? text : text.replace(".", ",");
}

/** A server (or connection) error as a sentence in the current language. */
export function errorText(err) {
  if (!err) return "";
  if (err.reason && STRINGS.en[`reason.${err.reason}`]) return t(`reason.${err.reason}`);
  if (err.code && STRINGS.en[`error.${err.code}`]) return t(`error.${err.code}`);
  return t("error.other", { message: err.message || err.code || "?" });
}
