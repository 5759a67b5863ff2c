// Hive's pieces and moves in words, for screen readers and the board's tips: "White Soldier Ant 1", "Place White
// Soldier Ant 1 left of Black Spider 1 (wA1 -bS1)".

import { t } from "../i18n.js";
import { centre } from "../hexboard.js";
import { AROUND, BUG_NAMES, colourOf, kindOf, sideName } from "./hive.js";

// A piece's side and bug: "White Soldier Ant".
export function describe(p) { return `${sideName(colourOf(p))} ${BUG_NAMES[kindOf(p)]}`; }
// A piece's accessible name: "White Soldier Ant 1" (the number where the piece has one).
export function spoken(p) { return p.length > 2 ? `${describe(p)} ${p.slice(2)}` : describe(p); }

const SIDES_OF = ["right", "lower_right", "lower_left", "left", "upper_left", "upper_right"];

// A destination's accessible name, in words and in the notation: "Place White Soldier Ant 1 left of Black Spider 1
// (wA1 -bS1)", "Move White Beetle 1 on top of Black Queen Bee (wB1 bQ)".
export function destination(view, d) {
  const piece = d.move.split(" ")[0];
  const verb = view.hands.some((hand) => hand.includes(piece)) ? "place" : "move";
  const ref = d.move.split(" ")[1];
  let where = t("hive.to_start");
  if (ref) {
    const name = ref.replace(/[-/\\]/g, "");
    const cell = view.cells.find((c) => c.stack.includes(name));
    if (name === ref) where = t("hive.on_top_of", { piece: spoken(name) });
    else if (cell) where = relative(cell, name, d.to);
  }
  return t(`hive.${verb}`, { piece: spoken(piece), where, move: d.move });
}

// Where a cell is from a piece's cell: "left of Black Spider 1".
function relative(cell, name, to) {
  const [x0, y0] = centre(cell.q, cell.r), [x1, y1] = centre(to[0], to[1]);
  const sixth = Math.round(Math.atan2(y1 - y0, x1 - x0) / (Math.PI / 3) + 6) % 6; // 0: right, clockwise
  return t(`hive.where_${SIDES_OF[sixth]}`, { piece: spoken(name) });
}

// Where a free cell is, from the first piece beside it.
export function beside(view, to) {
  for (const [dq, dr] of AROUND) {
    const cell = view.cells.find((c) => c.q === to[0] + dq && c.r === to[1] + dr);
    if (cell) return relative(cell, cell.stack[cell.stack.length - 1], to);
  }
  return t("hive.to_start");
}
