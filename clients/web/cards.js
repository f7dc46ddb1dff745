// @ts-check
// Cards: the codes of docs/RECORD.md (T1..T21, EX, rank+suit), their order in a hand,
// their names in each language, and their faces drawn as SVG (Marseille or French suits;
// the Marseille court cards are portraits, drawn in courts.js).
// Display only: no rule of the game lives here.

import { courtPortrait, courtSymbols } from "./courts.js";
import { trusted } from "./dom.js";

const RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"];
const SUIT_ORDER = ["S", "H", "C", "D"]; // alternate cool and warm colours in the hand
export const SUITS = ["S", "H", "D", "C"];

/** The 78 codes of docs/RECORD.md: anything else a server sends is drawn as a blank card. */
export const CODES = new Set([
  "EX",
  ...Array.from({ length: 21 }, (_, i) => `T${i + 1}`),
  ...["S", "H", "D", "C"].flatMap((suit) => RANKS.map((rank) => `${rank}${suit}`)),
]);

export function isCard(code) {
  return typeof code === "string" && CODES.has(code);
}

/** Parse a card code: {kind: "trump", n} | {kind: "excuse"} | {kind: "suit", suit, rank, value}. */
export function parse(code) {
  if (code === "EX") return { kind: "excuse", code };
  if (code[0] === "T") return { kind: "trump", n: Number(code.slice(1)), code };
  const suit = code.slice(-1);
  const rank = code.slice(0, -1);
  return { kind: "suit", suit, rank, value: RANKS.indexOf(rank) + 1, code };
}

function sortKey(code) {
  if (!isCard(code)) return 600;
  const c = parse(code);
  if (c.kind === "trump") return 400 + c.n;
  if (c.kind === "excuse") return 500;
  return SUIT_ORDER.indexOf(c.suit) * 100 + c.value;
}

/** A hand sorted by suit and rank: swords, cups, batons, coins, then trumps and the Excuse. */
export function sortHand(cards) {
  return [...cards].sort((a, b) => sortKey(a) - sortKey(b));
}

export function isTrump(code) {
  return isCard(code) && code[0] === "T";
}

export function isBout(code) {
  return code === "T1" || code === "T21" || code === "EX";
}

export function isKing(code) {
  return isCard(code) && code.length === 2 && code[0] === "K";
}

// ------------------------------------------------------------------ names

const NAMES = {
  en: {
    ranks: { 1: "Ace", J: "Jack", N: "Knight", Q: "Queen", K: "King" },
    short: { 1: "1", J: "J", N: "C", Q: "Q", K: "K" },
    suits: {
      marseille: { S: "Swords", H: "Cups", D: "Coins", C: "Batons" },
      french: { S: "Spades", H: "Hearts", D: "Diamonds", C: "Clubs" },
    },
    card: (rank, suit) => `${rank} of ${suit}`,
    trump: (n) => `Trump ${n}`,
    excuse: "the Excuse",
  },
  fr: {
    ranks: { 1: "As", J: "Valet", N: "Cavalier", Q: "Dame", K: "Roi" },
    short: { 1: "1", J: "V", N: "C", Q: "D", K: "R" },
    suits: {
      marseille: { S: "Épée", H: "Coupe", D: "Denier", C: "Bâton" },
      french: { S: "Pique", H: "Cœur", D: "Carreau", C: "Trèfle" },
    },
    // "Roi de Coupe", but "As d’Épée" (elision before a vowel)
    card: (rank, suit) => (/^[AEÉIOUaeéiou]/.test(suit) ? `${rank} d’${suit}` : `${rank} de ${suit}`),
    trump: (n) => `Atout ${n}`,
    excuse: "l’Excuse",
  },
  nl: {
    ranks: { 1: "Aas", J: "Boer", N: "Paard", Q: "Dame", K: "Koning" },
    short: { 1: "1", J: "B", N: "P", Q: "D", K: "K" },
    suits: {
      marseille: { S: "Zwaarden", H: "Bekers", D: "Munten", C: "Staven" },
      french: { S: "Schoppen", H: "Harten", D: "Ruiten", C: "Klaveren" },
    },
    card: (rank, suit) => `${suit} ${rank.toLowerCase()}`,
    trump: (n) => `Troef ${n}`,
    excuse: "de Excuse",
  },
};

