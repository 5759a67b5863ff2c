// Review with the engine: the button that asks the server for it, its progress while the server works it out, then
// the evaluation graph (the first player's winning chance after every move, drawn as SVG) with the moves that lost
// most marked in the graph, in a list and in the move list. A click on the graph or on a mark shows that position
// (the shell's review by ply). The review is the server's, stored with the game: a reload shows it as it stands.

import { serverText, side as sideName, t as tr } from "../i18n.js";
import { api } from "../net.js";
import { $, app, h, toast } from "../page.js";
import { LEVEL_NAMES, engineAllowed } from "../play/panel.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 300, HEIGHT = 90, PAD = 5; // the graph's view box, and room for the dots at its edges
const SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const NAMES = { inaccuracy: tr("review.inaccuracy"), mistake: tr("review.mistake"), blunder: tr("review.blunder") };
const POLL_MS = 600;

let report = null; // the open game's review as the server last said it, with the game's id (report.game)
let shell = null; // the shell's showReview(ply) and render()
let timer = null;
let asked = null; // the game whose review was last asked for

// Wire the box's button; showReview(ply) shows an earlier position, render() draws the page again.
export function wireEngineReview(showReview, render) {
  shell = { showReview, render };
  $("btn-engine-review").onclick = start;
  $("er-graph").addEventListener("click", graphClick);
}

// A new state of the open game: its review is fetched once the engine may be asked about it.
export function followEngineReview() {
  const s = app.state;
  if (!s || (report && report.game !== s.id)) { report = null; stopPolling(); }
  if (s && asked !== s.id && engineAllowed() && s.moves.length) {
    asked = s.id;
    fetchReview();
  }
}

// The mark of the move that led to ply in the move list ("??" for a blunder), or null.
export function markFor(ply) {
  const mark = ownReport() && (report.marks || []).find((m) => m.ply === ply);
  if (!mark) return null;
  const tag = h("small", `mark ${mark.kind}`, SYMBOLS[mark.kind]);
  tag.title = markText(mark);
  return tag;
}

function ownReport() { return report && app.state && report.game === app.state.id ? report : null; }

async function fetchReview() {
  const id = app.state.id;
  let data;
  try {
    data = await api("GET", `/api/games/${id}/review`);
  } catch (err) {
    return; // the engine is not for this page now: the box stays hidden
  }
  accept(id, data);
}

async function start() {
  if (!app.state) return;
  const id = app.state.id;
  $("btn-engine-review").disabled = true;
  let data;
  try {
    data = await api("POST", `/api/games/${id}/review`, { level: $("er-level").value || undefined });
  } catch (err) {
    toast(err.message);
    $("btn-engine-review").disabled = false;
    return;
  }
  accept(id, data);
}

function accept(id, data) {
  if (!app.state || app.state.id !== id) return;
  report = { ...data, game: id };
  stopPolling();
  if (report.status === "running") timer = setTimeout(() => { timer = null; fetchReview(); }, POLL_MS);
  shell.render();
}

function stopPolling() {
  if (timer) clearTimeout(timer);
  timer = null;
}

// ------------------------------------------------------------------ drawing

// Draw the box: hidden where the engine may not be asked; else the button, the progress, the graph and the marks.
export function renderEngineReview() {
  const s = app.state;
  const box = $("engine-review");
  box.hidden = !s || !engineAllowed() || !s.moves.length;
  if (box.hidden) return;
  const r = ownReport();
  const running = r && r.status === "running";
  const covered = r && r.status !== "none" ? r.moves : 0;
  const button = $("btn-engine-review");
  button.hidden = running || (r && r.status === "done" && covered >= s.moves.length);
  button.disabled = false;
  button.textContent = tr(covered && covered < s.moves.length ? "review.new_moves" : "shell.review_with_the_engine");
  renderLevels(r, button.hidden);
  $("er-progress-row").hidden = !running;
  if (running) {
    $("er-progress").max = r.total;
    $("er-progress").value = r.done;
    $("er-progress-text").textContent = tr("review.progress", { done: Math.min(r.done + 1, r.total), total: r.total });
  }
  const shown = r && r.positions && r.positions.length > 0;
  $("er-graph").toggleAttribute("hidden", !shown); // an SVG element has no hidden property
  $("er-error").hidden = !(r && r.error);
  $("er-error").textContent = serverText(r && r.error) || "";
  $("er-rules").textContent = rulesText(r);
  $("er-marks").innerHTML = "";
  if (!shown) return;
  drawGraph(r);
  for (const mark of r.marks) $("er-marks").append(markButton(mark));
}

// The levels the review may be worked out at (the game's own, from its last report), its own or the default chosen.
function renderLevels(r, hidden) {
  const select = $("er-level");
  select.hidden = hidden || !r;
  if (!r || select.dataset.game === r.game) return;
  select.dataset.game = r.game;
  select.innerHTML = "";
  for (const level of r.levels) {
    const option = h("option", "", LEVEL_NAMES[level] || level);
    option.value = level;
    select.append(option);
  }
  select.value = r.level || r.default_level;
}

