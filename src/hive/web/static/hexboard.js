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
}
