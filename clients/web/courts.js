// @ts-check
// Court portraits of the Marseille faces: the King on his throne, the Queen veiled,
// the Knight on his horse, the Jack standing. One SVG symbol per figure, shared by the
// four suits: the robe takes the suit's colour (currentColor), sleeves, veil and hose its
// light tint (--tint); the card puts the suit's symbol in the figure's hand.
// Display only: no rule of the game lives here.

const INK = "#2b2118";
const SKIN = "#f6d9b8";
const GOLD = "#e8b93a";
const HAIR = "#7a4b22";
const LIGHT = "#fff6e0";

const TINT = 'style="fill:var(--tint,#e6dcc8)"';
const ROBE = 'fill="currentColor"';
const LINE = `stroke="${INK}" stroke-width="1.1" stroke-linejoin="round" stroke-linecap="round"`;

/** Light tints of SUIT_COLOURS for sleeves, veils and hose. */
const SUIT_TINTS = { S: "#a9c9ea", H: "#f2b6a0", D: "#efd592", C: "#a3d9c3" };

const eyes = (x, y) =>
  `<g fill="${INK}" stroke="none"><circle cx="${x - 2.6}" cy="${y}" r=".8"/><circle cx="${x + 2.6}" cy="${y}" r=".8"/></g>`;

// Each figure is drawn in a 56 x 104 box (the portrait frame of the card).
const KING =
  // throne back with its finials, and the seat
  `<path fill="${GOLD}" d="M7 76V23q0-3 3-3h36q3 0 3 3v53z"/>` +
  `<path fill="none" stroke-width=".8" d="M11 70V25h34v45"/>` +
  `<circle fill="${GOLD}" cx="9" cy="19" r="3.2"/><circle fill="${GOLD}" cx="47" cy="19" r="3.2"/>` +
  // legs under the robe, shoes
  `<path ${TINT} d="M12 70h32l2 24H10z"/>` +
  `<path fill="${INK}" d="M11 93h14v4H10zM31 93h14l1 4H31z"/>` +
  `<rect fill="${GOLD}" x="4" y="66" width="48" height="6" rx="1.5"/>` +
  // robe, belt, ermine collar
  `<path ${ROBE} d="M15 35q13-7 26 0l5 32H10z"/>` +
  `<path fill="${GOLD}" d="M12.6 51h30.8l.5 3.4H12.1z"/>` +
  // the arm raised with the suit symbol, the arm on the lap
  `<path ${TINT} d="M16 35q-6 2-7 10l-1 6h6l1-6q1-4 4-5z"/>` +
  `<circle fill="${SKIN}" cx="11" cy="52" r="3"/>` +
  `<path ${TINT} d="M40 35q6 3 6 12l-6 13-5-3 4-10q0-4-3-7z"/>` +
  `<circle fill="${SKIN}" cx="36.5" cy="59" r="3"/>` +
  `<path fill="${LIGHT}" d="M16 34.5q12 10 24 0l-1.5-3.5q-10.5 7-21 0z"/>` +
  `<g fill="${INK}" stroke="none"><circle cx="22" cy="36.6" r=".7"/><circle cx="28" cy="38.4" r=".7"/><circle cx="34" cy="36.6" r=".7"/></g>` +
  // head, beard, crown
  `<circle fill="${SKIN}" cx="28" cy="24" r="7"/>` +
  eyes(28, 22.5) +
  `<path fill="${HAIR}" d="M21.2 24.5q.8 9.5 6.8 9.5t6.8-9.5q-2 4.5-6.8 4.5t-6.8-4.5z"/>` +
  `<path fill="${GOLD}" d="M20.5 19 19.5 8l4.5 4.5L28 5.5l4 7 4.5-4.5-1 11z"/>` +
  `<path fill="none" stroke-width=".8" d="M20.6 16.4h14.8"/>`;

