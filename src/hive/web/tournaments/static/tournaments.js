// Tournaments, on a server that keeps accounts (app.assets.accounts): the lobby's list of them with "New tournament"
// (a dialog: name, format, rounds or a double round robin, time control, rated), and a tournament's own page at
// /tournament/{id}: what it is, Join (to those who may join) / Leave / Start, its players and those invited, every
// round's pairings (each game a link: a player's own opens with its seat, /api/games/{id}/seat; any other is
// watched), the standings with the tie-breaks in the tournament's order and, for a round robin, a crosstable; its
// organiser and players have a chat room there. The page asks for the tournament again every few seconds while it
// shows, and draws it again only when it changed (a focused button keeps its focus). A tournament's game links back
// to it ("Round 2 of Friday Swiss", renderGameTournament).

import { formatDate, gameType, t as tx } from "../i18n.js";
import { api } from "../net.js";
import { $, app, h, toast } from "../page.js";
import { keepToken } from "../play/seats.js";
import { askSignIn, csrfHeaders, onAccountChange, signedIn } from "../players/account.js";
import { clockForRated, openSignedInDialog, optionFields, showOptionFields, timeControl } from "../play/dialogs.js";
import { playerLink } from "../players/players.js";
import { crossTable, roundTable, standingsTable } from "./tables.js";

const POLL_MS = 3000;
const STATUS = { open: tx("tournaments.status_open"), running: tx("tournaments.status_running"), finished: tx("tournaments.status_finished") };

let go = null; // the shell's: go to an address of the page (pushed), as its links do
let open = null; // the shell's: open a game (its address pushed)
let current = null; // the tournament's id on show
let timer = null;
let run = 0; // the last refresh asked for: an older one's answer is dropped
let shown = null; // what the page shows, to draw it again only when it changed
let said = null; // the chat as shown, likewise

const changing = (method, path, body = undefined) => api(method, path, body, null, csrfHeaders());

// The page's error line: what went wrong last (a refresh's own error, or an action's), cleared by what succeeds.
let failedRefresh = false;
function fail(text, refreshing = false) { $("t-error").textContent = text; failedRefresh = refreshing; }
function succeeded(refreshing = false) { if (!refreshing || failedRefresh) fail(""); }

// A time control as New game's list names it.
function timeText(tc) {
  if (!tc) return tx("shell.untimed");
  const value = typeof tc === "object" ? `days:${tc.days}` : tc;
  const option = $("time-control").querySelector(`option[value="${value}"]`);
  if (option) return option.textContent;
  return typeof tc === "object" ? tx("tournaments.days_per_move", { count: tc.days }) : String(tc);
}

function link(path, text) {
  const a = h("a", "", text);
  a.href = path;
  a.onclick = (evt) => { evt.preventDefault(); go(path); };
  return a;
}

// ------------------------------------------------------------------ the lobby's list

export async function showTournamentList() {
  if (!app.assets.accounts) return;
  $("tournaments").hidden = false;
  $("btn-tournament-new").title = tx(signedIn() ? "tournaments.organise" : "tournaments.sign_in_to_organise");
  try {
    const { tournaments } = await api("GET", "/api/tournaments", undefined, null);
    $("tournament-list").replaceChildren(...tournaments.map((t) => {
      const li = h("li", "seek-row t-row");
      li.dataset.id = t.id;
      const head = h("div", "seek-row-head");
      head.append(link(`/tournament/${t.id}`, t.name), h("span", `t-status t-${t.status}`, STATUS[t.status] || t.status));
      li.append(head);
      return li;
    }));
    $("tournaments-empty").hidden = tournaments.length > 0;
    if (location.hash === "#tournaments") { // the menu's "Tournaments": the list, in view once
      history.replaceState(history.state, "", location.pathname + location.search);
      $("tournaments").scrollIntoView({ block: "start" });
    }
  } catch (err) {
    toast(tx("tournaments.not_listed", { error: err.message }));
  }
}

// ------------------------------------------------------------------ the dialog

function syncDialog() {
  showOptionFields($("tournament-game").value, $("tournament-options")); // the game's own options, as New game's
  const swiss = $("tournament-format").value === "swiss";
  $("tournament-rounds-label").hidden = !swiss;
  $("tournament-double-label").hidden = swiss;
  clockForRated($("tournament-rated").checked, $("tournament-time"));
}

function openDialog() { openSignedInDialog("tournament", syncDialog, "tournament-name"); }