/** The spoken name of a card, e.g. "Queen of Cups", "Trump 21", "the Excuse". */
export function cardName(code, lang = "en", face = "marseille") {
  if (!isCard(code)) return "?";
  const names = NAMES[lang] || NAMES.en;
  const c = parse(code);
  if (c.kind === "excuse") return names.excuse;
  if (c.kind === "trump") return names.trump(c.n);
  const rank = names.ranks[c.rank] || c.rank;
  return names.card(rank, names.suits[face][c.suit]);
}

export function suitName(suit, lang = "en", face = "marseille") {
  return (NAMES[lang] || NAMES.en).suits[face][suit];
}

function shortRank(rank, lang) {
  return (NAMES[lang] || NAMES.en).short[rank] || rank;
}

// ------------------------------------------------------------------ drawing

export const SUIT_COLOURS = {
  S: "#1565a8", // swords / spades: blue
  H: "#c23b14", // cups / hearts: vermilion
  D: "#b07a00", // coins / diamonds: ochre
  C: "#0b7a57", // batons / clubs: bluish green
};

const ROMAN = [
  "",
  "I",
  "II",
  "III",
  "IV",
  "V",
  "VI",
  "VII",
  "VIII",
  "IX",
  "X",
  "XI",
  "XII",
  "XIII",
  "XIV",
  "XV",
  "XVI",
  "XVII",
  "XVIII",
  "XIX",
  "XX",
  "XXI",
];

