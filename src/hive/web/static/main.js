// The page's shell: routing, the game's state from the server, the actions behind the controls, the keys. The side
// panel is panel.js's, the dialogs dialogs.js's, the board's SVG and pointer hexboard.js's. Everything about one game
// is its page module, games/<kind>.js, loaded by its kind (every game's at the start, for the New game dialog); the
// rest the page knows of a game (its title, sides, record, rules page) is the server's, in app.games[kind].
// Every game module exports the same interface:
//   intro (how to play it with the pointer), evaluation (an evaluation bar), flipTitle, SIDES (as in results);
//   init(shell) (adds the module's own elements to the page), hide() (another game is shown: hide them);
//   renderOptions(box, info), options(box) (its New game fields, drawn into the dialog's box and read back);
//   sideName(seat), info(state), phase(), reasonText(reason);
//   renderBoard(), renderCard(card, seat), renderPanel();
//   press(evt) (a drag controller or null), click(evt), hover(evt, dragging), leave(), hint(data);
//   reset() (a new position: drop what was being built), cancelTurn() (true when it dropped a turn), escape().

import { frame, wireBoard } from "./hexboard.js";
import { api, connect } from "./net.js";
import { $, app, h, toast } from "./page.js";
import { wireDialogs } from "./dialogs.js";
import { LEVEL_NAMES, cardHead, renderControls, renderSide } from "./panel.js";

const modules = {};
let game = null;

// The page module of the games of this kind (loaded once).
function gameFor(kind) {
  modules[kind] ??= import(`./games/${kind}.js`).then((module) => { module.init(shell); return module; });
  return modules[kind];
}

// What the server says of the open game's kind, or of the first game on offer when none is open.
function gameInfo() { return app.games[app.state ? app.state.kind : app.assets.games[0].kind]; }

function currentView() { return app.review ? app.review.view : app.state && app.state.view; }

function canAct() {
  const s = app.state;
  return s && !app.review && !s.result && !s.thinking && s.seats.includes(s.view.turn);
}

// Why the player cannot move now, or null.
function refusal() {
  const s = app.state;
  if (s.result) return "The game is over.";
  if (!s.seats.length) return "You are watching this game: only the players can move.";
  if (s.thinking) return "The AI is thinking.";
  if (!s.seats.includes(s.view.turn)) return `It's ${game.sideName(s.view.turn)}'s turn.`;
  return null;
}

async function explain(piece, fallback) {
  try {
    const data = await api("POST", `/api/games/${app.gameId}/why`, { piece });
    toast(data.reason || fallback);
  } catch (err) {
    toast(err.message);
  }
}

// ------------------------------------------------------------------ drawing

function render() {
  document.body.classList.remove("theme-default", "theme-warm-cool");
  document.body.classList.add(`theme-${app.theme}`);
  for (const name of [...document.body.classList]) if (name.startsWith("game-")) document.body.classList.remove(name);
  if (game && app.state) {
    game.renderBoard();
    renderSide(game, canAct, showReview);
    game.renderPanel();
    document.body.classList.add(`game-${app.state.kind}`);
  }
  const info = gameInfo();
  $("brand-name").textContent = info.title;
  $("board").setAttribute("aria-label", `${info.title} board`);
  $("btn-io").title = `Import or export a ${info.record}`;
  $("link-rules").hidden = !info.rules;
  if (info.rules) {
    $("link-rules").href = info.rules;
    $("link-rules").textContent = `How to play ${info.title}`;
  }
  $("evalbar").hidden = !app.evalOn || !(game && game.evaluation);
  $("review").hidden = !app.review;
  if (app.review) $("review-text").textContent = `Position after move ${app.review.ply} of ${app.state.moves.length}`;
}

// ------------------------------------------------------------------ actions

async function play(body) {
  app.selected = null;
  app.hint = null;
  try {
    await setState(await api("POST", `/api/games/${app.gameId}/move`, { ...body, ply: app.state.moves.length }));
  } catch (err) {
    toast(err.message);
    render();
  }
}

