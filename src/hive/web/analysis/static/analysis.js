// The analysis board: positions off the game's record, moves played for both sides, and the lines explored, kept by
// the server as a tree beside the main line and shown in the move list under the move each branches from.
// app.analysis is the position on show ({line, ply, view, end}: line null is the main line), app.lines the game's
// lines ({lines, writable}); the shell asks canAct/refusal/at/query of this module while a position is analysed.

import { serverText, t } from "../i18n.js";
import { api } from "../net.js";
import { $, app, h, toast } from "../page.js";
import { engineAllowed, moveNumber } from "../play/panel.js";

let shell = null; // the shell's render(), refreshEval() and the open game's page module, game()
let allowed = false; // whether the open game's analysis was open to this page at its last state

export function wireAnalysis(hooks) {
  shell = hooks;
  $("btn-analyse").onclick = toggleAnalysis;
  $("btn-analysis-exit").onclick = exitAnalysis;
  $("btn-analysis-prev").onclick = () => analysisStep(-1);
  $("btn-analysis-next").onclick = () => analysisStep(1);
}

// The game's lines, read again (after opening a game, or when its main line changed).
export async function loadLines() {
  const id = app.gameId;
  if (!app.state || !engineAllowed()) { app.lines = null; app.analysis = null; return; }
  try {
    const data = await api("GET", `/api/games/${id}/lines`);
    if (app.gameId !== id) return;
    app.lines = data;
  } catch (err) {
    app.lines = null;
  }
  if (app.analysis && app.analysis.line !== null && !lineById(app.analysis.line)) app.analysis = null;
  shell.render();
}

// A new state of the game: drop the analysis of another game, or of a main-line position the game no longer has;
// read the lines again when the main line changed, or when the game opened or closed its analysis (it ended).
export function analysisFollows(state, first, grew) {
  if (first) { app.analysis = null; app.lines = null; }
  const a = app.analysis;
  if (a && a.line === null && a.ply > state.moves.length) app.analysis = null;
  const now = engineAllowed();
  if (first || grew || now !== allowed) loadLines();
  allowed = now;
}

function lineById(id) { return app.lines && app.lines.lines.find((line) => line.id === id); }

// How many moves the line has from the start of the game (null: the main line).
function lengthOf(line) {
  if (line === null) return app.state.moves.length;
  const found = lineById(line);
  return found ? found.ply + found.moves.length : 0;
}

// The move text at ply (1-based) of a line, from the start of the game.
function moveAt(line, ply) {
  if (line === null) return app.state.moves[ply - 1];
  const found = lineById(line);
  if (!found) return "";
  if (ply > found.ply) return found.moves[ply - found.ply - 1];
  return moveAt(found.parent, ply);
}

// ------------------------------------------------------------------ entering, leaving, stepping

export async function showPosition(line, ply) {
  try {
    const lineText = line === null ? "" : String(line);
    const data = await api("GET", `/api/games/${app.gameId}/position?line=${lineText}&ply=${ply}`);
    app.analysis = { line: data.line, ply: data.ply, view: data.view, end: data.end };
    app.review = null;
    app.selected = null;
    app.hint = null;
    shell.game().reset();
    shell.render();
    shell.refreshEval();
  } catch (err) {
    toast(err.message);
  }
}

function toggleAnalysis() {
  if (!app.state) return;
  if (app.analysis) { exitAnalysis(); return; }
  if (!engineAllowed()) { toast(t("analysis.off_long")); return; }
  if (!app.lines) loadLines();
  showPosition(null, app.review ? app.review.ply : app.state.moves.length);
}

export function exitAnalysis() {
  app.analysis = null;
  app.selected = null;
  app.hint = null;
  if (shell.game()) shell.game().reset();
  shell.render();
  shell.refreshEval();
}

export function analysisStep(delta) {
  const a = app.analysis;
  const ply = Math.max(0, Math.min(lengthOf(a.line), a.ply + delta));
  if (ply !== a.ply) showPosition(a.line, ply);
}

// ------------------------------------------------------------------ playing in a line

export async function analysisPlay(body) {
  const a = app.analysis;
  app.selected = null;
  app.hint = null;
  try {
    const data = await api("POST", `/api/games/${app.gameId}/lines`, { ...body, line: a.line, ply: a.ply });
    app.analysis = { line: data.line, ply: data.ply, view: data.view, end: data.end };
    app.lines = { lines: data.lines, writable: data.writable };
    shell.game().reset();
    shell.render();
    shell.refreshEval();
  } catch (err) {
    toast(err.message);
    shell.render();
  }
}

async function deleteLine(line) {
  if (!confirm(t("analysis.confirm_delete"))) return;
  try {
    app.lines = await api("DELETE", `/api/games/${app.gameId}/lines/${line}`);
    if (app.analysis && app.analysis.line !== null && !lineById(app.analysis.line)) exitAnalysis();
    else shell.render();
  } catch (err) {
    toast(err.message);
  }
}

export function analysisCanAct() {
  const a = app.analysis;
  return !!app.lines && app.lines.writable && !a.end;
}

