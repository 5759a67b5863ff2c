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
//   reset() (a new position: drop what was being built), cancelTurn() (true when it dropped a turn), escape();
//   the board editor's verbs (editor.js), on its cells (an object of piece stacks, bottom first, by the cell's key):
//   editorPieces(options) (each side's palette: [{key, count}], count null for no limit), editorPicture(key, size),
//   editorFrom(view) (the cells of a checked position), editorView(cells) (a view to draw), editorDraw(view),
//   editorText(cells, turn, options) (the position record), editorCell(evt) (the key of the cell pressed),
//   editorPlace(cells, key, cell) (a refusal's text, or null), editorTake(cells, cell) (the piece taken),
//   editorSelect(cells, cell) (what app.selected names to show a piece's legal moves), editorLeast(cells, seat)
//   (the least turn number the pieces in play need);
//   optionally preselected(pending, view) and pieceName(piece): a move chosen on the opponent's turn (premove.js).

import { serverText, t } from "./i18n.js"; // the page's texts in its language, loaded before anything is drawn
import { dropPick, frame, keepingFocus, wireBoard } from "./hexboard.js";
import { api, connect, disconnect } from "./net.js";
import { $, app, h, stylesheetsLoaded, toast } from "./page.js";
import { newGameFrom, wireDialogs } from "./play/dialogs.js";
import { LEVEL_NAMES, cardHead, engineAllowed, renderSide } from "./play/panel.js";
import { announce, noticeMove, setTitle, wireSound } from "./play/alerts.js";
import { declineRematch, hideLobby, rematch, showLobby, wireLobby } from "./lobby/lobby.js";
import { keepToken, resolveSeat, takeLinkToken } from "./play/seats.js";
import { closeEditor, editorBoard, openEditor, renderEditor, startPly } from "./editor.js";
import * as analysis from "./analysis/analysis.js";
import { followEngineReview, renderEngineReview, wireEngineReview } from "./analysis/engine_review.js";
import { csrfHeaders, signedIn, wireAccount } from "./players/account.js";
import { wireLanguage } from "./language.js";
import { wireSettings } from "./settings.js";
import { wireSeeks } from "./lobby/seeks.js";
import { hideTournament, renderGameTournament, showTournament, wireTournaments } from "./tournaments/tournaments.js";
import { chatEvent, renderChat, wireChat } from "./chat/gamechat.js";
import { seenGame, wireNotices } from "./players/notices.js";
import { hideLeaderboard, renderRatingChange, showLeaderboard, wirePlayers } from "./players/players.js";
import { hideProfile, showProfile, wireProfile } from "./players/profile.js";
import { wireBots } from "./bots/bots.js";
import { wireFollows } from "./players/follows.js";
import { syncTabs, wireTabs } from "./play/sidetabs.js";
import { hint, refreshEval, toggleEval, wireEvalbar } from "./play/evalbar.js";
import { exitReview, reviewStep, reviewText, showReview, wireReview } from "./play/review.js";
import { cancelPending, followState, holdMove, mayPreselect, wirePremove } from "./play/premove.js";
import { wirePush } from "./push/push.js";
import { hideAdmin, showAdmin, wireAdmin } from "./moderation/admin.js";
import { hideReset, showReset, wireRecovery } from "./players/recovery.js";

const modules = {};
let game = null;

// The page module of the games of this kind (loaded once).
function gameFor(kind) {
  modules[kind] ??= import(`./games/${kind}.js`).then(async (module) => {
    module.init(shell);
    await stylesheetsLoaded();
    return module;
  });
  return modules[kind];
}

// What the server says of the open game's kind, or of the first game on offer when none is open.
function gameInfo() { return app.games[app.editor ? app.editor.kind : app.state ? app.state.kind : app.assets.games[0].kind]; }

function currentView() { return app.editor ? app.editor.view : app.analysis ? app.analysis.view : app.review ? app.review.view : app.state && app.state.view; }

function canAct() {
  const s = app.state;
  if (s && app.analysis) return analysis.analysisCanAct();
  return s && !app.review && !s.result && !s.thinking && s.seats.includes(s.view.turn);
}

