// HiveQueen's field and pieces as SVG: the 61 cells with their files and ranks, the last turn, the movements and
// productions on offer; a piece is a disc in its side's colours with the kind's glyph and letter.

import { t } from "../i18n.js";
import { R, centre, drawPending, el, fit, hexPoints, keyTarget, ring } from "../hexboard.js";
import { $, app } from "../page.js";

// the sides' and the pieces' names, in the page's language
export const SIDES = ["South", "North"].map((side) => t(`hivequeen.side.${side}`));
export const KINDS = Object.fromEntries([..."QHDNWS"].map((kind) => [kind, t(`hivequeen.piece.${kind}`)]));
export const STYLE = [
  { fill: "#f8f1e0", ink: "#3b2f22", rim: "#a88a58" },
  { fill: "#2e3440", ink: "#f2e6c8", rim: "#0f1218" },
];

const FIELD = { cell: "#dfe5cc", cellAlt: "#d6ddc0", line: "#b3bd98", label: "#8e9a76", south: "#ead9b0", north: "#c9ccd3" };
const FONT = "DejaVu Sans, Helvetica, Arial, sans-serif";

// Our piece glyphs, drawn in a 60 x 60 box around (0, 0) with the ink colour {c} and the disc colour {bg}.
const GLYPHS = {
  // a crown of three points on a band
  Q: `<path d="M-19 9 L-22 -13 L-10 -3 L0 -19 L10 -3 L22 -13 L19 9 Z" fill="{c}"/>
      <rect x="-19" y="11" width="38" height="6" rx="2" fill="{c}"/>
      <circle cx="-22" cy="-15" r="3" fill="{c}"/><circle cx="0" cy="-21" r="3" fill="{c}"/><circle cx="22" cy="-15" r="3" fill="{c}"/>`,
  // a cut jewel: the Highborn, next in line to the crown
  H: `<path d="M-18 -6 L-9 -17 L9 -17 L18 -6 L0 19 Z" fill="{c}"/>
      <path d="M-18 -6 L18 -6 M-9 -17 L-4 -6 L0 19 M9 -17 L4 -6 L0 19" stroke="{bg}" stroke-width="2" fill="none"/>`,
  // a winged body: the Drone flies to any empty cell
  D: `<ellipse cx="-10" cy="-7" rx="11" ry="6.5" transform="rotate(-28 -10 -7)" fill="none" stroke="{c}" stroke-width="3.2"/>
      <ellipse cx="10" cy="-7" rx="11" ry="6.5" transform="rotate(28 10 -7)" fill="none" stroke="{c}" stroke-width="3.2"/>
      <ellipse cx="0" cy="5" rx="5.5" ry="12" fill="{c}"/>`,
  // an egg with a cross: the Nurse brings new pieces in
  N: `<path d="M0 -20 C 12 -20 17 0 17 7 C 17 16 9 21 0 21 C -9 21 -17 16 -17 7 C -17 0 -12 -20 0 -20 Z" fill="{c}"/>
      <path d="M0 -5 V 13 M-8 4 H 8" stroke="{bg}" stroke-width="3.6" stroke-linecap="round"/>`,
  // a honeycomb cell: the Worker carries the colony's capacity
  W: `<polygon points="0,-20 17.3,-10 17.3,10 0,20 -17.3,10 -17.3,-10" fill="none" stroke="{c}" stroke-width="4" stroke-linejoin="round"/>
      <polygon points="0,-9 7.8,-4.5 7.8,4.5 0,9 -7.8,4.5 -7.8,-4.5" fill="{c}"/>`,
  // a spear: the Soldier only ever moves to capture
  S: `<path d="M0 -22 L8 -6 L3 -6 L3 20 L-3 20 L-3 -6 L-8 -6 Z" fill="{c}"/>
      <path d="M-11 -2 H 11" stroke="{c}" stroke-width="3.6" stroke-linecap="round"/>`,
};

