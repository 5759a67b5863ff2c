// The side panel: the two sides' cards (their heads and clocks here, the rest the game's), the status and offers,
// the move list (with the time each move used), the controls and the share box.

import { frame } from "../hexboard.js";
import { api } from "../net.js";
import { $, app, h, toast } from "../page.js";
import { clockFor, usedFor } from "./clocks.js";
import { markFor } from "../analysis/engine_review.js";
import { analysisStatus, renderLines } from "../analysis/analysis.js";
import { startPly } from "../editor.js";
import { botMark, playerLink, ratingBadge, ratingNow } from "../players/players.js";

export const LEVEL_NAMES = { random: "Random mover", easy: "Easy", medium: "Medium", hard: "Hard", max: "Max" };

// A side card's head, appended to the emptied card: the name row (swatch, name, BOT, rating), under it the side and
// role (or presence), and the clock; the game adds its meter to it.
export function cardHead(game, card, seat, view, swatch) {
  const s = app.state;
  card.innerHTML = "";
  card.dataset.seat = seat;
  card.classList.toggle("to-move", !s.result && view.turn === seat && !app.review);
  const head = h("div", "card-head");
  const name = h("div", "card-name");
  const sw = h("span", "swatch");
  sw.style.background = swatch;
  const player = s.names[seat];
  const account = s.accounts && s.accounts[seat]; // a player's account: their name links to their profile
  const label = h("span", "card-player", player || game.sideName(seat));
  if (account) label.replaceChildren(playerLink(account.name));
  name.append(sw, label);
  if (account && account.bot) name.append(botMark());
  const rated = ratingBadge(s, seat) || ratingNow(s, seat);
  if (rated) name.append(rated);
  if (s.seats.includes(seat) && !(s.ai && s.ai.seat === seat) && !accountSeat(s, seat)) { // an account is named
    const edit = h("button", "rename", "✎");
    edit.title = "Set the name shown for this side";
    edit.setAttribute("aria-label", `Name ${game.sideName(seat)}`);
    edit.onclick = () => rename(seat, player);
    name.append(edit);
  }
  const meta = h("div", "card-meta");
  const role = h("span", "card-role", [player || account ? game.sideName(seat) : "", roleOf(seat)].filter(Boolean).join(" · "));
  if (s.thinking && s.ai && s.ai.seat === seat) {
    role.textContent = "AI is thinking";
    role.classList.add("thinking-dots");
  }
  if (role.textContent) meta.append(role);
  if (s.mode === "online" && !s.seats.includes(seat)) meta.append(presence(seat));
  head.append(name, meta);
  const clock = clockFor(seat);
  if (clock) head.append(clock);
  card.append(head);
  return head;
}

// Whether an account holds the seat (a game from a seek, a challenge or a tournament): its name is the account's.
export function accountSeat(s, seat) {
  return !!((s.seat_accounts && s.seat_accounts[seat]) || (s.accounts && s.accounts[seat]));
}

// Whether the other player has opened the game, and has it open now.
function presence(seat) {
  const s = app.state;
  const dot = h("span", "presence");
  const state = s.present[seat] ? "connected" : s.joined[seat] ? "away" : "invited";
  dot.dataset.state = state;
  const unopened = accountSeat(s, seat) ? "○ has not opened the game yet" : "○ has not opened the invitation";
  dot.textContent = { connected: "● connected", away: "○ not connected", invited: unopened }[state];
  return dot;
}

async function rename(seat, current) {
  const name = prompt("The name shown for this side (empty for none):", current || "");
  if (name === null) return;
  try {
    const body = app.state.seats.length > 1 ? { name, seat } : { name };
    await api("POST", `/api/games/${app.gameId}/name`, body);
  } catch (err) {
    toast(err.message);
  }
}

function roleOf(seat) {
  const s = app.state;
  if (s.mode === "ai") return s.ai.seat === seat ? `AI · ${LEVEL_NAMES[s.ai.level] || s.ai.level}` : "You";
  if (s.mode === "local") return "";
  if (s.seats.includes(seat)) return "You";
  return s.seats.length ? "Opponent" : "Player";
}

// Whether this page may ask the engine now: in a finished game anyone, in a live one a seat with help on.
export function engineAllowed() {
  const s = app.state;
  return !!s && (!!s.result || (s.seats.length > 0 && s.help.on));
}

// Everything beside the board; game is the open game's page module, canAct() and showReview(ply) the shell's.
export function renderSide(game, canAct, showReview) {
  const s = app.state;
  const bottomSeat = frame.flipped ? 1 : 0;
  game.renderCard($("card-bottom"), bottomSeat);
  game.renderCard($("card-top"), 1 - bottomSeat);
  // on one shared screen the hand to play from is the side to move's: a phone shows that card under the board
  document.querySelector(".side").classList.toggle("hot-seat", s.mode === "local");
  renderStatus(game);
  renderMoves(showReview);
  renderControls(game, canAct);
  renderShare(game);
  $("game-info").textContent = game.info(s) + (s.clock ? ` · ${s.clock.label}` : "");
  $("export-text").value = s.game_string;
  $("welcome").hidden = true;
}

