// The page's shared state and small DOM helpers, for the shell and the game modules.

export const app = {
  assets: null, // glyphs, themes, AI levels and the games on offer, from /api/assets
  games: {}, // the games on offer by kind: title, summary, sides, record, rules page
  gameId: null,
  token: null,
  state: null, // the game as the server last sent it
  selected: null, // what the player picked up: a piece or a cell, in the game's own terms
  flipChosen: false,
  review: null, // {ply, view}: an earlier position on show
  analysis: null, // {line, ply, view, end}: a position of the analysis board on show (analysis.js)
  lines: null, // {lines, writable}: the lines explored in the open game, as the server lists them
  hint: null, // the hinted move, in the game module's own terms
  pending: null, // a move chosen but not sent: pre-selected, or waiting for confirmation (premove.js)
  evalOn: false,
  bannerClosed: null, // the game whose result banner the player closed
};
window.app = app; // the page's state, from the browser's console

export const $ = (id) => document.getElementById(id);

// An HTML element with a class and a text.
export function h(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = text;
  return node;
}

const loading = new Set(); // the stylesheets linked and not yet loaded, as promises

// A module's own stylesheet, linked once (the shell's style.css holds nothing of any one game or domain).
export function stylesheet(url) {
  const href = String(url);
  if ([...document.querySelectorAll("link[rel=stylesheet]")].some((link) => link.href === href)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  const done = new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true }); // unstyled rather than never drawn
  }).then(() => { loading.delete(done); });
  loading.add(done);
  document.head.append(link);
}

// Resolves once every stylesheet linked so far has loaded: what is drawn then is drawn with its style, never
// unstyled for a moment (a game's hands, counts and board come with the game module's sheet).
export async function stylesheetsLoaded() {
  while (loading.size) await Promise.all([...loading]);
}

// A message for a few seconds, in a place of its own that covers nothing: beside the board under the game's status
// while a game shows, else under the top bar (the page moves down to make room).
export function toast(message, error = true) {
  const t = $("toast");
  const home = $("toast-home");
  const place = home && home.offsetParent !== null ? home : $("messages");
  if (t.parentElement !== place) place.append(t);
  t.textContent = message;
  t.className = "toast" + (error ? " error" : "");
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 4200);
}