// A piece disc with its glyph and letter.
function drawPiece(parent, side, kind, x, y, opts = {}) {
  const st = STYLE[side];
  const g = el("g", { class: "qtile" }, parent);
  const radius = opts.radius || R * 0.8;
  el("circle", { cx: x, cy: y, r: radius, fill: st.fill, stroke: opts.outline || st.rim, "stroke-width": opts.outline ? 4 : kind === "Q" ? 3.5 : 2 }, g);
  if (kind === "Q" || kind === "H") {
    el("circle", { cx: x, cy: y, r: radius * 0.86, fill: "none", stroke: st.rim, "stroke-width": 1.2, "stroke-dasharray": kind === "H" ? "3 3" : "none" }, g);
  }
  const glyph = el("g", { transform: `translate(${x.toFixed(2)},${(y - radius * 0.1).toFixed(2)}) scale(${(radius / 34).toFixed(3)})` }, g);
  glyph.innerHTML = GLYPHS[kind].replaceAll("{c}", st.ink).replaceAll("{bg}", st.fill);
  if (opts.letter !== false) {
    const t = el("text", {
      x: x.toFixed(2), y: (y + radius * 0.8).toFixed(2), "text-anchor": "middle", "font-size": (radius * 0.3).toFixed(1),
      "font-weight": "bold", fill: st.ink, "font-family": FONT, opacity: 0.75,
    }, g);
    t.textContent = kind;
  }
  return g;
}

export function miniPiece(side, kind, size = 30) {
  const svg = el("svg", { width: size, height: size, viewBox: `${-R} ${-R} ${2 * R} ${2 * R}`, class: "qmini" });
  drawPiece(svg, side, kind, 0, 0, { radius: R * 0.92, letter: false });
  return svg;
}

// ------------------------------------------------------------------ the field