// Suit symbols in a 100 x 100 box; the main shapes take the colour of the <use>.
const SYMBOLS = {
  "french-H":
    '<path fill="currentColor" d="M50 90C22 68 6 50 6 31 6 16 17 6 30 6c9 0 16 5 20 13 4-8 11-13 20-13 13 0 24 10 24 25 0 19-16 37-44 59z"/>',
  "french-D": '<path fill="currentColor" d="M50 3 87 50 50 97 13 50z"/>',
  "french-S":
    '<path fill="currentColor" d="M50 4C38 22 8 38 8 60c0 14 10 22 22 22 7 0 13-3 16-8-1 10-5 17-13 22h34c-8-5-12-12-13-22 3 5 9 8 16 8 12 0 22-8 22-22C92 38 62 22 50 4z"/>',
  "french-C":
    '<g fill="currentColor"><circle cx="50" cy="27" r="19"/><circle cx="28" cy="58" r="19"/><circle cx="72" cy="58" r="19"/><path d="M45 50h10c0 20 4 33 13 46H32c9-13 13-26 13-46z"/></g>',
  "marseille-H":
    '<g><path fill="currentColor" d="M14 12h72c0 28-14 46-36 48C28 58 14 40 14 12z"/>' +
    '<ellipse cx="50" cy="12" rx="36" ry="6" fill="#fff6e0" stroke="currentColor" stroke-width="3"/>' +
    '<path fill="#fff6e0" opacity=".45" d="M22 20c2 14 8 24 17 29-12-2-18-14-17-29z"/>' +
    '<rect x="45" y="58" width="10" height="20" fill="currentColor"/>' +
    '<ellipse cx="50" cy="67" rx="10" ry="5" fill="currentColor"/>' +
    '<path fill="currentColor" d="M24 95c2-12 14-18 26-18s24 6 26 18z"/></g>',
  "marseille-S":
    '<g><path fill="currentColor" d="M50 2 57 14v52H43V14z"/>' +
    '<path fill="#fff6e0" opacity=".5" d="M50 8 53 15v48h-3z"/>' +
    '<path fill="currentColor" d="M22 64c6 4 50 4 56 0 2 3 2 7 0 10-6-4-50-4-56 0-2-3-2-7 0-10z"/>' +
    '<rect x="45" y="74" width="10" height="14" rx="2" fill="currentColor"/>' +
    '<circle cx="50" cy="92" r="6" fill="currentColor"/></g>',
  "marseille-C":
    '<g transform="rotate(35 50 50)" fill="currentColor"><rect x="41" y="10" width="18" height="86" rx="8"/>' +
    '<ellipse cx="50" cy="13" rx="13" ry="11"/>' +
    '<path d="M58 30l11-5 2 7-12 4zM42 52l-11-5-2 7 12 4zM58 70l10-4 2 7-11 4z"/>' +
    '<rect x="47" y="24" width="3" height="64" rx="1.5" fill="#fff6e0" opacity=".45"/></g>',
  "marseille-D":
    '<g><circle cx="50" cy="50" r="45" fill="currentColor"/>' +
    '<circle cx="50" cy="50" r="34" fill="none" stroke="#fff6e0" stroke-width="3"/>' +
    '<g fill="#fff6e0"><path d="M50 22c6 10 6 18 0 28-6-10-6-18 0-28z"/>' +
    '<path d="M50 78c6-10 6-18 0-28-6 10-6 18 0 28z"/>' +
    '<path d="M22 50c10-6 18-6 28 0-10 6-18 6-28 0z"/>' +
    '<path d="M78 50c-10-6-18-6-28 0 10 6 18 6 28 0z"/>' +
    '<circle cx="50" cy="50" r="5"/></g></g>',
  star:
    '<path fill="currentColor" d="M50 4l12 32h34L68 56l11 36-29-21-29 21 11-36L4 36h34z"/>',
  crown:
    '<path fill="currentColor" stroke="#3a2a06" stroke-width="3" stroke-linejoin="round" d="M12 78 6 26l24 22 20-38 20 38 24-22-6 52z"/>' +
    '<rect x="12" y="80" width="76" height="12" rx="3" fill="currentColor" stroke="#3a2a06" stroke-width="3"/>' +
    '<g fill="#fff6e0"><circle cx="30" cy="86" r="3"/><circle cx="50" cy="86" r="3"/><circle cx="70" cy="86" r="3"/></g>',
  tiara:
    '<path fill="currentColor" stroke="#3a2a06" stroke-width="3" stroke-linejoin="round" d="M10 84c6-30 20-48 40-60 20 12 34 30 40 60z"/>' +
    '<circle cx="50" cy="16" r="8" fill="currentColor" stroke="#3a2a06" stroke-width="3"/>' +
    '<g fill="#fff6e0"><circle cx="50" cy="52" r="6"/><circle cx="32" cy="66" r="4"/><circle cx="68" cy="66" r="4"/></g>',
  horse:
    '<path fill="currentColor" stroke="#3a2a06" stroke-width="3" stroke-linejoin="round" d="M24 94c4-20 10-30 18-36-8 2-16 6-22 2-4-3-2-9 2-12l22-22c2-8 8-14 14-16l2 8c14 6 22 22 20 44l-2 32z"/>' +
    '<circle cx="46" cy="32" r="3.5" fill="#fff6e0"/>',
  cap:
    '<path fill="currentColor" stroke="#3a2a06" stroke-width="3" stroke-linejoin="round" d="M10 74c0-26 18-42 40-42s40 16 40 42z"/>' +
    '<rect x="6" y="72" width="88" height="12" rx="6" fill="currentColor" stroke="#3a2a06" stroke-width="3"/>' +
    '<path fill="none" stroke="currentColor" stroke-width="5" stroke-linecap="round" d="M62 34c10-20 24-26 32-22"/>',
};