// Why the player cannot move now, or null.
function refusal() {
  const s = app.state;
  if (app.analysis) return analysis.analysisRefusal();
  if (s.result) return t("main.game_is_over");
  if (!s.seats.length) return t("main.watching");
  if (s.thinking) return t("main.ai_thinking");
  if (!s.seats.includes(s.view.turn)) return t("main.their_turn", { side: game.sideName(s.view.turn) });
  return null;
}

async function explain(piece, fallback) {
  try {
    const data = await api("POST", `/api/games/${app.gameId}/why`, { piece, ...analysis.at() });
    toast(serverText(data.reason) || fallback);
  } catch (err) {
    toast(err.message);
  }
}

// ------------------------------------------------------------------ drawing

function render() { keepingFocus(draw); }

function draw() {
  const theme = app.state && app.state.options.set === "warm-cool" ? "warm-cool" : "default";
  document.body.classList.remove("theme-default", "theme-warm-cool");
  document.body.classList.add(`theme-${theme}`);
  document.body.classList.toggle("no-game", !app.state);
  for (const name of [...document.body.classList]) if (name.startsWith("game-")) document.body.classList.remove(name);
  if (game && app.state) {
    game.renderBoard();
    renderSide(game, canAct, showReview);
    game.renderPanel();
    renderEngineReview();
    renderChat();
    renderRatingChange((seat) => game.sideName(seat));
    renderGameTournament();
    document.body.classList.add(`game-${app.state.kind}`);
  }
  syncTabs();
  const info = gameInfo();
  $("brand-name").textContent = info.title;
  $("board").setAttribute("aria-label", t("main.board_label", { game: info.title }));
  $("btn-io").title = t("main.import_export_title", { record: info.record });
  $("link-rules").hidden = !info.rules;
  if (info.rules) {
    $("link-rules").href = info.rules;
    // the whole "How to play <game>", or "Rules" where a desktop's row is short of room (style.css)
    $("link-rules").replaceChildren(h("span", "rules-long", t("top.rules_link", { game: info.title })), h("span", "rules-short", t("top.rules_short")));
  }
  $("evalbar").hidden = !app.evalOn || !(game && game.evaluation) || !engineAllowed();
  $("review").hidden = !app.review;
  if (app.review) $("review-text").textContent = reviewText(app.review.ply);
  for (const id of ["btn-first", "btn-prev", "btn-review-prev"]) $(id).disabled = !app.state || !app.state.moves.length || (app.review && !app.review.ply);
  for (const id of ["btn-next", "btn-last", "btn-review-next"]) $(id).disabled = !app.review;
  analysis.renderAnalysis();
  if (app.state) setTitle(`${app.state.result ? t("alerts.game_over") : t("main.to_move", { side: game.sideName(app.state.view.turn) })} · ${info.title}`);
  if (app.editor) renderEditor();
}

// ------------------------------------------------------------------ actions

// A move the player made: pre-selected or held for confirmation (premove.js), else sent.
async function play(body) {
  if (!app.state) return;
  if (app.analysis) { await analysis.analysisPlay(body); return; }
  const list = app.selected ? app.state.view.legal[app.selected] : null;
  const picked = Array.isArray(list) ? list.find((d) => d && d.move === body.move) : null;
  if (holdMove(body, app.selected, picked && picked.to)) { app.selected = null; render(); return; }
  await sendMove(body);
}

// The one path a move is sent by (the server checks the turn and the ply it names).
async function sendMove(body) {
  if (!app.state) return;
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
  if (!app.state) { toast(t("main.open_first")); return; }
  try {
    await setState(await api("POST", `/api/games/${app.gameId}/${name}`, body));
  } catch (err) {
    toast(err.message);
  }
}

function forgetPick() {
  app.selected = null; app.hint = null; app.review = null;
}

// Undo and redo run one at a time in the order asked, each checked against the position the last one left: a key
// pressed before the last answer arrived waits for it instead of being lost. Each names the position it was asked
// on, so that the server refuses one that another tab overtook.
let stepping = Promise.resolve();

function step(name, allowed) {
  stepping = stepping.then(async () => {
    if (!app.state || !allowed()) return;
    forgetPick();
    await action(name, { ply: app.state.moves.length });
  });
}