// The field of view; producing is the turn being built once its movement is made (null otherwise); aiming: a piece is
// picked to pre-select its movement, every other cell may be where it goes.
export function drawField(view, producing, aiming = false) {
  const svg = $("board");
  svg.innerHTML = "";
  const root = el("g", { id: "viewport" }, svg);
  const byName = new Map(view.cells.map((c) => [c.cell, c]));
  const legal = (!app.review && !producing && app.selected && view.legal[app.selected]) || [];
  const bounds = [];
  const lit = new Set(legal.map((d) => d.to));
  if (producing) for (const p of producing.preview.productions) if (!producing.kind || p.kind === producing.kind) lit.add(p.cell);
  const at = (name) => centre(byName.get(name).q, byName.get(name).r);

  const defs = el("defs", {}, root);
  const shadow = el("filter", { id: "qshadow", x: "-30%", y: "-30%", width: "160%", height: "160%" }, defs);
  el("feDropShadow", { dx: 0, dy: 1.5, stdDeviation: 1.6, "flood-color": "#2a2010", "flood-opacity": 0.35 }, shadow);

  // the field: a rim, then the 61 cells, the two home rows tinted for their sides
  const outer = el("g", { class: "qfield" }, root);
  for (const c of view.cells) {
    const [x, y] = centre(c.q, c.r);
    el("polygon", { points: hexPoints(x, y, R * 1.12), fill: "#8f9a74", stroke: "#8f9a74", "stroke-width": 2 }, outer);
  }
  for (const c of view.cells) {
    const [x, y] = centre(c.q, c.r);
    bounds.push([x, y]);
    const home = c.r === 4 ? FIELD.south : c.r === -4 ? FIELD.north : (c.q + 2 * c.r) % 3 === 0 ? FIELD.cellAlt : FIELD.cell;
    const poly = el("polygon", {
      class: "qcell", "data-cell": c.cell, points: hexPoints(x, y, R * 0.985), fill: home, stroke: FIELD.line, "stroke-width": 1.2,
    }, root);
    if (!c.piece && !lit.has(c.cell)) {
      const t = el("text", {
        x, y: y + R * 0.12, "text-anchor": "middle", "font-size": R * 0.3, fill: FIELD.label, "pointer-events": "none",
        "font-family": FONT,
      }, root);
      t.textContent = c.cell;
    }
    poly.dataset.empty = c.piece ? "0" : "1";
    const lead = lit.has(c.cell) || (aiming && c.cell !== app.selected);
    keyTarget(poly, c.cell, cellName(c, legal, producing, aiming), [x, y], lead);
  }

  // the last turn (or the turn being built): origin dashed, destination solid, new pieces dotted
  const outline = (name, cls, dash, colour) => {
    if (!byName.has(name)) return;
    const [x, y] = at(name);
    ring(root, x, y, R * 0.9, colour, R * 0.09, dash, cls);
  };
  const last = view.last;
  const lastColour = producing ? "#1c7ed6" : "#d9480f";
  if (last) {
    if (last.from !== last.to) outline(last.from, "qlast-from", "7 5", lastColour);
    outline(last.to, "qlast-to", "none", lastColour);
    for (const p of last.productions) outline(p, "qlast-new", "2 4", "#2f9e44");
  }

  // the pieces
  for (const c of view.cells) {
    if (!c.piece) continue;
    const [x, y] = centre(c.q, c.r);
    const selected = app.selected === c.cell && !app.review;
    const g = el("g", { class: "qpiece", "data-cell": c.cell, "data-side": c.piece.side, "data-kind": c.piece.kind, filter: "url(#qshadow)" }, root);
    drawPiece(g, c.piece.side, c.piece.kind, x, y, { outline: selected ? "#e8a50c" : null });
    if (selected) g.classList.add("selected");
    const tip = el("title", {}, g);
    tip.textContent = t("hivequeen.piece_on", { side: SIDES[c.piece.side], piece: KINDS[c.piece.kind], cell: c.cell });
    g.setAttribute("aria-hidden", "true"); // its cell bears its name
  }

  const pending = app.pending;
  if (pending && pending.to && byName.has(pending.to) && !producing && !app.review) {
    const from = byName.get(pending.piece);
    const piece = from && from.piece;
    drawPending(root, pending, from ? at(pending.piece) : null, at(pending.to), pending.to,
      piece ? (g, x, y) => drawPiece(g, piece.side, piece.kind, x, y, { radius: R * 0.7, letter: false }) : null);
  }
  drawMovements(root, legal, at);
  if (producing) drawProductions(root, at, producing);
  if (app.hint && !app.review) {
    for (const name of [app.hint.from, app.hint.to]) outline(name, "hint-mark", name === app.hint.from ? "4 4" : "none", "#7048e8");
  }
  drawCoordinates(root, view);
  fit(bounds, false, 1.25);
}

// A cell's accessible name: where it is, what stands there, and what a click there does now ("e4: South Worker,
// picked", "d5: empty, move here: Wd4-d5", "c3: empty, produce here: Worker or Soldier").
function cellName(c, legal, producing, aiming) {
  const said = [c.cell + ": " + (c.piece ? t("hivequeen.side_piece", { side: SIDES[c.piece.side], piece: KINDS[c.piece.kind] }) : t("hivequeen.empty"))];
  if (app.selected === c.cell && !app.review) said.push(t("hivequeen.picked"));
  else if (aiming) said.push(t("hivequeen.preselect_here"));
  const moves = legal.filter((m) => m.to === c.cell).map((m) => m.move);
  if (moves.length) said.push(t("hivequeen.move_here", { moves: moves.join(` ${t("hivequeen.or")} `) }));
  if (producing) {
    const kinds = producing.preview.productions.filter((p) => p.cell === c.cell && (!producing.kind || p.kind === producing.kind));
    if (kinds.length) said.push(t("hivequeen.produce_here", { pieces: kinds.map((p) => KINDS[p.kind]).join(` ${t("hivequeen.or")} `) }));
  }
  return said.join(", ");
}