/** Insert the SVG sprite (suit symbols, court figures, card back pattern) once into the document. */
export function installSprite(doc = document) {
  if (doc.getElementById("card-sprite")) return;
  const symbols =
    Object.entries(SYMBOLS)
      .map(([id, body]) => `<symbol id="sym-${id}" viewBox="0 0 100 100">${body}</symbol>`)
      .join("") + courtSymbols();
  const back =
    '<pattern id="back-pattern" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
    '<rect width="12" height="12" fill="#7a1f2b"/><path d="M0 6h12M6 0v12" stroke="#a8404c" stroke-width="1.4"/>' +
    '<circle cx="6" cy="6" r="1.6" fill="#e8c37a"/></pattern>' +
    '<linearGradient id="trump-band" x1="0" x2="0" y1="0" y2="1"><stop offset="0" stop-color="#4a3a86"/>' +
    '<stop offset="1" stop-color="#2a1f52"/></linearGradient>';
  const holder = doc.createElement("div");
  holder.innerHTML = `<svg id="card-sprite" aria-hidden="true" style="position:absolute;width:0;height:0;overflow:hidden"><defs>${back}</defs>${symbols}</svg>`;
  doc.body.prepend(holder.firstChild);
}

function use(id, x, y, size, colour, extra = "") {
  return `<use href="#sym-${id}" x="${x - size / 2}" y="${y - size / 2}" width="${size}" height="${size}" style="color:${colour}" ${extra}/>`;
}

const PIPS = {
  1: [[50, 80]],
  2: [
    [50, 42],
    [50, 118],
  ],
  3: [
    [50, 38],
    [50, 80],
    [50, 122],
  ],
  4: [
    [33, 42],
    [67, 42],
    [33, 118],
    [67, 118],
  ],
  5: [
    [33, 42],
    [67, 42],
    [50, 80],
    [33, 118],
    [67, 118],
  ],
  6: [
    [33, 40],
    [67, 40],
    [33, 80],
    [67, 80],
    [33, 120],
    [67, 120],
  ],
  7: [
    [33, 40],
    [67, 40],
    [50, 60],
    [33, 80],
    [67, 80],
    [33, 120],
    [67, 120],
  ],
  8: [
    [33, 40],
    [67, 40],
    [50, 60],
    [33, 80],
    [67, 80],
    [50, 100],
    [33, 120],
    [67, 120],
  ],
  9: [
    [33, 38],
    [67, 38],
    [33, 66],
    [67, 66],
    [50, 80],
    [33, 94],
    [67, 94],
    [33, 122],
    [67, 122],
  ],
  10: [
    [33, 38],
    [67, 38],
    [50, 52],
    [33, 66],
    [67, 66],
    [33, 94],
    [67, 94],
    [50, 108],
    [33, 122],
    [67, 122],
  ],
};

const FIGURES = { K: "crown", Q: "tiara", N: "horse", J: "cap" };

function frame(fill = "#fffaf0") {
  return (
    `<rect x="1.5" y="1.5" width="97" height="157" rx="8" fill="${fill}" stroke="#5b4a2e" stroke-width="1.6"/>` +
    '<rect x="6" y="6" width="88" height="148" rx="5" fill="none" stroke="#d9c9a3" stroke-width="1"/>'
  );
}

function corners(label, colour, pip) {
  const text = (x, y, rot) =>
    `<g transform="rotate(${rot} 50 80)"><text x="${x}" y="${y}" text-anchor="middle" font-size="19" font-weight="700" ` +
    `font-family="Georgia, 'DejaVu Serif', serif" fill="${colour}">${label}</text>` +
    (pip ? use(pip, x, y + 12, 14, colour) : "") +
    "</g>";
  return text(14, 23, 0) + text(14, 23, 180);
}

