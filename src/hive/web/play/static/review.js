// Reviewing the game in play: a position of its line shown from the server while the game goes on (the analysis
// board, when open, steps through its own line instead).

import { t } from "../i18n.js";
import { api } from "../net.js";
import { app, toast } from "../page.js";
import * as analysis from "../analysis/analysis.js";
import { startPly } from "../editor.js";
import { refreshEval } from "./evalbar.js";

let shell = null;

// given: { render() }
export function wireReview(given) {
  shell = given;
}

// Where a review is, numbered as the move list numbers the moves (a pair a line): "After 3. wQ -wS1".
export function reviewText(ply) {
  if (!ply) return t(app.state.start ? "main.set_up_start" : "main.game_start");
  const moves = app.state.moves;
  const at = startPly(app.state) + ply - 1; // the plies before the move, a set-up position's included
  const dots = at % 2 === 0 ? "." : "…";
  return t("main.after_move", { move: `${Math.floor(at / 2) + 1}${dots} ${moves[ply - 1]}`, ply, plies: moves.length });
}

export async function showReview(ply) {
  if (app.analysis) { analysis.showPosition(null, ply); return; }
  if (ply === app.state.moves.length) { exitReview(); return; }
  try {
    const data = await api("GET", `/api/games/${app.gameId}/position?ply=${ply}`);
    app.review = { ply: data.ply, view: data.view };
    app.selected = null;
    shell.render();
    refreshEval();
  } catch (err) {
    toast(err.message);
  }
}

export function exitReview() {
  app.review = null;
  shell.render();
  refreshEval();
}

export function reviewStep(delta) {
  if (!app.state) return;
  if (app.analysis) { analysis.analysisStep(delta); return; }
  const at = app.review ? app.review.ply : app.state.moves.length;
  const ply = Math.min(app.state.moves.length, Math.max(0, at + delta));
  if (ply !== at) showReview(ply);
}