const canUndo = () => app.state.seats.length > 0 && !$("btn-undo").disabled;
const canRedo = () => app.state.seats.length > 0 && !$("btn-redo").disabled && !$("btn-redo").hidden;

function undo() {
  if (!app.state) return;
  if (app.state.mode === "online") {
    if (!canUndo()) return;
    forgetPick();
    if (game.cancelTurn()) render(); // first drop the turn being built
    else action("undo");
    return;
  }
  if (canUndo() && game.cancelTurn()) { forgetPick(); render(); return; }
  step("undo", canUndo);
}

function redo() {
  if (app.state) step("redo", canRedo);
}

function flip() {
  frame.flipped = !frame.flipped;
  app.flipChosen = true;
  frame.userMoved = false;
  render();
}

// ------------------------------------------------------------------ games and the server

async function setState(state) {
  const next = await gameFor(state.kind);
  const old = app.state;
  if (old && old.id === state.id && state.version < old.version) {
    return; // a reply that arrived after a newer update over the socket (the game's version is the database's)
  }
  const first = !old || old.id !== state.id;
  const grew = old && state.moves.length !== old.moves.length;
  const ended = old && !old.result && state.result; // a resignation, an agreement, a flag: no move, a new result
  if (game && game !== next) { game.reset(); game.hide(); }
  game = next;
  noticeMove(old, state);
  noticeAnswer(old, state);
  app.state = state;
  announce(old, state, (seat) => game.sideName(seat), startPly(state));
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
  // a piece picked early (pre-selection) is not in the legal moves: it stays picked while the turn has not come
  if (app.selected && !state.view.legal[app.selected] && !mayPreselect()) app.selected = null;
  analysis.analysisFollows(state, first, grew);
  render();
  followEngineReview();
  if (grew || first || ended) refreshEval();
  followState(state);
}

// Tell the player whose offer the opponent declined (the state says what its last change was, and by whom).
function noticeAnswer(old, state) {
  const event = state.event;
  if (!old || old.id !== state.id || !event || !event.declined || old.version >= state.version) return;
  if (state.seats.length !== 1 || !state.seats.includes(event.offered_by)) return;
  const who = state.names[event.by] || state.sides[event.by];
  toast(t(event.declined === "draw" ? "main.declined_draw" : "main.declined_takeback", { who }), false);
}

// Show game id with the token this browser holds for it (see seats.js); warning: what the page says about the
// link it was opened by; review: start by reviewing the game from its first move.
async function openGame(id, { warning = null, review = false } = {}) {
  closeEditor();
  hideLobby();
  if (app.gameId !== id) { app.state = null; app.review = null; app.evalOn = false; }
  app.gameId = id;
  app.token = (await resolveSeat(id, null)).token;
  localStorage.setItem("hive.last", id);
  app.flipChosen = false;
  showWarning(warning);
  try {
    await setState(await api("GET", `/api/games/${id}`));
    if (app.state.seats.length && !app.token && app.assets.accounts) { // a seat of the signed-in account's
      const seat = await api("GET", `/api/games/${id}/seat`, undefined, null);
      keepToken(id, seat.token);
      app.token = seat.token;
    }
  } catch (err) {
    toast(err.message);
    if (err.status === 404) { localStorage.removeItem("hive.last"); app.gameId = null; app.state = null; showWelcome(); render(); return; }
  }
  seenGame(id);
  connect((state) => setState(state).catch((err) => toast(err.message)), app.assets.accounts ? chatEvent : null);
  if (review && app.state && app.state.moves.length) showReview(0);
}

function showWarning(text) {
  $("seat-warning").hidden = !text;
  $("seat-warning").textContent = text || "";
  if (text) toast(text);
}