async function action(name, body = {}) {
  try {
    await setState(await api("POST", `/api/games/${app.gameId}/${name}`, body));
  } catch (err) {
    toast(err.message);
  }
}

function undo() {
  if (!app.state || !app.state.seats.length || $("btn-undo").disabled) return;
  app.selected = null; app.hint = null; app.review = null;
  if (game.cancelTurn()) { render(); return; } // first drop the turn being built
  action("undo");
}

function redo() {
  if (!app.state || !app.state.seats.length || $("btn-redo").disabled || $("btn-redo").hidden) return;
  app.selected = null; app.hint = null; app.review = null;
  action("redo");
}

function flip() {
  frame.flipped = !frame.flipped;
  app.flipChosen = true;
  frame.userMoved = false;
  render();
}

async function hint() {
  if (!app.state || app.state.result) return;
  $("btn-hint").disabled = true;
  try {
    const data = await api("GET", `/api/games/${app.gameId}/hint`);
    game.hint(data);
    toast(`Hint: ${data.move}`, false);
    if (game.evaluation) setEval(data);
    render();
  } catch (err) {
    toast(err.message);
  } finally {
    $("btn-hint").disabled = false;
  }
}

function setEval(data) {
  const white = data.white;
  $("eval-white").style.height = `${(white * 100).toFixed(1)}%`;
  const pct = Math.round((white - 0.5) * 200);
  $("eval-text").textContent = pct > 0 ? `+${pct}` : `${pct}`;
  $("evalbar").title = `${game.sideName(0)}'s chances ${(white * 100).toFixed(0)}% (AI at depth ${data.depth})`;
}

async function refreshEval() {
  if (!app.evalOn || !app.state || app.state.result || !game.evaluation) return;
  const moves = app.state.moves.length;
  try {
    const data = await api("GET", `/api/games/${app.gameId}/hint`);
    if (app.state.moves.length === moves) setEval(data);
  } catch (err) { /* the game moved on; the next state asks again */ }
}

function toggleEval() {
  app.evalOn = !app.evalOn;
  $("evalbar").hidden = !app.evalOn;
  if (app.state) renderControls(game, canAct);
  refreshEval();
}

async function showReview(ply) {
  if (ply === app.state.moves.length) { exitReview(); return; }
  try {
    const data = await api("GET", `/api/games/${app.gameId}/position?ply=${ply}`);
    app.review = { ply: data.ply, view: data.view };
    app.selected = null;
    render();
  } catch (err) {
    toast(err.message);
  }
}

function exitReview() {
  app.review = null;
  render();
}

// ------------------------------------------------------------------ games and the server

async function setState(state) {
  const next = await gameFor(state.kind);
  const old = app.state;
  if (old && old.id === state.id && old.version[0] === state.version[0] && state.version[1] < old.version[1]) {
    return; // a reply that arrived after a newer update over the socket
  }
  const first = !old || old.id !== state.id;
  const grew = old && state.moves.length !== old.moves.length;
  if (game && game !== next) { game.reset(); game.hide(); }
  game = next;
  app.state = state;
  if (first || grew) {
    app.selected = null;
    app.hint = null;
    game.reset();
  }
  if (first) {
    app.review = null;
    frame.userMoved = false;
    if (!app.flipChosen) frame.flipped = state.seats.length === 1 && state.seats[0] === 1;
  }
  if (app.selected && !state.view.legal[app.selected]) app.selected = null;
  render();
  if (grew || first) refreshEval();
}

async function openGame(id, token) {
  app.gameId = id;
  app.token = token || localStorage.getItem(`hive.token.${id}`) || null;
  if (token) localStorage.setItem(`hive.token.${id}`, token);
  localStorage.setItem("hive.last", id);
  app.flipChosen = false;
  try {
    await setState(await api("GET", `/api/games/${id}`));
  } catch (err) {
    toast(err.message);
    if (/no game/.test(err.message)) { localStorage.removeItem("hive.last"); showWelcome(); return; }
  }
  connect((state) => setState(state).catch((err) => toast(err.message)));
}

