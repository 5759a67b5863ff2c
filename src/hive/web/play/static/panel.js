// The side panel: the two sides' cards (their heads and clocks here, the rest the game's), the status and offers,
// the move list (with the time each move used), the controls and the share box.

import { serverText, t } from "../i18n.js";
import { frame } from "../hexboard.js";
import { api } from "../net.js";
import { $, app, h, toast } from "../page.js";
import { clockFor, usedFor } from "./clocks.js";
import { markFor } from "../analysis/engine_review.js";
import { analysisStatus, renderLines } from "../analysis/analysis.js";
import { startPly } from "../editor.js";
import { botMark, playerLink, ratingBadge, ratingNow } from "../players/players.js";

export const LEVEL_NAMES = { random: t("level.random"), easy: t("level.easy"), medium: t("level.medium"), hard: t("level.hard"), max: t("level.max") };

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
    edit.title = t("panel.rename_title");
    edit.setAttribute("aria-label", t("panel.rename_label", { side: game.sideName(seat) }));
    edit.onclick = () => rename(seat, player);
    name.append(edit);
  }
  const meta = h("div", "card-meta");
  const role = h("span", "card-role", [player || account ? game.sideName(seat) : "", roleOf(seat)].filter(Boolean).join(" · "));
  if (s.thinking && s.ai && s.ai.seat === seat) {
    role.textContent = t("panel.ai_thinking");
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
  const unopened = `○ ${t(accountSeat(s, seat) ? "panel.unopened_game" : "panel.unopened_invitation")}`;
  dot.textContent = { connected: `● ${t("panel.connected")}`, away: `○ ${t("panel.not_connected")}`, invited: unopened }[state];
  return dot;
}

async function rename(seat, current) {
  const name = prompt(t("panel.rename_prompt"), current || "");
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
  if (s.mode === "ai") return s.ai.seat === seat ? t("panel.ai_level", { level: LEVEL_NAMES[s.ai.level] || s.ai.level }) : t("panel.you");
  if (s.mode === "local") return "";
  if (s.seats.includes(seat)) return t("panel.you");
  return t(s.seats.length ? "panel.opponent" : "panel.player");
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
    st.textContent = t("panel.reviewing", { ply: app.review.ply });
  } else if (s.result) {
    st.textContent = resultTitle(game, s) + (s.reason ? ` — ${serverText(s.reason)}` : "");
  } else if (s.thinking) {
    st.replaceChildren(h("span", "spinner"), t("panel.ai_side_thinking", { side: game.sideName(view.turn) }));
  } else if (s.ai_error) {
    st.textContent = serverText(s.ai_error);
  } else {
    const other = s.seats.length === 1 ? 1 - s.seats[0] : null;
    let you = "";
    if (other !== null) {
      // the side to move is told it is their move, whether or not the opponent has opened the game yet
      const absent = s.mode === "online" && !s.joined[other];
      const what = accountSeat(s, other) ? "game" : "invitation";
      if (s.seats[0] === view.turn) you = ` — ${t(absent ? `panel.your_move_unopened_${what}` : "panel.your_move")}`;
      else you = ` — ${t(absent ? `panel.waiting_open_${what}` : "panel.waiting")}`;
    }
    st.textContent = `${game.sideName(view.turn)}${game.phase()}${you}`;
    if (!s.seats.length) st.textContent += ` · ${t("panel.watching")}`;
  }
  st.dataset.state = s.result || (s.thinking ? "thinking" : "playing");
  $("note").hidden = !s.note || !!app.review || !!app.analysis;
  $("note").textContent = serverText(s.note) || "";
  renderHelp();
  $("banner").hidden = !s.result || !!app.review || !!app.analysis || app.bannerClosed === s.id;
  if (s.result) {
    $("banner-title").textContent = resultTitle(game, s);
    $("banner-reason").textContent = serverText(game.reasonText(s.reason || "")) + (s.result === "Aborted" ? ABORTED_NOTE : "");
    // a tournament's game has no rematch; between accounts a rematch is offered, and the opponent answers it
    const offer = s.rematch ? null : s.rematch_offer;
    const offeredByMe = !!offer && s.seats.includes(offer.by);
    const rematch = $("btn-banner-rematch");
    rematch.hidden = !s.seats.length || !!s.tournament;
    rematch.disabled = offeredByMe;
    rematch.textContent = t(s.rematch ? "panel.go_rematch" : offeredByMe ? "panel.rematch_offered" : offer ? "panel.accept_rematch" : "panel.rematch");
    $("btn-banner-decline").hidden = rematch.hidden || !offer || offeredByMe;
    $("banner-offer").hidden = !offer || offeredByMe || rematch.hidden;
    $("banner-offer").textContent = offer ? t("panel.offers_rematch", { who: s.names[offer.by] || game.sideName(offer.by) }) : "";
  }
  const offer = s.offer;
  $("offer").hidden = !offer || !!s.result;
  if (offer && !s.result) {
    const mine = s.seats.includes(offer.by) && s.seats.length === 1;
    const what = offer.what === "draw" ? "draw" : "takeback";
    $("offer-text").textContent = mine ? t(`panel.you_offered_${what}`) : t(`panel.offers_${what}`, { side: game.sideName(offer.by) });
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
  let text = t("panel.help_off");
  if (s.help.on) text = t("panel.help_on");
  else if (mine === null && theirs) text = t("panel.help_asked");
  else if (mine && theirs === null) text = t("panel.help_waiting");
  $("help-text").textContent = text;
  $("btn-help-yes").hidden = mine !== null || !theirs;
  $("btn-help-no").hidden = mine !== null ? !s.help.on : !theirs;
  $("btn-help-no").textContent = t(s.help.on ? "panel.help_turn_off" : "panel.keep_fair");
}

