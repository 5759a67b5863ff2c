// The evaluation bar and the hint: the engine's view of the position on show (the game's, one under review, or the
// analysis board's), as the leading side's winning chance. The shell gives what it owns: the game's page module,
// render, and whether the player may act.

import { t } from "../i18n.js";
import { api } from "../net.js";
import { $, app, toast } from "../page.js";
import * as analysis from "../analysis/analysis.js";
import { engineAllowed, renderControls } from "./panel.js";

let shell = null;

// given: { game() (the open game's page module), render(), canAct() }
export function wireEvalbar(given) {
  shell = given;
}

export async function hint() {
  if (!app.state || (app.state.result && !app.analysis) || app.review || !engineAllowed()) return;
  $("btn-hint").disabled = true;
  try {
    const data = await api("GET", `/api/games/${app.gameId}/hint${analysis.query()}`);
    shell.game().hint(data);
    toast(t("main.hint", { move: data.move }), false);
    if (shell.game().evaluation) setEval(data);
    shell.render();
  } catch (err) {
    toast(err.message);
  } finally {
    $("btn-hint").disabled = false;
  }
}

// The bar's label: the leading side's winning chance, on that side's colour ("=" when even); its title in words.
function setEval(data) {
  const white = data.white;
  $("eval-white").style.height = `${(white * 100).toFixed(1)}%`;
  const lead = white >= 0.5 ? 0 : 1;
  const chance = Math.round(Math.max(white, 1 - white) * 100);
  const shown = chance === 50 ? "=" : chance === 100 ? "100" : `${chance}%`; // three characters fit the bar
  showEval(shown, chance === 50 ? null : lead,
    t("main.chance", { side: shell.game().sideName(lead), chance, depth: data.depth }));
}

function showEval(text, side, title) {
  const label = $("eval-text");
  label.textContent = text;
  label.dataset.side = side === null ? "" : String(side);
  $("evalbar").title = title;
  $("evalbar").setAttribute("aria-label", title);
}

// The evaluation of the position on show: the game's, or the one under review.
export async function refreshEval() {
  if (!app.evalOn || !app.state || !shell.game().evaluation || !engineAllowed()) return;
  if (app.analysis) { await analysis.analysisEval(setEval); return; }
  const ply = app.review ? app.review.ply : app.state.moves.length;
  const s = app.state;
  if (ply === s.moves.length && s.result) {
    const drawn = s.result === "Draw" || s.winner === null;
    const ended = s.result === "Aborted" ? t("main.was_aborted") : drawn ? t("main.was_drawn") : t("main.won", { side: shell.game().sideName(s.winner) });
    showEval(drawn ? "=" : t("main.won_short"), drawn ? null : s.winner, ended);
    return;
  }
  try {
    const data = await api("GET", `/api/games/${app.gameId}/hint?ply=${ply}`);
    if ((app.review ? app.review.ply : app.state.moves.length) === ply) setEval(data);
  } catch (err) { /* the game moved on; the next state asks again */ }
}

export function toggleEval() {
  if (!app.state) return;
  if (!engineAllowed()) { toast(t("main.engine_off")); return; }
  app.evalOn = !app.evalOn;
  $("evalbar").hidden = !app.evalOn;
  if (app.state) renderControls(shell.game(), shell.canAct);
  refreshEval();
}