const QUEEN =
  // the veil behind, the gown, its apron and hem
  `<path ${TINT} d="M13 52Q11 11 28 10q17 1 15 42z"/>` +
  `<path ${ROBE} d="M20 37q8-4 16 0l2 16 8 43H10l8-43z"/>` +
  `<path ${TINT} d="M24.5 54h7l5 42h-17z"/>` +
  `<path fill="${GOLD}" d="M10.6 92.5h34.8l.6 3.5H10z"/>` +
  `<path fill="${GOLD}" d="M18.6 51.5h18.8l.4 3H18.2z"/>` +
  `<path fill="${INK}" d="M17 96h8l-1 3h-7zM31 96h8v3h-7z"/>` +
  // the arm holding the suit symbol, the hand on the waist
  `<path ${TINT} d="M35 38q6 2 7 8l1 6-5 1-1-5q-1-4-4-5z"/>` +
  `<circle fill="${SKIN}" cx="40.6" cy="53" r="3"/>` +
  `<path ${TINT} d="M21 38q-5 3-4 9l4 5 3-3-2-4q0-4 2-5z"/>` +
  `<circle fill="${SKIN}" cx="23" cy="50.5" r="2.6"/>` +
  `<path fill="${LIGHT}" d="M22 37q6 5 12 0l-1.5-2.5q-4.5 3-9 0z"/>` +
  // head, crown
  `<circle fill="${SKIN}" cx="28" cy="25" r="6.5"/>` +
  eyes(28, 24.5) +
  `<path fill="none" stroke-width=".8" d="M26.4 28.3q1.6 1 3.2 0"/>` +
  `<path fill="${GOLD}" d="M21.5 19.5l-.8-7 3.6 3 3.7-5.5 3.7 5.5 3.6-3-.8 7z"/>`;

const KNIGHT =
  // the horse: tail, legs, body, neck and head
  `<path fill="${HAIR}" d="M11 57q-8 3-7 22 2-2 4-2-1-11 5-16z"/>` +
  `<g fill="${LIGHT}"><path d="M11 66h5l-1 28h-4zM18 68h5l-.5 27h-4zM36 68h5l1 27h-4zM42 66h5l1 28h-4z"/>` +
  `<path d="M10 60q0-8 10-8h16q3 0 5-3l2-12q1-5 5-5l6 12q1 4-3 5l-4-1-1 4q2 6 0 10-3 10-12 10H20q-10 0-10-12z"/></g>` +
  `<path fill="${INK}" d="M10.6 93h4.6v3.5h-5zM17.6 94h4.4v3.5h-4.6zM37.8 94h4.4l.3 3.5h-4.6zM42.8 93h4.4l.2 3.5h-4.6z"/>` +
  `<path fill="${INK}" d="M44.6 33l1-5 2.6 4z"/>` +
  `<circle fill="${INK}" stroke="none" cx="48.4" cy="37.2" r=".8"/>` +
  `<path fill="${HAIR}" d="M44 33q-5 5-6.5 16l3 .5q1-9 5-13z"/>` +
  // the caparison in the suit's colour, the rider's leg
  `<path ${ROBE} d="M18 52h19q3 8 1 19-10 2-19 0-3-11-1-19z"/>` +
  `<path fill="${GOLD}" d="M17.3 68q10.4 2.6 20.9 0l-.2 3.2q-10.4 2.6-20.9 0z"/>` +
  `<path fill="${HAIR}" d="M18 51q10-3 20 0l-.6 4q-9.4-2-19 0z"/>` +
  `<path ${TINT} d="M25 48h8l1 14 1 6h-6l-1-5z"/>` +
  `<path fill="${INK}" d="M29 67h8v3h-9z"/>` +
  // the rider: tunic, arms, reins, head, hat
  `<path ${ROBE} d="M22 34q6-4 12 0l2 17H20z"/>` +
  `<path fill="${GOLD}" d="M20.4 46.5h15.4l.3 3H20z"/>` +
  `<path ${TINT} d="M23 35q-7 0-9 -8l4-2q2 5 6 5z"/>` +
  `<circle fill="${SKIN}" cx="15.5" cy="25.5" r="2.8"/>` +
  `<path ${TINT} d="M33 35q5 2 6 8l4 1v3h-6q-3-2-4-7z"/>` +
  `<path fill="none" stroke-width=".7" d="M43 45.5 51.5 46"/>` +
  `<circle fill="${SKIN}" cx="42.5" cy="45.5" r="2.4"/>` +
  `<circle fill="${SKIN}" cx="28" cy="27" r="5.8"/>` +
  eyes(28.6, 26.6) +
  `<path fill="${HAIR}" d="M22.6 26q-1 6 2 8l1-6zM33.4 26q1 6-2 8l-1-6z"/>` +
  `<ellipse fill="${GOLD}" cx="28" cy="21.5" rx="10" ry="2.4"/>` +
  `<path fill="${GOLD}" d="M22.5 21q.5-8 5.5-8t5.5 8z"/>` +
  `<path fill="none" stroke="${LIGHT}" stroke-width="1.6" d="M33 15q6-6 11-4"/>`;

