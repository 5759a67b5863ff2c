// The tabs in the middle of the game's column (game.css): Moves, and where the game has them Chat, Review (with the
// engine) and Invite (a two-browser game's links). A tab shows when its box may show (the box's own module says so
// by its hidden attribute); on a wide window the chosen tab's box alone shows, on a phone every box, one under
// another (the strip is not shown there). The arrow keys, Home and End move along the strip, as in any tab list.

import { $, app } from "../page.js";
import { scrollMoves } from "./panel.js";

const WIDE = window.matchMedia("(min-width: 861px)");
let chosen = "moves";
let chosenFor = null; // the game the choice was made in: another game starts on its moves (or its invitation)
let invited = null; // the game whose invitation tab the page chose by itself (the player has not chosen since)
let decided = null; // the game in which the page made that choice: once a game
const listeners = [];

function tabs() { return [...$("side-tabs").querySelectorAll("[role=tab]")]; }
function boxOf(tab) { return $(tab.getAttribute("aria-controls")); }

// Whether the box of tab name is in sight: its tab is chosen, or the window shows every box.
export function tabShown(name) {
  const tab = tabs().find((t) => t.dataset.tab === name);
  return !!tab && !boxOf(tab).hidden && (!WIDE.matches || chosen === name);
}

// Call back fn(name) when a tab is chosen.
export function onTab(fn) { listeners.push(fn); }

export function chooseTab(name, focus = false) {
  const tab = tabs().find((t) => t.dataset.tab === name && !t.hidden);
  if (!tab) return;
  const changed = chosen !== name;
  chosen = name;
  if (name !== "share") invited = null;
  syncTabs();
  if (focus) tab.focus();
  if (name === "moves") scrollMoves();
  if (changed) for (const fn of listeners) fn(name);
}

// After every drawing: a tab for each box that may show, the choice kept while its box may.
export function syncTabs() {
  const s = app.state;
  const id = s ? s.id : null;
  if (id !== chosenFor) { chosenFor = id; chosen = "moves"; invited = null; }
  // a new two-browser game opens on its invitation until the opponent has come
  const waiting = !!s && s.seats.length === 1 && !s.joined[1 - s.seats[0]];
  if (s && !$("share").hidden && !s.moves.length && waiting && decided !== id) {
    decided = id;
    if (chosen === "moves") { chosen = "share"; invited = id; }
  } else if (invited === id && chosen === "share" && !waiting) {
    chosen = "moves"; // the opponent came: back to the moves
    invited = null;
  }
  for (const tab of tabs()) tab.hidden = boxOf(tab).hidden;
  if (tabs().every((tab) => tab.hidden || tab.dataset.tab !== chosen)) chosen = "moves";
  for (const tab of tabs()) {
    const on = tab.dataset.tab === chosen;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    boxOf(tab).classList.toggle("tab-off", !on);
  }
}

export function wireTabs() {
  for (const tab of tabs()) tab.onclick = () => chooseTab(tab.dataset.tab);
  $("side-tabs").addEventListener("keydown", (evt) => {
    const shown = tabs().filter((t) => !t.hidden);
    const at = shown.findIndex((t) => t.dataset.tab === chosen);
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: shown.length - 1 }[evt.key];
    if (to === undefined) return;
    evt.preventDefault();
    evt.stopPropagation(); // not the review's arrows
    chooseTab(shown[(to + shown.length) % shown.length].dataset.tab, true);
  });
  WIDE.addEventListener("change", () => { syncTabs(); scrollMoves(); });
  // the list's box changes with what is around it (a message, an offer, a hand's second row): the move on show stays
  new ResizeObserver(() => scrollMoves()).observe($("movelist"));
}
