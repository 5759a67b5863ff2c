// Hexline's page module (the tests' third game, tests/toygame): X and O place stones in turn on the 19 cells of a
// hex field, three in a row wins. Written against the page's shared modules alone, to prove that a game needs no
// edit of the page's shell. Same interface as every game module (see main.js).

import { $, app, h, stylesheet, toast } from "../page.js";
import { R, centre, drawPending, el, fit, hexAt, hexPoints, keyTarget, ring } from "../hexboard.js";

export const intro = "Click an empty cell to place your stone: three in a row along any line of the field wins.";
export const evaluation = false;
export const flipTitle = "Flip the field (F)";
export const SIDES = ["X", "O"];

stylesheet(new URL("./toygame.css", import.meta.url));

const NAME = "Hexline";
const RADIUS = 2;
// The field's cells ("q,r") in the order of a position record: q from -2 to 2, then r.
const CELLS = [];
for (let q = -RADIUS; q <= RADIUS; q++) {
  for (let r = -RADIUS; r <= RADIUS; r++) if (Math.abs(q + r) <= RADIUS) CELLS.push(`${q},${r}`);
}
const STONES = ".xo"; // a cell's stone in a position record: none, X's, O's
// Every run of three cells along one of the field's three axes.
const LINES = CELLS.flatMap((name) => {
  const [q, r] = name.split(",").map(Number);
  return [[1, 0], [0, 1], [1, -1]]
    .map(([dq, dr]) => [0, 1, 2].map((i) => `${q + i * dq},${r + i * dr}`))
    .filter((line) => line.every((cell) => CELLS.includes(cell)));
});
// X dark with a light cross, O light with a dark ring: the sides differ by more than their colour.
const STYLE = [
  { fill: "#26364d", rim: "#101a28", ink: "#f4efe2" },
  { fill: "#f7f2e6", rim: "#8a7a5c", ink: "#a33a22" },
];
const FONT = "DejaVu Sans, Helvetica, Arial, sans-serif";

let shell = null;

export function init(s) { shell = s; }
export function hide() {}

export function sideName(seat) { return SIDES[seat]; }
export function phase() { return " to move"; }
export function reasonText(reason) { return reason; }
export function info() { return "19 cells · three in a row wins"; }

// No options: the rules in a few words instead.
export function renderOptions(box, game) {
  const text = h("p", "", "X and O place a stone in turn on an empty cell, X first. Three stones in a row along any " +
    "of the field's three lines win; a full field is a draw.");
  if (game.rules) {
    const link = h("a", "", ` How to play ${game.title}`);
    Object.assign(link, { href: game.rules, target: "_blank", rel: "noopener" });
    text.append(link);
  }
  const row = h("div", "row about");
  row.append(text);
  box.append(row);
}

export function options() { return {}; }

// A turn is one stone: nothing is built, picked or dragged.
export function reset() {}
export function cancelTurn() { return false; }
export function escape() {}
export function press() { return null; }
export function hover() {}
export function leave() {}

export function hint(data) { app.hint = data.move; }

// The cells a stone may go on.
function legalCells(view) { return Array.isArray(view.legal) ? view.legal : []; }

// ------------------------------------------------------------------ the field

function drawStone(parent, seat, x, y, radius) {
  const st = STYLE[seat];
  const g = el("g", { class: "hxstone", "data-stone": STONES[seat + 1] }, parent);
  el("circle", { cx: x, cy: y, r: radius, fill: st.fill, stroke: st.rim, "stroke-width": radius * 0.07 }, g);
  const arm = radius * 0.42, width = (radius * 0.17).toFixed(2);
  if (seat === 0) {
    for (const [dx, dy] of [[1, 1], [1, -1]]) {
      el("line", {
        x1: x - dx * arm, y1: y - dy * arm, x2: x + dx * arm, y2: y + dy * arm, stroke: st.ink, "stroke-width": width,
        "stroke-linecap": "round",
      }, g);
    }
  } else {
    el("circle", { cx: x, cy: y, r: arm, fill: "none", stroke: st.ink, "stroke-width": width }, g);
  }
  return g;
}