// Movements of the selected piece: one marker a cell (a slide with or without promotion shares it).
function drawMovements(root, legal, at) {
  const seen = new Set();
  for (const first of legal) {
    if (seen.has(first.to)) continue;
    seen.add(first.to);
    const here = legal.filter((m) => m.to === first.to);
    const d = { ...first, promote: here.some((m) => m.promote) };
    const [x, y] = at(d.to);
    const g = el("g", { class: "qdest", "data-cell": d.to, "data-move": d.move }, root);
    if (d.capture || d.swap || d.to === app.selected) {
      el("circle", {
        cx: x, cy: y, r: R * 0.86, fill: "transparent", stroke: d.capture ? "#d6336c" : "#1c7ed6", "stroke-width": R * 0.1,
        "stroke-dasharray": d.swap ? "6 4" : "none", class: "qdest-ring",
      }, g);
    } else {
      el("polygon", { class: "qdest-hex", points: hexPoints(x, y, R * 0.78), fill: "#1c7ed6", "fill-opacity": 0.16, stroke: "#1c7ed6", "stroke-width": R * 0.06 }, g);
      el("circle", { cx: x, cy: y, r: R * 0.14, fill: "#1c7ed6", "fill-opacity": 0.75 }, g);
    }
    if (d.promote) {
      const crown = el("g", { transform: `translate(${(x + R * 0.52).toFixed(1)},${(y - R * 0.52).toFixed(1)}) scale(${(R / 110).toFixed(3)})` }, g);
      el("circle", { cx: 0, cy: 0, r: 26, fill: "#f4c542", stroke: "#8a6a12", "stroke-width": 3 }, crown);
      crown.insertAdjacentHTML("beforeend", GLYPHS.Q.replaceAll("{c}", "#5b4208").replace(/scale\([^)]*\)/, ""));
    }
    const tip = el("title", {}, g);
    tip.textContent = here.map((m) => m.move).join(" or ");
  }
}

// Where the chosen kind (or any kind) can be produced.
function drawProductions(root, at, producing) {
  const kind = producing.kind;
  const cells = new Map();
  for (const p of producing.preview.productions) {
    if (!cells.has(p.cell)) cells.set(p.cell, []);
    cells.get(p.cell).push(p.kind);
  }
  for (const [name, kinds] of cells) {
    if (kind && !kinds.includes(kind)) continue;
    const [x, y] = at(name);
    const g = el("g", { class: "qprod", "data-cell": name, "data-kinds": kinds.join("") }, root);
    el("polygon", { class: "qprod-hex", points: hexPoints(x, y, R * 0.8), fill: "#2f9e44", "fill-opacity": kind ? 0.2 : 0.1, stroke: "#2f9e44", "stroke-width": R * 0.06, "stroke-dasharray": kind ? "none" : "5 4" }, g);
    if (kind) {
      const ghost = el("g", { opacity: 0.5, "pointer-events": "none" }, g);
      drawPiece(ghost, (app.analysis || app.state).view.turn, kind, x, y, { radius: R * 0.55, letter: false });
    } else {
      const plus = el("text", { x, y: y + R * 0.16, "text-anchor": "middle", "font-size": R * 0.42, "font-weight": "bold", fill: "#2b8a3e" }, g);
      plus.textContent = "+";
    }
    const tip = el("title", {}, g);
    tip.textContent = t("hivequeen.produce_here_title", { pieces: kinds.map((k) => KINDS[k]).join(", ") });
  }
}

// Files and ranks around the field.
function drawCoordinates(root, view) {
  const labels = el("g", { class: "qcoords", "pointer-events": "none" }, root);
  for (const c of view.cells) {
    const edges = [];
    if (c.r === Math.min(4, 4 - c.q)) edges.push(["file", 0, 1]);
    if (c.q === -4) edges.push(["rank", -1, 0]);
    if (c.q + c.r === -4 && c.q > -4) edges.push(["rank", -1, 0]);
    for (const [what, dq, dr] of edges) {
      const [x, y] = centre(c.q + dq * 0.95, c.r + dr * 0.95);
      const t = el("text", { x, y: y + R * 0.12, "text-anchor": "middle", "font-size": R * 0.3, "font-weight": 600, fill: "#6c7452", "font-family": FONT }, labels);
      t.textContent = what === "file" ? c.cell[0] : c.cell.slice(1);
    }
  }
}