function renderStatus(game) {
  const s = app.state;
  const st = $("status");
  const view = s.view;
  if (app.analysis) {
    st.textContent = analysisStatus((seat) => game.sideName(seat));
  } else if (app.review) {
    st.textContent = `Reviewing the position after move ${app.review.ply}`;
  } else if (s.result) {
    st.textContent = resultTitle(game, s) + (s.reason ? ` — ${s.reason}` : "");
  } else if (s.thinking) {
    st.innerHTML = `<span class="spinner"></span>${game.sideName(view.turn)} (AI) is thinking`;
  } else if (s.ai_error) {
    st.textContent = s.ai_error;
  } else {
    const other = s.seats.length === 1 ? 1 - s.seats[0] : null;
    let you = "";
    if (other !== null) {
      // the side to move is told it is their move, whether or not the opponent has opened the game yet
      const absent = s.mode === "online" && !s.joined[other];
      const what = accountSeat(s, other) ? "the game" : "the invitation";
      if (s.seats[0] === view.turn) you = ` — your move${absent ? ` (your opponent has not opened ${what} yet)` : ""}`;
      else you = absent ? ` — waiting for your opponent to open ${what}` : " — waiting for your opponent";
    }
    st.textContent = `${game.sideName(view.turn)}${game.phase()}${you}`;
    if (!s.seats.length) st.textContent += " · watching";
  }
  st.dataset.state = s.result || (s.thinking ? "thinking" : "playing");
  $("note").hidden = !s.note || !!app.review || !!app.analysis;
  $("note").textContent = s.note || "";
  renderHelp();
  $("banner").hidden = !s.result || !!app.review || !!app.analysis || app.bannerClosed === s.id;
  if (s.result) {
    $("banner-title").textContent = resultTitle(game, s);
    $("banner-reason").textContent = game.reasonText(s.reason || "") + (s.result === "Aborted" ? ABORTED_NOTE : "");
    // a tournament's game has no rematch; between accounts a rematch is offered, and the opponent answers it
    const offer = s.rematch ? null : s.rematch_offer;
    const offeredByMe = !!offer && s.seats.includes(offer.by);
    const rematch = $("btn-banner-rematch");
    rematch.hidden = !s.seats.length || !!s.tournament;
    rematch.disabled = offeredByMe;
    rematch.textContent = s.rematch ? "Go to the rematch" : offeredByMe ? "Rematch offered" : offer ? "Accept rematch" : "Rematch";
    $("btn-banner-decline").hidden = rematch.hidden || !offer || offeredByMe;
    $("banner-offer").hidden = !offer || offeredByMe || rematch.hidden;
    $("banner-offer").textContent = offer ? `${s.names[offer.by] || game.sideName(offer.by)} offers a rematch.` : "";
  }
  const offer = s.offer;
  $("offer").hidden = !offer || !!s.result;
  if (offer && !s.result) {
    const mine = s.seats.includes(offer.by) && s.seats.length === 1;
    const what = offer.what === "draw" ? "a draw" : "to take back a move";
    $("offer-text").textContent = mine ? `You offered ${what}; waiting for an answer` : `${game.sideName(offer.by)} offers ${what}`;
    $("btn-accept").hidden = mine || !s.seats.length;
    $("btn-decline").hidden = mine || !s.seats.length;
  }
}

// A two-browser game's engine help: what each player chose, and the choice still open to this seat.
function renderHelp() {
  const s = app.state;
  const box = $("help-box");
  box.hidden = s.mode !== "online" || !!s.result || !s.seats.length;
  if (box.hidden) return;
  const mine = s.help.choices[s.seats[0]], theirs = s.help.choices[1 - s.seats[0]];
  let text = "Engine help is off: a fair game.";
  if (s.help.on) text = "Casual game: both players chose engine help (hints, evaluation).";
  else if (mine === null && theirs) text = "Your opponent asks for a casual game with engine help. Do you agree?";
  else if (mine && theirs === null) text = "You asked for engine help; your opponent has not answered yet.";
  $("help-text").textContent = text;
  $("btn-help-yes").hidden = mine !== null || !theirs;
  $("btn-help-no").hidden = mine !== null ? !s.help.on : !theirs;
  $("btn-help-no").textContent = s.help.on ? "Turn help off" : "Keep it fair";
}

// Why an aborted game's banner says it was not rated.
const ABORTED_NOTE = ". Not rated, and no win or loss: the game ended before both sides moved.";

function resultTitle(game, s) {
  if (s.result === "Aborted") return "Game aborted";
  if (s.result === "Draw" || s.winner === null) return "Draw";
  return `${game.sideName(s.winner)} wins`;
}

// A move number of the list: an item of its own (an <ol> holds only <li>s), which the moves' items are read after.
export function moveNumber(text) {
  const li = h("li", "num", text);
  li.setAttribute("aria-hidden", "true");
  return li;
}

