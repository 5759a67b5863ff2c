// The board's SVG: hexagons in axial coordinates, the view box (fit, zoom, pan, flip) and the pointer.
// What a click or a drag means is the game module's: the board asks it through the handlers given to wireBoard.

import { $ } from "./page.js";

const SVGNS = "http://www.w3.org/2000/svg";
export const R = 40;
const SQRT3 = Math.sqrt(3);

// flipped: the board turned half a turn; box: the SVG view box; userMoved: zoomed or panned by hand (kept).
export const frame = { flipped: false, box: null, userMoved: false };

export function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export function centre(q, r) {
  const f = frame.flipped ? -1 : 1;
  return [f * R * SQRT3 * (q + r / 2), f * R * 1.5 * r];
}

export function hexPoints(x, y, radius) {
  const pts = [];
  for (const a of [-90, -30, 30, 90, 150, 210]) {
    const t = (a * Math.PI) / 180;
    pts.push(`${(x + radius * Math.cos(t)).toFixed(2)},${(y + radius * Math.sin(t)).toFixed(2)}`);
  }
  return pts.join(" ");
}

// An outlined hexagon, e.g. the last move's cells or a hint.
export function ring(parent, x, y, radius, stroke, width, dash, cls) {
  return el("polygon", {
    class: cls, points: hexPoints(x, y, radius), fill: "none", stroke, "stroke-width": width,
    "stroke-dasharray": dash, "pointer-events": "none", "stroke-linejoin": "round",
  }, parent);
}

// The move chosen but not sent (premove.js), drawn alike in every game: a dashed ring on the cell it leaves (from, none
// for a placement), a filled cell where it goes (to), named by the cell's key (at); ghost(g, x, y) draws the piece
// there, faint. Its class says whether it is pre-selected or waits for confirmation.
const PENDING = "#1c7ed6";

export function drawPending(root, pending, from, to, at, ghost = null) {
  const kind = pending.premove ? "premove" : "confirm";
  if (from) ring(root, from[0], from[1], R * 0.9, PENDING, R * 0.1, "5 4", `pending-from pending-${kind}`);
  const g = el("g", { class: `pending-to pending-${kind}`, "data-to": at, "pointer-events": "none" }, root);
  el("polygon", { points: hexPoints(to[0], to[1], R * 0.86), fill: PENDING, "fill-opacity": 0.22, stroke: PENDING, "stroke-width": R * 0.1 }, g);
  if (ghost) ghost(g, to[0], to[1]).setAttribute("opacity", "0.55");
  return g;
}

function pixelToHex(x, y) {
  const f = frame.flipped ? -1 : 1;
  x *= f; y *= f;
  const r = y / (1.5 * R);
  const q = x / (R * SQRT3) - r / 2;
  let rq = Math.round(q), rr = Math.round(r), rs = Math.round(-q - r);
  const dq = Math.abs(rq - q), dr = Math.abs(rr - r), ds = Math.abs(rs + q + r);
  if (dq > dr && dq > ds) rq = -rr - rs; else if (dr > ds) rr = -rq - rs;
  return [rq, rr];
}

export function svgPoint(evt) {
  const svg = $("board");
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX; pt.y = evt.clientY;
  const m = svg.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : pt;
}

// The axial [q, r] of the cell under the pointer.
export function hexAt(evt) {
  const p = svgPoint(evt);
  return pixelToHex(p.x, p.y);
}

// Frame the points (unless the player has zoomed or panned, and force is not set).
export function fit(points, force = false, margin = 1.6) {
  if (frame.userMoved && !force && frame.box) { applyViewBox(); return; }
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const m = R * margin;
  const left = Math.min(...xs, -R) - m, right = Math.max(...xs, R) + m;
  const tools = $("board").clientWidth < 600 ? R * 1.4 : 0; // room for the zoom buttons above the pieces
  const top = Math.min(...ys, -R) - m - tools, bottom = Math.max(...ys, R) + m;
  let w = right - left, h = bottom - top;
  const minSize = R * 9; // never zoom in so far that a lone tile fills the screen
  const cx = (left + right) / 2, cy = (top + bottom) / 2;
  w = Math.max(w, minSize); h = Math.max(h, minSize);
  frame.box = { x: cx - w / 2, y: cy - h / 2, w, h };
  applyViewBox();
}