async function create() {
  const choice = $("tournament-time").value;
  const swiss = $("tournament-format").value === "swiss";
  const starts = $("tournament-starts").value;
  const kind = $("tournament-game").value;
  const { module, box } = await optionFields(kind, $("tournament-options"));
  const body = {
    name: $("tournament-name").value.trim(), format: $("tournament-format").value,
    kind, options: module.options(box),
    time_control: timeControl(choice),
    rated: $("tournament-rated").checked,
    invite_only: $("tournament-invite-only").checked, bots: $("tournament-bots").checked,
    starts: starts ? new Date(starts).getTime() / 1000 : null,
  };
  if (swiss) body.rounds = Number($("tournament-rounds").value);
  else body.double = $("tournament-double").checked;
  const button = $("btn-tournament-create");
  button.disabled = true;
  $("tournament-error").textContent = "";
  try {
    const made = await changing("POST", "/api/tournaments", body);
    $("dlg-tournament").close();
    $("tournament-name").value = "";
    go(`/tournament/${made.id}`);
  } catch (err) {
    $("tournament-error").textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

// ------------------------------------------------------------------ a tournament's page

function fact(list, term, value) {
  list.append(h("dt", "", term), h("dd", "", value));
}

function formatText(t) {
  const rounds = tx("tournaments.rounds", { count: t.rounds });
  return `${tx(t.format === "swiss" ? "shell.swiss" : "shell.round_robin")}, ${rounds}`;
}

function statusText(t) {
  if (t.status === "open") return tx("tournaments.open_join");
  if (t.status === "finished") return tx("tournaments.finished");
  return tx("tournaments.running", { round: t.paired.length, rounds: t.rounds });
}

// A game of the tournament: one's own opens with its seat, any other is watched.
async function enterGame(game) {
  const me = signedIn();
  try {
    if (me && (game.first === me || game.second === me)) {
      const seat = await api("GET", `/api/games/${game.game_id}/seat`, undefined, null);
      keepToken(seat.id, seat.token);
    }
    hideTournament();
    await open(game.game_id);
  } catch (err) {
    fail(err.message);
  }
}

function render(t) {
  const me = signedIn();
  const key = JSON.stringify([me, t]);
  if (key === shown) return;
  shown = key;
  $("t-name").textContent = t.name;
  document.title = t.name;
  const facts = $("t-facts");
  facts.replaceChildren();
  fact(facts, tx("tournaments.organiser"), t.organiser);
  fact(facts, tx("shell.format"), formatText(t));
  fact(facts, tx("tournaments.game"), gameType(t.game));
  fact(facts, tx("shell.time_control"), `${timeText(t.time_control)} · ${tx(t.rated ? "seeks.rated" : "seeks.casual")}`);
  fact(facts, tx("tournaments.status"), statusText(t));
  if (t.starts && t.status === "open") fact(facts, tx("tournaments.starts"), formatDate(t.starts * 1000, { dateStyle: "medium", timeStyle: "short" }));
  if (t.invite_only) fact(facts, tx("tournaments.entry"), tx("tournaments.by_invitation"));
  $("form-t-invite").hidden = !(t.invite_only && me && me === t.organiser && t.status !== "finished");
  $("t-records").href = `/api/tournaments/${t.id}/records`;
  $("t-records").hidden = !t.paired.length;
  const playing = me && t.players.includes(me);
  const before = t.status !== "finished";
  // an invitation-only tournament is joined by those invited alone (an invited guest signs in first)
  const welcome = !t.invite_only || (me && (me === t.organiser || t.invited.includes(me)));
  $("btn-t-join").hidden = !(before && !playing && welcome && (t.status === "open" || t.format === "swiss"));
  $("btn-t-join").textContent = tx(me ? "shell.join" : "tournaments.sign_in_to_join");
  $("btn-t-leave").hidden = !(me && before && playing);
  $("btn-t-start").hidden = !(me && me === t.organiser && t.status === "open");
  $("btn-t-start").disabled = t.players.length < 2;
  $("btn-t-start").title = tx(t.players.length < 2 ? "tournaments.two_at_least" : "tournaments.start_title");

  $("t-players").replaceChildren(...t.players.map((name) => { const li = h("li", name === me ? "mine" : ""); li.append(playerLink(name)); return li; }),
    ...t.withdrawn.map((name) => h("li", "muted", tx("tournaments.withdrawn", { name }))));
  if (!t.players.length && !t.withdrawn.length) $("t-players").append(h("li", "muted", tx("tournaments.nobody")));
  const waiting = t.invited.filter((name) => !t.players.includes(name) && !t.withdrawn.includes(name));
  $("t-invited-box").hidden = !waiting.length;
  $("t-invited").replaceChildren(...waiting.map((name) => { const li = h("li", name === me ? "mine" : ""); li.append(playerLink(name)); return li; }));

  $("t-standings-box").hidden = !t.paired.length;
  $("t-cross-box").hidden = !t.paired.length || t.format === "swiss";
  $("t-rounds-box").hidden = !t.paired.length;
  if (!t.paired.length) return;
  standingsTable(t);
  if (t.format !== "swiss") crossTable(t);
  const focused = $("t-rounds").contains(document.activeElement) ? document.activeElement : null;
  const where = focused && focused.closest("[data-board]");
  const roundOf = focused && focused.closest("[data-round]");
  // the latest round first: the games being played
  $("t-rounds").replaceChildren(...t.paired.map((round, i) => roundTable(t, round, i + 1, enterGame)).reverse());
  if (where && roundOf) {
    const again = $("t-rounds").querySelector(`[data-round="${roundOf.dataset.round}"] [data-board="${where.dataset.board}"] a`);
    if (again) again.focus();
  }
}

// The organiser's and players' room: shown to them alone, its messages written as text.
async function renderChat(t) {
  const me = signedIn();
  const member = me && (me === t.organiser || t.players.includes(me) || t.withdrawn.includes(me));
  $("t-chat-box").hidden = !member;
  if (!member) return;
  const answer = await api("GET", `/api/tournaments/${t.id}/chat`, undefined, null, csrfHeaders());
  const key = JSON.stringify(answer.messages);
  if (key === said) return;
  said = key;
  $("t-chat").replaceChildren(...answer.messages.map((m) => {
    const item = h("li", m.name === me ? "mine" : "");
    item.append(h("strong", "", m.name), " ", h("span", "", m.text));
    return item;
  }));
  $("t-chat").scrollTop = $("t-chat").scrollHeight;
}

async function say() {
  const text = $("t-chat-text").value.trim();
  if (!text || !current) return;
  try {
    await changing("POST", `/api/tournaments/${current}/chat`, { text });
    $("t-chat-text").value = "";
    succeeded();
  } catch (err) {
    fail(err.message);
  }
  refresh();
}

async function invite() {
  const name = $("t-invite-name").value.trim();
  if (!name || !current) return;
  try {
    render(await changing("POST", `/api/tournaments/${current}/invite`, { name }));
    $("t-invite-name").value = "";
    succeeded();
    toast(tx("tournaments.invited", { name }), false);
  } catch (err) {
    fail(err.message);
  }
}

async function refresh() {
  const mine = ++run;
  clearTimeout(timer);
  if (!current) return;
  const id = current;
  if (!document.hidden) {
    try {
      const t = await api("GET", `/api/tournaments/${id}`, undefined, null);
      if (mine !== run || current !== id) return;
      render(t);
      await renderChat(t);
      succeeded(true);
    } catch (err) {
      if (mine !== run || current !== id) return;
      fail(tx("tournaments.not_refreshed", { error: err.message }), true);
    }
  }
  if (mine === run && current === id) timer = setTimeout(refresh, POLL_MS);
}

async function act(button, action) {
  if (!signedIn()) { askSignIn(); return; }
  button.disabled = true;
  fail("");
  try {
    render(await changing("POST", `/api/tournaments/${current}/${action}`));
  } catch (err) {
    fail(err.message);
  } finally {
    button.disabled = false;
  }
  refresh();
}

// Show the page of the tournament `id`, in place of the lobby and the board.
export async function showTournament(id) {
  current = id;
  shown = null;
  said = null;
  fail("");
  $("t-name").textContent = tx("tournaments.tournament");
  $("tournament").hidden = false;
  document.body.classList.add("at-lobby");
  await refresh();
}

// The open game's place in a tournament, as its state says (tournament_game): "Round 2 of Friday Swiss", a link to
// the tournament's page; nothing for another game.
export function renderGameTournament() {
  const link = $("game-tournament");
  const place = app.state && app.state.tournament_game;
  link.hidden = !place;
  if (!place) return;
  link.href = `/tournament/${encodeURIComponent(place.id)}`;
  link.replaceChildren(`${tx("tournaments.round_of", { round: place.round })} `, h("b", "", place.name));
}

export function hideTournament() {
  current = null;
  run++;
  clearTimeout(timer);
  $("tournament").hidden = true;
}

// goTo(path): the shell's way to another address of the page; openGame(id): opens a game, its address pushed.
export function wireTournaments(goTo, openGame) {
  go = goTo;
  open = openGame;
  if (!app.assets.accounts) return;
  for (const node of $("time-control").children) $("tournament-time").append(node.cloneNode(true));
  $("tournament-time").querySelector("[value=custom]").remove();
  $("tournament-time").value = "blitz";
  $("btn-tournament-new").onclick = openDialog;
  $("form-tournament").addEventListener("change", syncDialog);
  $("form-tournament").addEventListener("submit", (evt) => { evt.preventDefault(); create(); });
  $("dlg-tournament").querySelector("[data-close]").onclick = () => $("dlg-tournament").close();
  $("btn-t-join").onclick = () => act($("btn-t-join"), "join");
  $("btn-t-leave").onclick = () => act($("btn-t-leave"), "leave");
  $("btn-t-start").onclick = () => act($("btn-t-start"), "start");
  $("form-t-chat").addEventListener("submit", (evt) => { evt.preventDefault(); say(); });
  $("form-t-invite").addEventListener("submit", (evt) => { evt.preventDefault(); invite(); });
  $("game-tournament").onclick = (evt) => { evt.preventDefault(); go($("game-tournament").getAttribute("href")); };
  for (const game of app.assets.games) $("tournament-game").append(h("option", "", game.title));
  [...$("tournament-game").options].forEach((option, i) => { option.value = app.assets.games[i].kind; });
  onAccountChange(() => {
    shown = null;
    if (current) refresh();
    else if (!$("tournaments").hidden && !$("lobby").hidden) showTournamentList();
  });
  document.addEventListener("visibilitychange", () => { if (current && !document.hidden) refresh(); });
}
