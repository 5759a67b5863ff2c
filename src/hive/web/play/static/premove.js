// A move chosen before it is sent: pre-selected on the opponent's turn (played at once when the turn comes, if it
// is still legal then, else dropped with a notice), or held for confirmation when the player's "Confirm moves"
// setting is on (remembered in this browser; off unless turned on). Either shows on the board (the game module draws
// app.pending) and in a bar over it with Cancel (and Confirm); a click on it again, or Esc, cancels it too.
// Nothing here sends a move but through the shell's one move path, once, and only on the player's turn: the pending
// move is forgotten before it is sent, and the server checks the turn and the ply besides.
// A game module offers pre-selection by exporting preselected(pending, view): the move (a request's body) the
// pending {piece, to} is in the view's legal moves, or null (piece: what moves, none for a stone placed; to: where,
// in the module's own terms). The module picks it with shell.play({piece, to}) (or {move, to}) while
// shell.mayPreselect(), lets the keyboard reach every cell it may go to, and draws it with hexboard.js's
// drawPending, so that it shows alike in every game; pieceName(piece) names it in the bar. Without preselected,
// moves are only held for confirmation.

import { $, app, h, stylesheet, toast } from "../page.js";
import { t } from "../i18n.js";

stylesheet(new URL("./premove.css", import.meta.url));

const CONFIRM_KEY = "hive.confirm-moves";

// The texts, from the page's catalog (page-pairing.po).
const TEXTS = {
  confirmOn: () => t("pairing.confirm_on"),
  confirmOff: () => t("pairing.confirm_off"),
  confirmTitle: () => t("pairing.confirm_title"),
  preselected: (what) => t("pairing.preselected", { what }),
  waiting: (what) => t("pairing.send", { what }),
  confirm: () => t("pairing.confirm"),
  cancel: () => t("pairing.cancel"),
  dropped: (what) => t("pairing.dropped", { what }),
  stale: () => t("pairing.stale"),
  cancelled: () => t("pairing.move_cancelled"),
  pass: () => t("pairing.pass"),
};

let shell = null; // {send(body), render(), game()}: the shell's one move path, its redraw, the open game's module

export function confirmOn() { return localStorage.getItem(CONFIRM_KEY) === "on"; }

function seat() { return app.state && app.state.seats.length === 1 ? app.state.seats[0] : null; }

// Whether a move chosen now is pre-selected: a game with one seat of this browser's, the other side to move (a
// player or the AI), the game going on, its own position on show; and the game's module offers pre-selection.
export function mayPreselect() {
  const s = app.state;
  const module = shell && shell.game();
  return !!s && !!module && typeof module.preselected === "function" && seat() !== null && !s.result
    && s.view.turn !== seat() && !app.review && !app.analysis && !app.editor;
}

// How a pending move reads: its notation, or the piece that goes (as the game module names it).
function what(pending) {
  if (pending.body.move === "pass") return TEXTS.pass();
  const module = shell.game();
  if (pending.body.move) return pending.body.move;
  return module && module.pieceName && pending.piece ? module.pieceName(pending.piece) : pending.piece || String(pending.to);
}

function show() {
  const bar = $("pending-bar");
  const pending = app.pending;
  bar.hidden = !pending;
  if (!pending) return;
  $("pending-text").textContent = pending.premove ? TEXTS.preselected(what(pending)) : TEXTS.waiting(what(pending));
  $("btn-pending-confirm").hidden = pending.premove;
  bar.dataset.kind = pending.premove ? "premove" : "confirm";
}

function set(pending) {
  app.pending = pending;
  show();
  shell.render();
}

// Drop the pending move (Cancel, Esc, a click on it again); true when there was one.
export function cancelPending(say = true) {
  if (!app.pending) return false;
  set(null);
  if (say) toast(TEXTS.cancelled(), false);
  return true;
}

// Send the pending move now, forgotten first so that it is never sent twice.
function confirm() {
  const pending = app.pending;
  if (!pending || pending.premove) return;
  set(null);
  if (app.state && app.state.id === pending.game && app.state.moves.length === pending.ply) shell.send(pending.body);
}

// The shell's move path asks first: true when the move is kept here (pre-selected, or waiting for confirmation)
// rather than sent now. selected: the piece the player had picked; to: where the move goes, when known.
export function holdMove(body, selected, to) {
  const s = app.state;
  if (!s || app.analysis) return false;
  const base = { body, piece: body.piece || selected, to: body.to || to, game: s.id, ply: s.moves.length };
  if (mayPreselect()) {
    if (!base.to) return false; // nothing to pre-select (a pass): the server says why not
    set({ ...base, premove: true });
    return true;
  }
  if (!confirmOn() || seat() === null || s.view.turn !== seat() || s.result) return false;
  const module = shell.game();
  if (!body.move && module && module.preselected && !module.preselected(base, s.view)) return false; // the server says why
  set({ ...base, premove: false });
  return true;
}

// A new state of the open game: a pre-selected move is played (or dropped) once the turn comes; a move waiting for
// confirmation is dropped when the position it was chosen in is gone.
export function followState(state) {
  const pending = app.pending;
  if (!pending) return;
  if (state.id !== pending.game || state.result) { set(null); return; }
  if (state.moves.length === pending.ply) return;
  if (!pending.premove || state.view.turn !== seat()) {
    if (!pending.premove) { set(null); toast(TEXTS.stale(), false); }
    return;
  }
  const body = shell.game().preselected(pending, state.view);
  if (!body) { set(null); toast(TEXTS.dropped(what(pending))); return; }
  if (confirmOn()) { set({ ...pending, body, premove: false, ply: state.moves.length }); return; }
  set(null);
  shell.send(body);
}

function showSetting() {
  const button = $("btn-confirm");
  const on = confirmOn();
  button.textContent = on ? TEXTS.confirmOn() : TEXTS.confirmOff();
  button.setAttribute("aria-pressed", String(on));
}

// The bar over the board, and the setting's button in the top bar. given: the shell's {send, render, game}.
export function wirePremove(given) {
  shell = given;
  const bar = h("div", "pending-bar review");
  bar.id = "pending-bar";
  bar.hidden = true;
  bar.setAttribute("role", "status");
  const text = h("span", "pending-text");
  text.id = "pending-text";
  const yes = h("button", "primary", TEXTS.confirm());
  yes.id = "btn-pending-confirm";
  yes.onclick = confirm;
  const no = h("button", "", TEXTS.cancel());
  no.id = "btn-pending-cancel";
  no.onclick = () => cancelPending();
  bar.append(text, yes, no);
  $("board-area").append(bar);
  const button = $("btn-confirm");
  button.title = TEXTS.confirmTitle();
  button.onclick = () => {
    localStorage.setItem(CONFIRM_KEY, confirmOn() ? "off" : "on");
    showSetting();
  };
  showSetting();
}