// How the marks are decided, as the review's help text says it.
function rulesText(r) {
  if (!r) return tr("review.about");
  const t = r.thresholds;
  const points = (kind) => Math.round(t[kind] * 100);
  let text = tr("review.marks", { inaccuracy: points("inaccuracy"), mistake: points("mistake"), blunder: points("blunder") });
  if (!r.calibrated) text += ` ${tr("review.uncalibrated")}`;
  return r.level ? `${text} ${tr("review.level", { level: LEVEL_NAMES[r.level] || r.level })}` : text;
}

function x(ply, total) { return PAD + (total > 1 ? (ply / (total - 1)) * (WIDTH - 2 * PAD) : 0); }
function y(white) { return PAD + (1 - white) * (HEIGHT - 2 * PAD); }

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

function drawGraph(r) {
  const graph = $("er-graph");
  graph.innerHTML = "";
  const total = r.total;
  const points = r.positions.map((p, ply) => `${x(ply, total).toFixed(1)},${y(p.white).toFixed(1)}`);
  const whites = r.positions.map((p) => p.white);
  const complete = whites.length === total;
  const right = complete ? `${WIDTH},${y(whites[whites.length - 1])} ${WIDTH}` : x(whites.length - 1, total).toFixed(1);
  const area = `0,${HEIGHT} 0,${y(whites[0])} ${points.join(" ")} ${right},${HEIGHT}`;
  graph.append(svg("rect", { class: "er-second", x: 0, y: 0, width: WIDTH, height: HEIGHT }));
  graph.append(svg("polygon", { class: "er-first", points: area }));
  graph.append(svg("line", { class: "er-mid", x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2 }));
  graph.append(svg("polyline", { class: "er-line", points: points.join(" ") }));
  const at = app.review ? app.review.ply : total; // the position on show, when it is an earlier one
  if (at < total) graph.append(svg("line", { class: "er-now", x1: x(at, total), y1: 0, x2: x(at, total), y2: HEIGHT }));
  for (const mark of r.marks) {
    const dot = svg("circle", {
      class: `er-dot ${mark.kind}`, cx: x(mark.ply, total), cy: y(r.positions[mark.ply].white), r: 4.5,
      "data-ply": mark.ply,
    });
    const title = svg("title", {});
    title.textContent = markText(mark);
    dot.append(title);
    graph.append(dot);
  }
  const sides = app.state.sides;
  // the axes, in words: the first side's chance from top to bottom, the moves from left to right
  const last = Math.ceil((total - 1) / 2);
  const [first, second] = sides.map((name) => sideName(app.state.kind, name));
  for (const [text, tx, ty, anchor] of [[tr("review.wins", { side: first }), PAD, 10, "start"], [tr("review.even"), PAD, HEIGHT / 2 - 2, "start"],
    [tr("review.wins", { side: second }), PAD, HEIGHT - 3, "start"], [tr("review.move", { move: last }), WIDTH - PAD, HEIGHT - 3, "end"]]) {
    const label = svg("text", { class: "er-axis", x: tx, y: ty, "text-anchor": anchor });
    label.textContent = text;
    graph.append(label);
  }
  graph.setAttribute("aria-label", tr("review.graph_label", { side: first, move: last }));
}

// A mark as a button of the list under the graph: "13. wA2 -wB1 ??".
function markButton(mark) {
  const li = h("li");
  const button = h("button", `er-mark ${mark.kind}`, `${moveNumber(mark.ply)} ${mark.move} ${SYMBOLS[mark.kind]}`);
  button.dataset.ply = mark.ply;
  button.title = markText(mark);
  button.onclick = () => showMark(mark);
  li.append(button);
  return li;
}

function moveNumber(ply) { return `${Math.ceil(ply / 2)}${ply % 2 ? "." : "…"}`; }

function markText(mark) {
  const values = { kind: NAMES[mark.kind], side: sideName(app.state.kind, app.state.sides[mark.side]),
    move: `${moveNumber(mark.ply)} ${mark.move}`, points: Math.round(mark.drop * 100), best: mark.best };
  return tr(mark.best ? "review.mark_best" : "review.mark", values);
}

function showMark(mark) {
  toast(markText(mark), false);
  shell.showReview(mark.ply);
}

function graphClick(evt) {
  const r = ownReport();
  if (!r) return;
  const dot = evt.target.closest("circle[data-ply]");
  if (dot) { showMark(r.marks.find((m) => m.ply === Number(dot.dataset.ply))); return; }
  const box = $("er-graph").getBoundingClientRect();
  const at = ((evt.clientX - box.left) / box.width) * WIDTH;
  const ply = Math.round(((at - PAD) / (WIDTH - 2 * PAD)) * (r.total - 1));
  shell.showReview(Math.max(0, Math.min(r.positions.length - 1, ply)));
}