function miniStone(seat, size) {
  const svg = el("svg", { width: size, height: size, viewBox: `${-R} ${-R} ${2 * R} ${2 * R}`, class: "hxmini" });
  svg.setAttribute("aria-hidden", "true");
  drawStone(svg, seat, 0, 0, R * 0.9);
  return svg;
}

// The move that led to the position on show, in a game or its review ("0,0"), else null (the analysis board's
// view does not say it).
function lastMove() {
  if (app.analysis) return null;
  const ply = app.review ? app.review.ply : app.state.moves.length;
  return ply ? app.state.moves[ply - 1] : null;
}

// Draw the field of view, with its marks (cells by name): open, the cells a click plays on; last, the last move;
// hint, the hinted move; picked, the cell the editor has picked; margin, the room around it, in cell radii.
function drawField(view, { open = new Set(), last = null, hint = null, picked = null, margin = 1.2 } = {}) {
  const svg = $("board");
  svg.innerHTML = "";
  const root = el("g", { id: "viewport" }, svg);
  const stones = new Map(view.cells.map((c) => [`${c.q},${c.r}`, c.stone]));
  const at = (name) => centre(...name.split(",").map(Number));
  const bounds = [];
  const rim = el("g", { class: "hxrim" }, root);
  for (const name of stones.keys()) {
    el("polygon", { points: hexPoints(...at(name), R * 1.1), fill: "#9c8a66", stroke: "#9c8a66" }, rim);
  }
  for (const [name, stone] of stones) {
    const [x, y] = at(name);
    bounds.push([x, y]);
    const cell = el("polygon", {
      class: "hxcell" + (open.has(name) ? " open" : ""), "data-cell": name, points: hexPoints(x, y, R * 0.97),
      fill: "#efe6cf", stroke: "#b9a67e", "stroke-width": 1.5,
    }, root);
    if (stone) drawStone(root, stone - 1, x, y, R * 0.7);
    else {
      const label = el("text", {
        class: "hxlabel", x, y: y + R * 0.12, "text-anchor": "middle", "font-size": R * 0.3, fill: "#8a7a5c",
        "font-family": FONT,
      }, root);
      label.textContent = name;
    }
    const said = `${name}: ${stone ? `${SIDES[stone - 1]}'s stone` : "empty"}` +
      (picked === name ? ", picked" : open.has(name) ? `, place ${SIDES[view.turn]}'s stone here` : "");
    keyTarget(cell, name, said, [x, y]);
  }
  for (const line of LINES) {
    const stone = stones.get(line[0]);
    if (!stone || !line.every((name) => stones.get(name) === stone)) continue;
    const [[x1, y1], [x2, y2]] = [at(line[0]), at(line[2])];
    el("line", {
      class: "hxwin", x1, y1, x2, y2, stroke: "#d9480f", "stroke-width": R * 0.16, "stroke-linecap": "round",
      "stroke-opacity": 0.75, "pointer-events": "none",
    }, root);
  }
  if (stones.has(last)) ring(root, ...at(last), R * 0.86, "#d9480f", R * 0.08, "none", "hxlast");
  if (stones.has(hint)) ring(root, ...at(hint), R * 0.86, "#7048e8", R * 0.09, "5 4", "hint-mark");
  if (stones.has(picked)) ring(root, ...at(picked), R * 0.9, "#e8a50c", R * 0.1, "none", "hxpicked");
  const pending = app.pending;
  if (pending && stones.has(pending.to) && !app.review && !app.editor) {
    drawPending(root, pending, null, at(pending.to), pending.to, (g, x, y) => drawStone(g, app.state.seats[0], x, y, R * 0.6));
  }
  fit(bounds, false, margin);
}

