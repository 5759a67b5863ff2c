// The side panel: the two sides' cards (their heads here, the rest the game's), the status and offers, the move
// list, the controls and the share box.

import { frame } from "./hexboard.js";
import { $, app, h } from "./page.js";

export const LEVEL_NAMES = { random: "Random mover", easy: "Easy", medium: "Medium", hard: "Hard", max: "Max" };

// A side card's head (swatch, side, role), appended to the emptied card; the game adds its meter to it.
export function cardHead(game, card, seat, view, swatch) {
  const s = app.state;
  card.innerHTML = "";
  card.dataset.seat = seat;
  card.classList.toggle("to-move", !s.result && view.turn === seat && !app.review);
  const head = h("div", "card-head");
  const name = h("div", "card-name");
  const sw = h("span", "swatch");
  sw.style.background = swatch;
  const role = h("span", "card-role", roleOf(seat));
  if (s.thinking && s.ai && s.ai.seat === seat) {
    role.textContent = "AI is thinking";
    role.classList.add("thinking-dots");
  }
  name.append(sw, document.createTextNode(game.sideName(seat)), role);
  head.append(name);
  card.append(head);
  return head;
}

function roleOf(seat) {
  const s = app.state;
  if (s.mode === "ai") return s.ai.seat === seat ? `AI · ${LEVEL_NAMES[s.ai.level] || s.ai.level}` : "You";
  if (s.mode === "local") return "";
  if (s.seats.includes(seat)) return "You";
  return s.seats.length ? "Opponent" : "Player";
}

// Everything beside the board; game is the open game's page module, canAct() and showReview(ply) the shell's.
export function renderSide(game, canAct, showReview) {
  const s = app.state;
  const bottomSeat = frame.flipped ? 1 : 0;
  game.renderCard($("card-bottom"), bottomSeat);
  game.renderCard($("card-top"), 1 - bottomSeat);
  renderStatus(game);
  renderMoves(showReview);
  renderControls(game, canAct);
  renderShare(game);
  $("game-info").textContent = game.info(s);
  $("export-text").value = s.game_string;
  $("welcome").hidden = true;
}

function renderStatus(game) {
  const s = app.state;
  const st = $("status");
  const view = s.view;
  if (app.review) {
    st.textContent = `Reviewing the position after move ${app.review.ply}`;
  } else if (s.result) {
    st.textContent = resultTitle(game, s) + (s.reason ? ` — ${s.reason}` : "");
  } else if (s.thinking) {
    st.innerHTML = `<span class="spinner"></span>${game.sideName(view.turn)} (AI) is thinking`;
  } else if (s.ai_error) {
    st.textContent = s.ai_error;
  } else {
    const you = s.seats.length === 1 ? (s.seats[0] === view.turn ? " — your move" : " — waiting for your opponent") : "";
    st.textContent = `${game.sideName(view.turn)}${game.phase()}${you}`;
    if (!s.seats.length) st.textContent += " · watching";
  }
  st.dataset.state = s.result || (s.thinking ? "thinking" : "playing");
  $("banner").hidden = !s.result || !!app.review;
  if (s.result) {
    $("banner-title").textContent = resultTitle(game, s);
    $("banner-reason").textContent = game.reasonText(s.reason || "");
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

function resultTitle(game, s) {
  if (s.result === "Draw") return "Draw";
  return `${game.sideName(game.SIDES.indexOf(s.result.replace(/Wins$/, "")))} wins`;
}

function renderMoves(showReview) {
  const s = app.state;
  const list = $("movelist");
  list.innerHTML = "";
  const reviewed = app.review ? app.review.ply : null;
  s.moves.forEach((move, i) => {
    if (i % 2 === 0) list.append(h("span", "num", `${i / 2 + 1}.`));
    const li = h("li", "", move);
    li.dataset.ply = i + 1;
    li.dataset.move = move;
    li.title = "Show the position after this move";
    if (i + 1 === s.moves.length && reviewed === null) li.classList.add("current");
    if (reviewed === i + 1) li.classList.add("reviewed");
    li.addEventListener("click", () => showReview(i + 1));
    list.append(li);
  });
  const target = list.querySelector(".reviewed") || list.lastElementChild;
  if (target) target.scrollIntoView({ block: "nearest" });
}

export function renderControls(game, canAct) {
  const s = app.state;
  const player = s.seats.length > 0;
  const live = !s.result;
  $("btn-undo").disabled = !player || !s.moves.length || (s.mode === "ai" && s.moves.length < 2 && s.ai.seat === 0);
  $("btn-undo").textContent = s.mode === "online" ? "Ask to undo" : "Undo";
  $("btn-redo").hidden = s.mode === "online";
  $("btn-redo").disabled = !player || !s.redo || !!s.result;
  $("btn-pass").hidden = !(s.view.pass && canAct());
  $("btn-hint").disabled = !live || !!app.review;
  $("btn-draw").hidden = s.mode === "ai";
  $("btn-draw").disabled = !player || !live;
  $("btn-draw").textContent = s.mode === "local" ? "Agree a draw" : "Offer draw";
  $("btn-resign").disabled = !player || !live;
  $("btn-eval").classList.toggle("primary", app.evalOn);
  $("btn-eval").hidden = !game.evaluation;
  $("btn-flip").title = game.flipTitle;
}

function renderShare(game) {
  const s = app.state;
  const invite = localStorage.getItem(`hive.invite.${s.id}`);
  $("share").hidden = s.mode !== "online" || !s.seats.length;
  const base = `${location.origin}/game/${s.id}`;
  $("watch-link").value = base;
  $("invite-link").value = invite ? `${base}#seat=${invite}` : "(only the player who created the game has it)";
  $("invite-side").textContent = s.seats.length === 1 ? `(plays ${game.sideName(1 - s.seats[0])})` : "";
}