function suitFace(c, face, lang) {
  const colour = SUIT_COLOURS[c.suit];
  const sym = `${face}-${c.suit}`;
  const label = shortRank(c.rank, lang);
  let body = "";
  if (c.value <= 10) {
    const size = c.value === 1 ? 52 : c.value <= 3 ? 30 : 24;
    body = PIPS[c.value].map(([x, y]) => use(sym, x, y, size, colour)).join("");
  } else if (face === "marseille") {
    body = courtPortrait(c.rank, c.suit, colour, sym);
  } else {
    body =
      `<rect x="22" y="28" width="56" height="104" rx="4" fill="${colour}" fill-opacity=".10" stroke="${colour}" stroke-width="1.5"/>` +
      use(FIGURES[c.rank], 50, 60, 40, "#d9a92a") +
      `<text x="50" y="104" text-anchor="middle" font-size="30" font-weight="700" font-family="Georgia, 'DejaVu Serif', serif" fill="${colour}">${label}</text>` +
      use(sym, 50, 120, 18, colour);
  }
  return frame() + corners(label, colour, sym) + body;
}

function trumpFace(c) {
  const ink = "#33265f";
  const bout = c.n === 1 || c.n === 21;
  const roman = ROMAN[c.n];
  const size = roman.length > 4 ? 19 : roman.length > 2 ? 24 : 30;
  return (
    frame("#fbf8ff") +
    '<rect x="13" y="34" width="74" height="92" rx="7" fill="url(#trump-band)" stroke="#c9a44c" stroke-width="1.6"/>' +
    '<rect x="17" y="38" width="66" height="84" rx="5" fill="none" stroke="#c9a44c" stroke-width=".7" stroke-dasharray="2 2"/>' +
    corners(String(c.n), ink, null) +
    `<text x="50" y="${92 + size / 3}" text-anchor="middle" font-size="${size}" font-weight="700" font-family="Georgia, 'DejaVu Serif', serif" fill="#f4dc96">${roman}</text>` +
    (bout ? use("star", 50, 58, 18, "#f4dc96") : use("star", 50, 58, 10, "#b9a6e8"))
  );
}

function excuseFace() {
  const ink = "#33265f";
  return (
    frame("#fbf8ff") +
    '<circle cx="50" cy="74" r="31" fill="url(#trump-band)" stroke="#c9a44c" stroke-width="1.6"/>' +
    use("star", 50, 74, 42, "#f4dc96") +
    `<text x="50" y="134" text-anchor="middle" font-size="13" font-weight="700" letter-spacing="1" font-family="Georgia, 'DejaVu Serif', serif" fill="${ink}">EXCUSE</text>` +
    use("star", 14, 18, 14, ink) +
    `<g transform="rotate(180 50 80)">${use("star", 14, 18, 14, ink)}</g>`
  );
}

/** The SVG of a card face, as Html: drawn from constants, for one of the 78 codes only. */
export function cardSVG(code, face = "marseille", lang = "en") {
  if (!isCard(code)) return backSVG();
  const c = parse(code);
  let inner;
  if (c.kind === "trump") inner = trumpFace(c);
  else if (c.kind === "excuse") inner = excuseFace();
  else inner = suitFace(c, face, lang);
  return trusted(`<svg class="face" viewBox="0 0 100 160" aria-hidden="true" focusable="false">${inner}</svg>`);
}

/** The SVG of a card back, as Html. */
export function backSVG() {
  return trusted(
    '<svg class="face" viewBox="0 0 100 160" aria-hidden="true" focusable="false">' +
    '<rect x="1.5" y="1.5" width="97" height="157" rx="8" fill="#fffaf0" stroke="#5b4a2e" stroke-width="1.6"/>' +
    '<rect x="7" y="7" width="86" height="146" rx="5" fill="url(#back-pattern)"/>' +
    '<rect x="7" y="7" width="86" height="146" rx="5" fill="none" stroke="#e8c37a" stroke-width="1.5"/>' +
    '<circle cx="50" cy="80" r="17" fill="#7a1f2b" stroke="#e8c37a" stroke-width="2"/>' +
    '<text x="50" y="88" text-anchor="middle" font-size="22" font-weight="700" font-family="Georgia, serif" fill="#e8c37a">C</text>' +
    "</svg>"
  );
}