export function renderBoard() {
  const view = shell.currentView();
  if (!view) return;
  const open = new Set(!app.review && shell.canAct() ? legalCells(view) : []);
  drawField(view, { open, last: lastMove(), hint: app.review ? null : app.hint });
}

// The cell a click or a key was on ("q,r"), or null off the field.
function cellAt(evt) {
  const node = evt.target && evt.target.closest ? evt.target.closest("[data-cell]") : null;
  if (node) return node.dataset.cell;
  const name = hexAt(evt).join(",");
  return CELLS.includes(name) ? name : null;
}

export function click(evt) {
  if (!app.state || app.review) return;
  const name = cellAt(evt);
  if (name === null) return;
  if (shell.mayPreselect()) { // on the opponent's turn: a stone pre-selected (premove.js), or the pending one cancelled
    if (app.pending && app.pending.to === name) shell.cancelPending();
    else shell.play({ move: name, to: name });
    return;
  }
  const refusal = shell.refusal();
  if (refusal) { toast(refusal); return; }
  shell.play({ move: name }); // a taken cell too: the server names the rule
}

// The stone pre-selected on a cell, if the cell is still free when the turn comes.
export function preselected(pending, view) { return legalCells(view).includes(pending.to) ? { move: pending.to } : null; }

// ------------------------------------------------------------------ the side panel

export function renderPanel() {}

export function renderCard(card, seat) {
  const view = shell.currentView();
  const head = shell.cardHead(card, seat, view, STYLE[seat].fill);
  const count = view.cells.filter((c) => c.stone === seat + 1).length;
  const meter = h("div", "hxcount");
  meter.dataset.stones = count;
  meter.append(miniStone(seat, 20), document.createTextNode(`${count} on the field`));
  head.append(meter);
}

// ------------------------------------------------------------------ the board editor (see editor.js)

// A stone of each side, as many as the field holds.
export function editorPieces() { return [[{ key: "x", count: null }], [{ key: "o", count: null }]]; }
export function editorPicture(key, size) { return miniStone(STONES.indexOf(key) - 1, size); }

export function editorFrom(view) {
  return Object.fromEntries(view.cells.filter((c) => c.stone).map((c) => [`${c.q},${c.r}`, [STONES[c.stone]]]));
}

export function editorView(cells) {
  return {
    cells: CELLS.map((name) => {
      const [q, r] = name.split(",").map(Number);
      return { q, r, stone: cells[name] ? STONES.indexOf(cells[name][0]) : 0 };
    }),
    legal: {},
  };
}

// Room under the field for the editor's verdict, which it shows over the board's lower left corner.
export function editorDraw(view) { drawField(view, { picked: app.selected, margin: 2 }); }

export function editorText(cells, turn) {
  return `Position;${NAME};${turn};${CELLS.map((name) => (cells[name] ? cells[name][0] : ".")).join("")}`;
}

export function editorCell(evt) { return cellAt(evt); }

export function editorPlace(cells, key, cell) {
  if (cells[cell]) return `${cell} holds a stone already: a cell holds one.`;
  cells[cell] = [key];
  return null;
}

export function editorTake(cells, cell) {
  const stack = cells[cell];
  if (!stack) return null;
  delete cells[cell];
  return stack[0];
}

// A stone has no moves to show: the editor's pick is named by its cell, the one name a stone has.
export function editorSelect(cells, cell) { return cells[cell] ? cell : null; }

// The least turn at which each side has placed every stone it has on the field.
export function editorLeast(cells, seat) {
  const stones = Object.values(cells).flat();
  const have = ["x", "o"].map((key) => stones.filter((stone) => stone === key).length);
  let ply = seat;
  while (Math.ceil(ply / 2) < have[0] || Math.floor(ply / 2) < have[1]) ply += 2;
  return Math.floor(ply / 2) + 1;
}