async function createGame(body) {
  try {
    const data = await api("POST", "/api/games", body, null);
    keepToken(data.id, data.token, data.invite);
    history.pushState(null, "", `/game/${data.id}`);
    app.state = null;
    app.selected = null;
    app.hint = null;
    await openGame(data.id);
    // what the reader of an imported record accepted with a warning, as the command line's replay prints it
    if (data.warnings && data.warnings.length) {
      const more = data.warnings.length - 1;
      toast(t(more ? "main.imported_warnings" : "main.imported_warning", { warning: data.warnings[0], count: more }), false);
    }
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
  $("status").textContent = t("main.no_game_yet");
}

async function route() {
  const m = location.pathname.match(/^\/game\/([\w-]+)/);
  if (location.pathname !== "/editor") closeEditor();
  hideTournament();
  hidePlayerPages();
  const link = takeLinkToken();
  if (m) {
    const { token, warning } = await resolveSeat(m[1], link);
    if (token) keepToken(m[1], token);
    await openGame(m[1], { warning });
    return;
  }
  disconnect();
  app.state = null;
  app.gameId = null;
  app.token = null;
  $("toast").hidden = true; // a game's message does not follow the player to the list or the editor
  if (location.pathname === "/editor") { hideLobby(); await openEditor(editorHooks); return; }
  const t = location.pathname.match(/^\/tournament\/([\w-]+)/);
  if (t) { hideLobby(); $("layout").hidden = true; await showTournament(t[1]); return; }
  if (app.assets.accounts && (await showPlayerPage() || await showAccountPage())) return;
  await showLobby();
}

// A player's profile (/player/{name}) or the leaderboard, on a server with accounts: true when the address is one.
async function showPlayerPage() {
  const p = location.pathname.match(/^\/player\/([^/]+)$/);
  if (!p && location.pathname !== "/leaderboard") return false;
  hideLobby();
  $("layout").hidden = true;
  if (p) await showProfile(decodeURIComponent(p[1]));
  else await showLeaderboard();
  return true;
}

// The admin screen (/admin) or a password's reset link (/reset/{token}): true when the address is one.
async function showAccountPage() {
  const show = location.pathname === "/admin" ? showAdmin : location.pathname.startsWith("/reset/") ? showReset : null;
  if (!show) return false;
  hideLobby();
  $("layout").hidden = true;
  await show();
  return true;
}

function hidePlayerPages() {
  if (!app.assets.accounts) return;
  hideProfile();
  hideLeaderboard();
  hideAdmin();
  hideReset();
}

// ------------------------------------------------------------------ wiring

// Close the phone's ☰ menu; true when it was open.
function closeMenu() {
  const open = document.body.classList.contains("menu-open");
  document.body.classList.remove("menu-open");
  $("btn-menu").setAttribute("aria-expanded", "false");
  return open;
}

function wireKeys() {
  window.addEventListener("keydown", (evt) => {
    if (evt.key === "Escape" && closeMenu()) return;
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
    else if (k === "a") $("btn-analyse").click();
    else if (k === "escape") { cancelPending(); dropPick(); app.selected = null; app.review = null; if (game) game.escape(); render(); }
    else if (k === "arrowleft") reviewStep(-1);
    else if (k === "arrowright" && (app.review || app.analysis)) reviewStep(1);
    else if ((k === "home" || k === "end") && !evt.defaultPrevented && app.state && !app.analysis && !document.body.classList.contains("at-lobby")) {
      evt.preventDefault(); // the first position, or back to the game's (the board's cells take these keys first)
      reviewStep(k === "home" ? -Infinity : Infinity);
    }
  });
}

async function wire() {
  wireBoard(() => (app.editor ? editorBoard : app.state ? game : null), () => { if (app.editor) renderEditor(); else if (game && app.state) game.renderBoard(); });
  $("btn-flip").onclick = flip;
  $("btn-undo").onclick = undo;
  $("btn-redo").onclick = redo;
  $("btn-pass").onclick = () => play({ move: "pass" });
  $("btn-hint").onclick = hint;
  $("btn-eval").onclick = toggleEval;
  $("btn-resign").onclick = () => { if (confirm(t("main.confirm_resign"))) action("resign"); };
  $("btn-abort").onclick = () => { if (confirm(t("main.confirm_abort"))) action("abort"); };
  $("btn-draw").onclick = () => action("offer", { what: "draw" });
  $("btn-accept").onclick = () => action("answer", { accept: true });
  $("btn-decline").onclick = () => action("answer", { accept: false });
  $("btn-review-exit").onclick = exitReview;
  const steps = [["btn-first", -Infinity], ["btn-prev", -1], ["btn-review-prev", -1], ["btn-next", 1], ["btn-last", Infinity], ["btn-review-next", 1]];
  for (const [id, delta] of steps) {
    $(id).onclick = () => reviewStep(delta);
  }
  $("btn-banner-close").onclick = () => { app.bannerClosed = app.state && app.state.id; $("banner").hidden = true; };
  $("btn-banner-review").onclick = () => { app.bannerClosed = app.state.id; showReview(0); };
  $("btn-banner-rematch").onclick = () => rematch(app.gameId, app.token);
  $("btn-banner-decline").onclick = () => { if (app.state && app.state.rematch_offer) declineRematch(app.state.rematch_offer); };
  $("btn-help-yes").onclick = () => action("help", { help: true });
  $("btn-help-no").onclick = () => action("help", { help: false });
  $("btn-menu").onclick = () => {
    const open = document.body.classList.toggle("menu-open");
    $("btn-menu").setAttribute("aria-expanded", String(open));
  };
  $("actions").addEventListener("click", (evt) => { if (evt.target.closest("button, a")) closeMenu(); });
  // a tap anywhere but on the menu closes it, as Esc does
  document.addEventListener("pointerdown", (evt) => { if (!evt.target.closest("#actions, #btn-menu")) closeMenu(); });
  $("link-games").onclick = (evt) => { evt.preventDefault(); history.pushState(null, "", "/"); route(); };
  $("brand").onclick = (evt) => { evt.preventDefault(); history.pushState(null, "", "/"); route(); };
  $("btn-lobby-new").onclick = () => $("btn-new").click();
  for (const id of ["link-editor", "btn-lobby-editor"]) $(id).onclick = (evt) => { evt.preventDefault(); history.pushState(null, "", "/editor"); route(); };
  wireEvalbar({ game: () => game, render, canAct });
  wireReview({ render });
  wireEngineReview(showReview, render);
  wireTabs();
  analysis.wireAnalysis({ render, refreshEval, game: () => game });
  wireLobby((id, opts) => { history.pushState(null, "", `/game/${id}`); return openGame(id, opts); });
  const dialogs = wireDialogs(app.assets.games, { loadModule: gameFor, createGame });
  const account = wireAccount();
  wirePush();
  wireTournaments((path) => { history.pushState(null, "", path); route(); }, (id) => { history.pushState(null, "", `/game/${id}`); return openGame(id); });
  wirePlayers((path) => { history.pushState(null, "", path); route(); }, (id, opts) => { history.pushState(null, "", `/game/${id}`); return openGame(id, opts); });
  if (app.assets.accounts) {
    wireProfile();
    wireAdmin((path) => { history.pushState(null, "", path); route(); });
    wireRecovery();
  }
  wireBots();
  wireFollows();
  const seeks = wireSeeks((id) => { history.pushState(null, "", `/game/${id}`); return openGame(id); }, gameFor);
  wireChat();
  wireNotices((id) => { history.pushState(null, "", `/game/${id}`); return openGame(id); }, (path) => { history.pushState(null, "", path); route(); });
  wireSound();
  wireSettings();
  wirePremove({ send: sendMove, render, game: () => game });
  wireLanguage(() => (signedIn() ? csrfHeaders()["x-csrf-token"] : null));
  wireKeys();
  window.addEventListener("popstate", route);
  await Promise.all([dialogs, account, seeks]);
}

// What the board editor asks of the shell: a game's page module, a new game, the New game dialog for a position,
// and the analysis of the game just made from it (the evaluation, and the analysis board when the page has one).
function analyseNew() {
  if (!app.evalOn) toggleEval();
  if ($("btn-analyse") && !app.analysis) $("btn-analyse").click();
}
const editorHooks = { gameFor, createGame, newGameFrom, analyse: analyseNew, render };

const shell = {
  canAct, refusal, explain, currentView, render, play, at: analysis.at, mayPreselect, cancelPending,
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
  await route();
  await stylesheetsLoaded();
  document.body.dataset.ready = "1";
}

main().catch((err) => toast(err.message));