function applyViewBox() {
  const v = frame.box;
  $("board").setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
}

export function zoom(factor, around) {
  const v = frame.box;
  if (!v) return;
  const cx = around ? around.x : v.x + v.w / 2, cy = around ? around.y : v.y + v.h / 2;
  const w = Math.min(Math.max(v.w * factor, R * 4), R * 80), f = w / v.w;
  frame.box = { x: cx - (cx - v.x) * f, y: cy - (cy - v.y) * f, w, h: v.h * f };
  frame.userMoved = true;
  applyViewBox();
}

// ------------------------------------------------------------------ the pointer

// A drag carries the game's controller: {fromHand, allowed(), start(), move(point), drop(evt), tap()}.
let drag = null;
let pan = null;

// The controller of the piece being dragged, once it has moved.
export function dragged() { return drag && drag.moved ? drag.ctl : null; }

// A press on a piece outside the board (a hand): a tap selects it, a drag carries it onto the board.
export function beginDrag(evt, ctl) {
  if (evt.button !== 0) return;
  evt.preventDefault();
  evt.stopPropagation();
  drag = { ctl, x: evt.clientX, y: evt.clientY, moved: false };
}

function onMove(evt) {
  const d = drag;
  if (d) {
    if (!d.moved && Math.hypot(evt.clientX - d.x, evt.clientY - d.y) > 6) {
      if (!d.ctl.allowed()) { drag = null; d.ctl.tap(); return; }
      d.moved = true;
      d.ctl.start();
    }
    if (d.moved) d.ctl.move(svgPoint(evt));
    return;
  }
  if (pan) {
    const v = frame.box;
    const svg = $("board");
    const scale = Math.max(v.w / svg.clientWidth, v.h / svg.clientHeight);
    if (Math.hypot(evt.clientX - pan.x0, evt.clientY - pan.y0) > 4) pan.moved = true;
    frame.box = { ...v, x: pan.vx - (evt.clientX - pan.x0) * scale, y: pan.vy - (evt.clientY - pan.y0) * scale };
    frame.userMoved = true;
    svg.classList.add("panning");
    applyViewBox();
  }
}

function onUp(evt, game) {
  const d = drag;
  if (d) {
    drag = null;
    pan = null;
    if (d.moved) d.ctl.drop(evt);
    else if (d.ctl.fromHand) d.ctl.tap();
    else game.click(evt);
    return;
  }
  if (pan) {
    const moved = pan.moved;
    pan = null;
    $("board").classList.remove("panning");
    if (!moved) game.click(evt);
  }
}

// Wire the board to the game module currentGame() returns: press(evt) (a drag controller or null), click(evt),
// hover(evt, dragging) and leave(); redraw() draws the board again (the window was resized).
export function wireBoard(currentGame, redraw) {
  const board = $("board");
  board.addEventListener("pointerdown", (evt) => {
    const game = currentGame();
    if (evt.button !== 0 || !game) return;
    const ctl = game.press(evt);
    if (ctl) drag = { ctl, x: evt.clientX, y: evt.clientY, moved: false };
    pan = { x0: evt.clientX, y0: evt.clientY, vx: frame.box ? frame.box.x : 0, vy: frame.box ? frame.box.y : 0, moved: false };
  });
  window.addEventListener("pointermove", onMove);
  window.addEventListener("pointerup", (evt) => { const game = currentGame(); if (game) onUp(evt, game); });
  board.addEventListener("wheel", (evt) => {
    evt.preventDefault();
    zoom(evt.deltaY > 0 ? 1.12 : 1 / 1.12, svgPoint(evt));
  }, { passive: false });
  board.addEventListener("mousemove", (evt) => { const game = currentGame(); if (game) game.hover(evt, drag !== null); });
  board.addEventListener("mouseleave", () => { const game = currentGame(); if (game) game.leave(); });
  $("btn-zoom-in").onclick = () => zoom(1 / 1.25);
  $("btn-zoom-out").onclick = () => zoom(1.25);
  $("btn-fit").onclick = () => { frame.userMoved = false; redraw(); };
  window.addEventListener("resize", () => { if (!frame.userMoved) redraw(); });
  wireKeys(currentGame);
}