const JACK =
  // hose and shoes, tunic, belt, collar
  `<path ${TINT} d="M20.5 64h6l-.5 30h-5zM29.5 64h6l-.5 30h-5z"/>` +
  `<path fill="${INK}" d="M19 93h7v3.5h-9zM30 93h7l1 3.5h-8z"/>` +
  `<path ${ROBE} d="M19 33q9-5 18 0l5 33H14z"/>` +
  `<path fill="${GOLD}" d="M16.6 49.5h22.8l.5 3.2H16.1z"/>` +
  // the hand on the hip, the arm holding the suit symbol out
  `<path ${TINT} d="M19.5 34q-6 2-7 9l1 7 4.5-.6-1-6q0-4 4-5z"/>` +
  `<circle fill="${SKIN}" cx="15.8" cy="51" r="2.7"/>` +
  `<path ${TINT} d="M36.5 34q6 2 7.5 9l1 9-5 .6-1-8q-1-4-4-5z"/>` +
  `<circle fill="${SKIN}" cx="42.3" cy="53.5" r="3"/>` +
  `<path fill="${LIGHT}" d="M22 33.5q6 4.5 12 0l-1.4-2.5q-4.6 3-9.2 0z"/>` +
  // long hair, head, hat with a feather
  `<path fill="${HAIR}" d="M21.5 20q-3 8 0 13h3.5l-.5-12zM34.5 20q3 8 0 13H31l.5-12z"/>` +
  `<circle fill="${SKIN}" cx="28" cy="23.5" r="6"/>` +
  eyes(28, 23.5) +
  `<path ${ROBE} d="M21.5 17q.5-9 6.5-9t6.5 9z"/>` +
  `<ellipse ${TINT} cx="28" cy="17.2" rx="12.5" ry="2.8"/>` +
  `<path fill="none" stroke="${GOLD}" stroke-width="1.8" d="M33 11q7-6 12-1"/>`;

const FIGURES = { K: ["king", KING], Q: ["queen", QUEEN], N: ["knight", KNIGHT], J: ["jack", JACK] };

// Where each figure holds the suit's symbol: centre x, y and size, in the 56 x 104 box.
const HOLDS = { K: [11, 43, 17], Q: [41, 43, 16], N: [15, 16, 16], J: [43, 43, 17] };

/** The figure symbols for the card sprite, `<symbol id="fig-king">` and so on. */
export function courtSymbols() {
  return Object.values(FIGURES)
    .map(
      ([name, body]) =>
        `<symbol id="fig-${name}" viewBox="0 0 56 104"><g ${LINE}>${body}</g></symbol>`,
    )
    .join("");
}

/**
 * The portrait of a Marseille court card in the card's 100 x 160 box: the frame, the
 * figure tinted by suit, and the suit's symbol (`symbol`, a sprite id) in its hand.
 */
export function courtPortrait(rank, suit, colour, symbol) {
  const [name] = FIGURES[rank];
  const [hx, hy, size] = HOLDS[rank];
  const x = 22;
  const y = 28;
  return (
    `<g class="court" data-figure="${name}">` +
    `<rect x="${x}" y="${y}" width="56" height="104" rx="4" fill="${colour}" fill-opacity=".08" stroke="${colour}" stroke-width="1.5"/>` +
    `<ellipse cx="50" cy="${y + 98}" rx="22" ry="3" fill="${INK}" fill-opacity=".14"/>` +
    `<use href="#fig-${name}" x="${x}" y="${y}" width="56" height="104" style="color:${colour};--tint:${SUIT_TINTS[suit]}"/>` +
    `<circle cx="${x + hx}" cy="${y + hy}" r="${size * 0.58}" fill="${LIGHT}" fill-opacity=".9"/>` +
    `<use href="#sym-${symbol}" x="${x + hx - size / 2}" y="${y + hy - size / 2}" width="${size}" height="${size}" style="color:${colour}"/>` +
    "</g>"
  );
}
