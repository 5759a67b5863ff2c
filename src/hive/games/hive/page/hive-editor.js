// Hive's part of the board editor (editor.js; its verbs are listed at the top of main.js): the bugs of the game type
// chosen, stacks by axial cell ("q,r"), bottom first, a piece placed on an occupied cell going on top.

import { t } from "../i18n.js";
import { hexAt } from "../hexboard.js";
import { AROUND, BUGS, BUG_NAMES, colourOf, key, kindOf, miniTile, renderBoard } from "./hive.js";

const COPIES = { Q: 1, S: 2, B: 2, G: 3, A: 3, M: 1, L: 1, P: 1 };

// The pieces each side may put in play with these options: a key per bug ("wS") and its number of copies.
export function editorPieces(opts) {
  const letters = "QSBGA" + (opts.game_type || "Base").replace(/^Base\+?/, "");
  return ["w", "b"].map((colour) => [...BUGS].filter((bug) => letters.includes(bug)).map((bug) => ({ key: colour + bug, count: COPIES[bug] })));
}

// A palette piece's picture.
export function editorPicture(key, size) { return miniTile(key, size); }

// The editor's position from a view: the stacks by cell ("q,r"), bottom first.
export function editorFrom(view) {
  return Object.fromEntries(view.cells.map((c) => [key(c.q, c.r), [...c.stack]]));
}

// The view the board draws for the editor's cells (the position before the server has checked it).
export function editorView(cells) {
  const list = Object.entries(cells).map(([k, stack]) => { const [q, r] = k.split(",").map(Number); return { q, r, stack }; });
  const queens = ["wQ", "bQ"].map((queen) => {
    const c = list.find((cell) => cell.stack.includes(queen));
    if (!c) return null;
    return { q: c.q, r: c.r, surrounded: AROUND.filter(([dq, dr]) => cells[key(c.q + dq, c.r + dr)]).length };
  });
  return { cells: list, queens, legal: {}, last: null, hands: [[], []] };
}

// The position record of the editor's cells, with the turn string ("Black[4]").
export function editorText(cells, turn, opts) {
  const stacks = Object.entries(cells).map(([k, stack]) => `${stack.join("/")}@${k}`);
  return `Position;${opts.game_type || "Base"};${turn};${stacks.join(" ")}`;
}

// The cell under the pointer, and the piece a key puts there (a Hive piece goes on top of a stack): the copy of
// the bug with the lowest number not yet in play.
export function editorCell(evt) { const [q, r] = hexAt(evt); return key(q, r); }
export function editorPlace(cells, pieceKey, cell) {
  const inPlay = new Set(Object.values(cells).flat());
  const whole = COPIES[pieceKey[1]] === 1 || /\d$/.test(pieceKey); // a piece moved keeps its name
  const name = whole ? pieceKey : [1, 2, 3].map((n) => pieceKey + n).find((n) => !inPlay.has(n));
  if (!name || inPlay.has(name)) return t("hive.every_in_play", { piece: BUG_NAMES[kindOf(pieceKey)] });
  (cells[cell] ??= []).push(name);
  return null;
}

// Take the top piece of a cell off the board; what app.selected names to show a piece's legal moves.
export function editorTake(cells, cell) {
  const stack = cells[cell];
  if (!stack) return null;
  const piece = stack.pop();
  if (!stack.length) delete cells[cell];
  return piece;
}
export function editorSelect(cells, cell) { const stack = cells[cell]; return stack ? stack[stack.length - 1] : null; }
export function editorDraw() { renderBoard(); }

// The lowest turn at which each side has had a turn for every piece it has in play.
export function editorLeast(cells, seat) {
  const pieces = Object.values(cells).flat();
  const have = [0, 1].map((s) => pieces.filter((p) => colourOf(p) === s).length);
  let ply = seat;
  while (Math.ceil(ply / 2) < have[0] || Math.floor(ply / 2) < have[1]) ply += 2;
  return Math.floor(ply / 2) + 1;
}
