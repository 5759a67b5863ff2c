// HiveQueen's movement chosen on the opponent's turn (premove.js): one of the player's pieces, then the cell it goes
// to; when the turn comes it is played as the whole turn (no production), if it is still legal then.

import { t } from "../i18n.js";
import { app, toast } from "../page.js";
import { KINDS, SIDES } from "./hivequeen-field.js";

// A piece of the player's picked on the opponent's turn: every other cell may be where it goes.
export function aiming(shell) { return !app.review && !!app.selected && shell.mayPreselect(); }

// The movement a pre-selected {piece: its cell, to: a cell} is among the view's legal ones (without promotion when
// there is a choice): the whole turn, with no production.
export function preselected(pending, view) {
  const options = (view.legal[pending.piece] || []).filter((m) => m.to === pending.to);
  const found = options.find((m) => !m.promote) || options[0];
  return found ? { move: found.move } : null;
}

// How the bar names a pre-selected movement's piece, by its cell.
export function pieceName(name) {
  const cell = app.state && app.state.view.cells.find((c) => c.cell === name);
  return cell && cell.piece ? t("hivequeen.piece_on", { side: SIDES[cell.piece.side], piece: KINDS[cell.piece.kind], cell: name }) : name;
}

// A click on the opponent's turn: one of the player's pieces, then the cell it goes to; the pending movement's
// piece or cell again cancels it.
export function preselectClick(shell, name, cell) {
  const pending = app.pending;
  if (pending && !app.selected && (name === pending.piece || name === pending.to)) { shell.cancelPending(); return; }
  if (name === app.selected) { app.selected = null; shell.render(); return; }
  if (cell.piece && cell.piece.side === app.state.seats[0]) { app.selected = name; app.hint = null; shell.render(); return; }
  if (app.selected) { shell.play({ piece: app.selected, to: name }); return; }
  if (cell.piece) toast(t("hivequeen.not_yours", { side: SIDES[cell.piece.side], piece: KINDS[cell.piece.kind], cell: name }), false);
}