async function createGame(body) {
  try {
    const data = await api("POST", "/api/games", body);
    localStorage.setItem(`hive.token.${data.id}`, data.token);
    if (data.invite) localStorage.setItem(`hive.invite.${data.id}`, data.invite);
    history.pushState(null, "", `/game/${data.id}#seat=${data.token}`);
    app.state = null;
    app.selected = null;
    app.hint = null;
    await openGame(data.id, data.token);
    return true;
  } catch (err) {
    toast(err.message);
    return false;
  }
}

async function showWelcome() {
  const info = app.assets.games[0];
  $("welcome-title").textContent = info.title;
  $("welcome-text").textContent = `${info.summary}. ${(await gameFor(info.kind)).intro}`;
  $("welcome").hidden = false;
  $("status").textContent = "No game yet";
}

function route() {
  const m = location.pathname.match(/^\/game\/([\w-]+)/);
  const seat = new URLSearchParams(location.hash.slice(1)).get("seat");
  if (m) { openGame(m[1], seat); return; }
  const last = localStorage.getItem("hive.last");
  if (last) {
    history.replaceState(null, "", `/game/${last}`);
    openGame(last, null);
    return;
  }
  showWelcome();
  $("dlg-new").showModal();
}

// ------------------------------------------------------------------ wiring

function wireKeys() {
  window.addEventListener("keydown", (evt) => {
    if (evt.target.closest("input, textarea, select, dialog")) return;
    const k = evt.key.toLowerCase();
    if ((evt.ctrlKey || evt.metaKey) && k === "z" && !evt.shiftKey) { evt.preventDefault(); undo(); }
    else if ((evt.ctrlKey || evt.metaKey) && (k === "y" || (k === "z" && evt.shiftKey))) { evt.preventDefault(); redo(); }
    else if (evt.ctrlKey || evt.metaKey || evt.altKey) return;
    else if (k === "u") undo();
    else if (k === "r") redo();
    else if (k === "f") flip();
    else if (k === "h") hint();
    else if (k === "e") toggleEval();
    else if (k === "escape") { app.selected = null; app.review = null; if (game) game.escape(); render(); }
    else if (k === "arrowleft" && app.state) showReview(Math.max(0, (app.review ? app.review.ply : app.state.moves.length) - 1));
    else if (k === "arrowright" && app.review) showReview(app.review.ply + 1);
  });
}

async function wire() {
  wireBoard(() => (app.state ? game : null), () => { if (game && app.state) game.renderBoard(); });
  $("btn-flip").onclick = flip;
  $("btn-undo").onclick = undo;
  $("btn-redo").onclick = redo;
  $("btn-pass").onclick = () => play({ move: "pass" });
  $("btn-hint").onclick = hint;
  $("btn-eval").onclick = toggleEval;
  $("btn-resign").onclick = () => { if (confirm("Resign this game?")) action("resign"); };
  $("btn-draw").onclick = () => action("offer", { what: "draw" });
  $("btn-accept").onclick = () => action("answer", { accept: true });
  $("btn-decline").onclick = () => action("answer", { accept: false });
  $("btn-review-exit").onclick = exitReview;
  const dialogs = wireDialogs(app.assets.games, { loadModule: gameFor, createGame });
  const themeSelect = $("theme");
  themeSelect.value = app.theme;
  themeSelect.addEventListener("change", () => {
    app.theme = themeSelect.value;
    localStorage.setItem("hive.theme", app.theme);
    render();
  });
  wireKeys();
  window.addEventListener("popstate", route);
  await dialogs;
}

const shell = {
  canAct, refusal, explain, currentView, render, play,
  cardHead: (card, seat, view, swatch) => cardHead(game, card, seat, view, swatch),
};

async function main() {
  app.assets = await api("GET", "/api/assets");
  app.games = Object.fromEntries(app.assets.games.map((info) => [info.kind, info]));
  document.title = app.assets.games[0].title;
  const level = $("ai-level");
  for (const name of app.assets.levels) {
    const option = h("option", "", LEVEL_NAMES[name] || name);
    option.value = name;
    level.append(option);
  }
  level.value = "easy";
  await wire();
  render();
  route();
  document.body.dataset.ready = "1";
}

main().catch((err) => toast(err.message));
