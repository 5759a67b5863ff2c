// The pop-up that lists a stack's pieces, top first: shown on hover with a mouse, after a long press on a touch
// screen (which has no hover), and for a piece of the other side's that was clicked.

import { t } from "../i18n.js";
import { $, h } from "../page.js";
import { miniTile } from "./hive.js";
import { describe } from "./hive-words.js";

const LONG_PRESS = 480; // ms a finger rests on a piece to open its stack

let pop = null;
let view = null; // the shell's currentView

// Adds the pop-up to the board's area; currentView() is the position on show.
export function makeStackPop(currentView) {
  view = currentView;
  pop = h("div", "stack-pop");
  pop.id = "stack-pop";
  pop.hidden = true;
  $("board-area").append(pop);
}

export function hideStack() { pop.hidden = true; }

let holding = null; // the timer of a finger resting on a piece

// A finger resting on a piece opens its stack (touch screens have no hover); lifting or moving it first does not.
export function holdToShow(piece, evt) {
  clearTimeout(holding);
  if (evt.pointerType === "mouse") return;
  const start = { x: evt.clientX, y: evt.clientY };
  const stop = (e) => {
    if (e.type === "pointermove" && Math.hypot(e.clientX - start.x, e.clientY - start.y) < 8) return;
    clearTimeout(holding);
    window.removeEventListener("pointermove", stop);
    window.removeEventListener("pointerup", stop);
  };
  window.addEventListener("pointermove", stop);
  window.addEventListener("pointerup", stop);
  holding = setTimeout(() => { stop({ type: "done" }); showStack(piece, { clientX: start.x, clientY: start.y }, true); }, LONG_PRESS);
}

export function showStack(pieceEl, evt, held = false) {
  const [q, r] = pieceEl.dataset.cell.split(",").map(Number);
  const cell = view().cells.find((c) => c.q === q && c.r === r);
  if (!cell) { pop.hidden = true; return; }
  pop.innerHTML = "";
  pop.append(h("div", "stack-title", cell.stack.length > 1 ? t("hive.stack_of", { count: cell.stack.length }) : t("hive.piece")));
  for (const p of cell.stack.slice().reverse()) {
    const row = h("div", "stack-row");
    row.append(miniTile(p, 26), document.createTextNode(`${describe(p)} · ${p}`));
    pop.append(row);
  }
  const area = $("board-area").getBoundingClientRect();
  pop.hidden = false;
  pop.classList.toggle("held", held);
  const x = Math.min(evt.clientX - area.left + 14, area.width - pop.offsetWidth - 6);
  const y = Math.min(evt.clientY - area.top + 14, area.height - pop.offsetHeight - 6);
  pop.style.left = `${Math.max(6, x)}px`;
  pop.style.top = `${Math.max(6, y)}px`;
}