function renderMoves(showReview) {
  const s = app.state;
  const list = $("movelist");
  list.innerHTML = "";
  const reviewed = app.review ? app.review.ply : null;
  s.moves.forEach((move, i) => {
    const at = startPly(s) + i; // a game set up from a position numbers its moves from its turn
    if (at % 2 === 0 || i === 0) list.append(moveNumber(`${Math.floor(at / 2) + 1}.`));
    if (i === 0 && at % 2 === 1) list.append(moveNumber("…"));
    const li = h("li", "", move);
    const used = usedFor(i);
    if (used) li.append(used);
    const mark = markFor(i + 1);
    if (mark) li.append(mark);
    li.dataset.ply = i + 1;
    li.dataset.move = move;
    li.title = "Show the position after this move";
    if (i + 1 === s.moves.length && reviewed === null) li.classList.add("current");
    if (reviewed === i + 1) li.classList.add("reviewed");
    li.addEventListener("click", () => showReview(i + 1));
    list.append(li);
  });
  renderLines(list);
  scrollMoves();
}

// Bring the move on show into the list's view (the last one during play): the list scrolls, never the page.
export function scrollMoves() {
  const list = $("movelist");
  const target = list.querySelector(".reviewed, .shown") || list.lastElementChild;
  if (!target || !list.clientHeight) return; // not shown now (another tab): scrolled when it is
  const top = target.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
  if (top < list.scrollTop) list.scrollTop = top - 4;
  else if (top + target.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = top + target.offsetHeight - list.clientHeight + 4;
  }
}

export function renderControls(game, canAct) {
  const s = app.state;
  const player = s.seats.length > 0;
  const live = !s.result;
  // a finished game's result stands: nothing is taken back (the analysis board tries other moves)
  $("btn-undo").disabled = !player || !s.moves.length || !!s.clock || !!s.result || (s.mode === "ai" && s.moves.length < 2 && s.ai.seat === 0);
  $("btn-undo").title = s.result ? "The game is over: its result stands (Analyse to try other moves)"
    : s.clock ? "Moves are not taken back in a timed game" : "Undo (Ctrl+Z)";
  $("btn-undo").textContent = s.mode === "online" ? "Ask to undo" : "Undo";
  // a spectator acts in nothing: the players' buttons are not shown to them
  $("btn-undo").hidden = !player;
  $("btn-redo").hidden = s.mode === "online" || !player;
  $("btn-redo").disabled = !player || !s.redo || !!s.result || !!s.clock;
  $("btn-pass").hidden = !((app.analysis ? app.analysis.view : s.view).pass && canAct());
  const engine = engineAllowed();
  $("btn-hint").disabled = (!live && !app.analysis) || !!app.review || !engine;
  $("btn-hint").title = engine ? "Ask the AI for a move (H)" : "Engine help is off in this game";
  $("btn-eval").disabled = !engine;
  $("btn-draw").hidden = s.mode === "ai" || !player;
  $("btn-draw").disabled = !player || !live;
  $("btn-draw").textContent = s.mode === "local" ? "Agree a draw" : "Offer draw";
  // before both sides moved, a game between two players is aborted (unrated), not resigned
  $("btn-abort").hidden = !player || !s.abortable;
  $("btn-resign").hidden = !player || !!s.abortable;
  $("btn-resign").disabled = !player || !live;
  $("btn-eval").classList.toggle("primary", app.evalOn);
  $("btn-eval").hidden = !game.evaluation;
  $("btn-flip").title = game.flipTitle;
}

function renderShare(game) {
  const s = app.state;
  const invite = localStorage.getItem(`hive.invite.${s.id}`);
  // a game between accounts has no invitation to send: each player opens it from the lobby
  $("share").hidden = s.mode !== "online" || !s.seats.length || accountSeat(s, 0) || accountSeat(s, 1);
  const net = app.assets.network || {};
  const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(location.hostname);
  const origin = loopback && net.lan && !net.local_only ? `${location.protocol}//${net.lan}:${location.port}` : location.origin;
  const base = `${origin}/game/${s.id}`;
  $("watch-link").value = base;
  $("invite-link").value = invite ? `${base}#seat=${invite}` : "(only the player who created the game has it)";
  $("invite-side").textContent = s.seats.length === 1 ? `(plays ${game.sideName(1 - s.seats[0])})` : "";
  $("reach-note").textContent = reachNote(net, loopback);
}

// How a player on another machine reaches this server.
function reachNote(net, loopback) {
  const port = location.port || (location.protocol === "https:" ? "443" : "80");
  if (net.local_only) {
    return `This server listens on ${net.host} only: these links work on this computer alone. To play from another ` +
      `device, restart it with "hive play --host 0.0.0.0 --port ${port}" and send the link with this computer's ` +
      `address on your network${net.lan ? ` (${net.lan})` : ""}; both devices must be on the same network.`;
  }
  if (loopback && net.lan) {
    return `The links use this computer's address on your network, ${net.lan}: another device on the same network ` +
      "can open them (a firewall may have to allow the port).";
  }
  return "Anyone who can open this page's address can open these links.";
}