// Why an aborted game's banner says it was not rated.
const ABORTED_NOTE = t("panel.aborted_note");

function resultTitle(game, s) {
  if (s.result === "Aborted") return t("panel.game_aborted");
  if (s.result === "Draw" || s.winner === null) return t("panel.draw");
  return t("panel.wins", { side: game.sideName(s.winner) });
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
    li.title = t("panel.show_after");
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
  $("btn-undo").title = t(s.result ? "panel.undo_over" : s.clock ? "panel.undo_timed" : "panel.undo_title");
  $("btn-undo").textContent = t(s.mode === "online" ? "panel.ask_undo" : "panel.undo");
  // a spectator acts in nothing: the players' buttons are not shown to them
  $("btn-undo").hidden = !player;
  $("btn-redo").hidden = s.mode === "online" || !player;
  $("btn-redo").disabled = !player || !s.redo || !!s.result || !!s.clock;
  $("btn-pass").hidden = !((app.analysis ? app.analysis.view : s.view).pass && canAct());
  const engine = engineAllowed();
  // a spectator of a game in play has no engine help (it could be passed to a player): its buttons are not shown
  const watching = !player && live;
  $("btn-hint").hidden = watching;
  $("btn-hint").disabled = (!live && !app.analysis) || !!app.review || !engine;
  $("btn-hint").title = t(engine ? "panel.hint_title" : "main.engine_off");
  $("btn-eval").disabled = !engine;
  $("btn-draw").hidden = s.mode === "ai" || !player;
  $("btn-draw").disabled = !player || !live;
  $("btn-draw").textContent = t(s.mode === "local" ? "panel.agree_draw" : "panel.offer_draw");
  // before both sides moved, a game between two players is aborted (unrated), not resigned
  $("btn-abort").hidden = !player || !s.abortable;
  $("btn-resign").hidden = !player || !!s.abortable;
  $("btn-resign").disabled = !player || !live;
  $("btn-eval").classList.toggle("primary", app.evalOn);
  $("btn-eval").hidden = !game.evaluation || watching;
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
  $("invite-link").value = invite ? `${base}#seat=${invite}` : t("panel.invite_missing");
  $("invite-side").textContent = s.seats.length === 1 ? t("panel.invite_plays", { side: game.sideName(1 - s.seats[0]) }) : "";
  $("reach-note").textContent = reachNote(net, loopback);
}

// How a player on another machine reaches this server.
function reachNote(net, loopback) {
  const port = location.port || (location.protocol === "https:" ? "443" : "80");
  if (net.local_only) {
    return t(net.lan ? "panel.reach_local_lan" : "panel.reach_local", { host: net.host, port, lan: net.lan });
  }
  if (loopback && net.lan) {
    return t("panel.reach_lan", { lan: net.lan });
  }
  return t("panel.reach_any");
}