export function analysisRefusal() {
  if (app.analysis.end) return t("analysis.over_here", { end: serverText(app.analysis.end) });
  if (!app.lines || !app.lines.writable) return t("analysis.players_only");
  return null;
}

// The position analysed as a request names it ({} when none is), and as a URL's query.
export function at() { return app.analysis ? { line: app.analysis.line, ply: app.analysis.ply } : {}; }
export function query() {
  const a = app.analysis;
  return a ? `?line=${a.line === null ? "" : a.line}&ply=${a.ply}` : "";
}

export async function analysisEval(setEval) {
  const a = app.analysis;
  if (a.end) { $("eval-text").textContent = "end"; return; }
  try {
    const data = await api("GET", `/api/games/${app.gameId}/hint${query()}`);
    if (app.analysis && app.analysis.line === a.line && app.analysis.ply === a.ply) setEval(data);
  } catch (err) { /* a position left meanwhile; the next one asks again */ }
}

// ------------------------------------------------------------------ drawing

function numbered(ply, first) { return ply % 2 === 1 ? `${(ply + 1) / 2}.` : first ? `${ply / 2}…` : ""; }

export function analysisStatus(sideName) {
  const a = app.analysis;
  return `${t("analysis.analysis")} · ${a.end ? serverText(a.end) : t("main.to_move", { side: sideName(a.view.turn) })}`;
}

// The analysis bar over the board, and the Analyse button.
export function renderAnalysis() {
  const a = app.state && !app.editor ? app.analysis : null;
  const bar = $("analysis");
  bar.hidden = !a;
  // the bar takes a strip above the board rather than covering its pieces
  $("board-area").style.paddingTop = a ? `${bar.offsetHeight + 12}px` : "";
  const button = $("btn-analyse");
  button.disabled = !app.state || !engineAllowed();
  // as the hint: not shown to a spectator of a game in play
  button.hidden = !!app.state && !app.state.seats.length && !app.state.result;
  button.classList.toggle("primary", !!a);
  button.title = t(button.disabled ? "analysis.off" : "shell.explore_variations_from_the_position");
  if (!a) return;
  const where = a.ply ? t("analysis.after", { move: `${numbered(a.ply, true)} ${moveAt(a.line, a.ply)}` }) : t("analysis.start");
  $("analysis-where").textContent = `${a.line === null ? t("analysis.main_line") : t("analysis.line", { line: a.line })} · ${where}`;
  $("btn-analysis-prev").disabled = !a.ply;
  $("btn-analysis-next").disabled = a.ply >= lengthOf(a.line);
  for (const [id, twin] of [["btn-first", "prev"], ["btn-prev", "prev"], ["btn-next", "next"], ["btn-last", "next"]]) {
    $(id).disabled = $(`btn-analysis-${twin}`).disabled;
  }
}

// The lines under the moves they branch from, in the move list the panel has drawn; the position on show marked.
export function renderLines(list) {
  const a = app.analysis;
  if (a && a.line === null) {
    for (const li of list.querySelectorAll("li.reviewed, li.current")) li.classList.remove("reviewed", "current");
    const shown = list.querySelector(`li[data-ply="${a.ply}"]`);
    if (shown) shown.classList.add("reviewed");
  }
  if (!app.lines || !app.lines.lines.length) return;
  const roots = app.lines.lines.filter((line) => line.parent === null);
  const played = app.state.moves.length;
  for (const ply of [...new Set(roots.map((line) => line.ply))].sort((x, y) => y - x)) {
    const box = h("li", "lines");
    box.dataset.branch = ply;
    for (const line of roots.filter((r) => r.ply === ply)) box.append(lineBlock(line));
    const after = ply < played ? list.querySelector(`li[data-ply="${ply + 1}"]`) : null;
    if (!after) { list.append(box); continue; }
    after.after(box);
    if (ply % 2 === 0 && ply + 1 < played) {
      const gap = h("li", "lines-gap");
      gap.setAttribute("aria-hidden", "true");
      box.after(moveNumber(`${ply / 2 + 1}…`), gap);
    }
  }
}

function lineBlock(line) {
  const block = h("div", "line");
  block.dataset.line = line.id;
  const children = app.lines.lines.filter((other) => other.parent === line.id);
  if (app.lines.writable) {
    const del = h("button", "line-delete", "×");
    del.title = t("analysis.delete_title");
    del.setAttribute("aria-label", t("analysis.delete_label", { line: line.id }));
    del.onclick = (evt) => { evt.stopPropagation(); deleteLine(line.id); };
    block.append(del);
  }
  line.moves.forEach((move, i) => {
    const ply = line.ply + i + 1;
    const num = numbered(ply, i === 0 || children.some((c) => c.ply === ply - 2));
    if (num) block.append(h("span", "lnum", num));
    const item = h("span", "lmove", move);
    item.dataset.line = line.id;
    item.dataset.ply = ply;
    item.title = t("analysis.show_position");
    if (app.analysis && app.analysis.line === line.id && app.analysis.ply === ply) item.classList.add("shown");
    item.onclick = () => showPosition(line.id, ply);
    block.append(item);
    for (const child of children.filter((c) => c.ply === ply - 1)) block.append(lineBlock(child));
  });
  return block;
}