// ------------------------------------------------------------------ the keyboard

// One node a cell takes focus, with one tab stop for the whole board (a roving tabindex). The game module marks them
// with keyTarget while it draws; arrows go to the nearest in their direction on the screen, Enter or Space presses
// the one in focus as a click on it would, Esc is the shell's. When a pick lights destinations ("leads"), or lights
// others, the focus goes to the nearest of them; Esc gives it back to what was picked.
// at: the focused cell's key; x, y: where it is; inBoard: the keyboard is on the board; viaKeys: the last input was a
// key (the ring shows); origin: what lit the leads (a cell's key, or the data-keep name of an element outside the
// board, such as a piece in a hand); leads: the keys of those lit; back: where Esc sends the focus after drawing.
const keys = { at: null, x: 0, y: 0, inBoard: false, viaKeys: false, origin: null, leads: "", back: null };

// Make node the focus of the cell at (its key) at [x, y], named label; lead: a destination of what was picked.
export function keyTarget(node, at, label, [x, y], lead = false) {
  node.dataset.focus = at;
  node.dataset.x = x.toFixed(1);
  node.dataset.y = y.toFixed(1);
  if (lead) node.dataset.lead = "1";
  node.setAttribute("tabindex", "-1");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
}

function targets() { return [...$("board").querySelectorAll("[data-focus]")]; }
function spot(node) { return [Number(node.dataset.x), Number(node.dataset.y)]; }
function lost() { return !document.activeElement || document.activeElement === document.body; }

function nearest(nodes, x, y) {
  let best = null, bestD = Infinity;
  for (const n of nodes) {
    const [nx, ny] = spot(n);
    const d = Math.hypot(nx - x, ny - y);
    if (d < bestD) { best = n; bestD = d; }
  }
  return best;
}

function focusNode(node) {
  for (const n of targets()) n.setAttribute("tabindex", n === node ? "0" : "-1");
  keys.inBoard = true;
  node.focus({ preventScroll: true });
}

function showRing(node) {
  for (const old of $("board").querySelectorAll(".key-focus")) old.remove();
  if (!node || !keys.viaKeys) return;
  const [x, y] = spot(node);
  ring($("viewport") || $("board"), x, y, R * 1.02, "#0b2e59", R * 0.13, "none", "key-focus");
}

// Draw the page again (draw) without losing the keyboard's place: an element outside the board named by a data-keep
// attribute gets the focus back; on the board, the tab stop stays on its cell (or the nearest), follows a pick's
// destinations, and takes the focus back where drawing the board again took it away.
export function keepingFocus(draw) {
  const kept = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.keep : null;
  draw();
  const back = keys.back;
  keys.back = null;
  if (back) keys.inBoard = false;
  settle();
  const again = back || kept;
  if (again && lost()) {
    const node = document.querySelector(`[data-keep="${CSS.escape(again)}"]`);
    if (node) node.focus();
  }
}

function settle() {
  const nodes = targets();
  const leads = nodes.filter((n) => n.dataset.lead);
  let node = nodes.find((n) => n.dataset.focus === keys.at) || null;
  const lit = leads.map((n) => n.dataset.focus).join(" ");
  if (!leads.length) keys.origin = null;
  else if (lit !== keys.leads && !(node && node.dataset.lead)) {
    if (!keys.leads) keys.origin ??= keys.at;
    node = nearest(leads, keys.x, keys.y);
  }
  keys.leads = lit;
  if (!node && nodes.length) node = nearest(nodes, keys.x, keys.y);
  for (const n of nodes) n.setAttribute("tabindex", n === node ? "0" : "-1");
  if (node && keys.inBoard && lost()) focusNode(node);
  else if (node && document.activeElement === node) showRing(node);
}

// A pick made outside the board (an element named by its data-keep attribute): its destinations take the focus, and
// Esc gives it back.
export function pickedFrom(keep) {
  keys.origin = keep;
  keys.inBoard = true;
  keys.viaKeys = true;
  keys.leads = "";
}

// Esc dropped the pick: after the next drawing the focus goes back to what was picked.
export function dropPick() {
  const origin = keys.origin;
  if (!origin || !keys.inBoard) return;
  if (targets().some((n) => n.dataset.focus === origin)) keys.at = origin;
  else keys.back = origin;
}

// The keyboard goes back to the board at its next drawing (a chooser beside it was answered).
export function backToBoard() { keys.inBoard = true; keys.viaKeys = true; }

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// The nearest cell in the arrow's direction, by the distance along it plus the distance aside (up and down go to a
// row's neighbour, a slant away, before the cell straight above or below, two rows away); where no cell lies within
// that slant, the nearest anywhere on that side, so that every cell can be reached.
function step(from, [dx, dy]) {
  const [x, y] = spot(from);
  let best = null, bestScore = Infinity, wide = null, wideScore = Infinity;
  for (const n of targets()) {
    if (n === from) continue;
    const [nx, ny] = spot(n);
    const along = (nx - x) * dx + (ny - y) * dy;
    const aside = Math.abs((nx - x) * dy - (ny - y) * dx);
    if (along <= R * 0.3) continue;
    const score = along + aside;
    if (aside <= along * 2.5 && score < bestScore) { best = n; bestScore = score; }
    if (score < wideScore) { wide = n; wideScore = score; }
  }
  return best || wide;
}

// The cells in reading order: rows from the top, each from the left (Home and End go to the first and the last).
function reading() {
  return targets().sort((a, b) => spot(a)[1] - spot(b)[1] || spot(a)[0] - spot(b)[0]);
}

function wireKeys(currentGame) {
  const board = $("board");
  board.addEventListener("focusin", (evt) => {
    const node = evt.target.closest("[data-focus]");
    if (!node) return;
    keys.inBoard = true;
    keys.at = node.dataset.focus;
    [keys.x, keys.y] = spot(node);
    for (const n of targets()) n.setAttribute("tabindex", n === node ? "0" : "-1");
    showRing(node);
  });
  board.addEventListener("focusout", (evt) => {
    if (evt.relatedTarget && !board.contains(evt.relatedTarget)) { keys.inBoard = false; showRing(null); }
  });
  window.addEventListener("keydown", (evt) => { if (evt.key === "Tab" || ARROWS[evt.key]) keys.viaKeys = true; }, true);
  window.addEventListener("pointerdown", () => { keys.viaKeys = false; showRing(null); }, true);
  board.addEventListener("keydown", (evt) => {
    const node = evt.target.closest("[data-focus]");
    const game = currentGame();
    if (!node || !game || evt.ctrlKey || evt.metaKey || evt.altKey) return;
    keys.viaKeys = true;
    if (ARROWS[evt.key]) {
      evt.preventDefault();
      evt.stopPropagation();
      const next = step(node, ARROWS[evt.key]);
      if (next) focusNode(next);
    } else if (evt.key === "Home" || evt.key === "End") {
      evt.preventDefault();
      const cells = reading();
      focusNode(evt.key === "Home" ? cells[0] : cells[cells.length - 1]);
    } else if (evt.key === "Enter" || evt.key === " ") {
      evt.preventDefault();
      evt.stopPropagation();
      const box = node.getBoundingClientRect();
      game.click({ target: node, clientX: box.x + box.width / 2, clientY: box.y + box.height / 2, keyboard: true });
    }
  });
}
