// The home page: the stored games, in progress first, then finished, each with its players, kind, result and date;
// resume, review, rematch (colours swapped; between accounts, an offer) and delete (with confirmation, for a seat this browser holds). Above
// them, on a server with accounts, the seeks and challenges (seeks.js), the live games and who is online
// (players.js) and the tournaments (tournaments.js).

import { formatDate, serverText, side, t } from "../i18n.js";
import { api } from "../net.js";
import { $, app, h, toast } from "../page.js";
import { forgetGame, keepToken, storedToken, storedTokens } from "../play/seats.js";
import { csrfHeaders, signedIn } from "../players/account.js";
import { LEVEL_NAMES } from "../play/panel.js";
import { hideSeeks, showSeeks } from "./seeks.js";
import { showTournamentList } from "../tournaments/tournaments.js";
import { hideTurns, showTurns } from "../players/notices.js";
import { hideCommunity, showCommunity } from "../players/players.js";
import { onLobbyMessage } from "./lobbysocket.js";

let open = null; // the shell's openGame(id, {review}): shows a game

function player(game, seat) {
  if (game.ai && game.ai.seat === seat) return t("lobby.ai_player", { level: LEVEL_NAMES[game.ai.level] || game.ai.level });
  return game.names[seat] || side(game.kind, game.sides[seat]);
}

function moves(n) { return t("lobby.moves", { count: n }); }

function resultText(game) {
  if (!game.result) return game.length ? t("lobby.in_progress", { moves: moves(game.length) }) : t("lobby.not_started");
  const winner = game.result === "Aborted" ? t("lobby.aborted") : game.winner === null ? t("lobby.draw") : t("lobby.won", { side: side(game.kind, game.sides[game.winner]) });
  return `${winner}${game.reason ? ` (${serverText(game.reason)})` : ""} · ${moves(game.length)}`;
}

const MODES = { ai: t("lobby.mode_ai"), local: t("lobby.mode_local"), online: t("lobby.mode_online") };

function when(seconds) {
  return formatDate(seconds * 1000, { dateStyle: "medium", timeStyle: "short" });
}

function row(game) {
  const info = app.games[game.kind] || { title: game.kind };
  const mine = storedToken(game.id);
  const li = h("li", "game-row" + (game.result ? " finished" : ""));
  li.dataset.id = game.id;
  const head = h("div", "game-row-head");
  const players = h("span", "game-players");
  const sideOf = (seat) => side(game.kind, game.sides[seat]);
  const named = (seat) => (player(game, seat) === sideOf(seat) ? "" : ` (${sideOf(seat)})`);
  players.append(
    h("b", "", player(game, 0)), document.createTextNode(`${named(0)} ${t("lobby.versus")} `),
    h("b", "", player(game, 1)), document.createTextNode(named(1)),
  );
  const timed = game.time_control && game.time_control !== "Untimed" ? ` · ${serverText(game.time_control)}` : "";
  head.append(players, h("span", "game-kind", `${info.title} · ${MODES[game.mode] || game.mode}${timed}`));
  const from = game.start ? ` · ${t("lobby.from_position")}` : "";
  const detail = h("div", "game-detail muted", `${resultText(game)}${from} · ${when(game.updated)}`);
  const buttons = h("div", "game-buttons");
  const button = (action, cls, handler) => {
    const b = h("button", cls, t(`lobby.action_${action}`));
    b.dataset.action = action;
    b.onclick = handler;
    buttons.append(b);
    return b;
  };
  // a server with accounts says which seat is the asker's: its account's, on any device, or a token's it holds
  const playing = mine || (game.seat !== undefined && game.seat !== null);
  if (!game.result) button(playing ? "play" : "watch", "primary", () => open(game.id, {}));
  else button("review", "primary", () => open(game.id, { review: true }));
  // a tournament's game has no rematch (the server would refuse it)
  if (game.result && mine && !game.tournament) button("rematch", "", () => rematch(game.id, mine));
  // a game between accounts stays in both players' records: the server keeps it, so it is not offered
  if (mine && !(game.seat_accounts || []).some(Boolean)) button("delete", "danger", () => remove(game, mine));
  li.append(head, detail, buttons);
  return li;
}

// The rematch of a finished game: a guest's starts at once; between accounts it is offered to the opponent (the
// banner then says so, and the opponent's shows Accept and Decline), and asking while their offer is open accepts it.
export async function rematch(id, token) {
  try {
    const data = await api("POST", `/api/games/${id}/rematch`, {}, token, signedIn() ? csrfHeaders() : {});
    if (data.offered) {
      toast(t("lobby.rematch_offered", { name: data.offered.to }), false);
      return;
    }
    keepToken(data.id, data.token, data.invite);
    history.pushState(null, "", `/game/${data.id}`);
    await open(data.id, {});
  } catch (err) {
    toast(err.message);
  }
}

async function remove(game, token) {
  const info = app.games[game.kind] || { title: game.kind };
  if (!confirm(t("lobby.confirm_delete", { game: info.title, first: player(game, 0), second: player(game, 1) }))) return;
  try {
    await api("DELETE", `/api/games/${game.id}`, undefined, token);
    forgetGame(game.id);
    if (localStorage.getItem("hive.last") === game.id) localStorage.removeItem("hive.last");
    await showLobby();
  } catch (err) {
    toast(err.message);
  }
}

// Decline the opponent's rematch offer of the game on screen.
export async function declineRematch(offer) {
  try {
    await api("POST", `/api/challenges/${offer.id}/decline`, undefined, null, csrfHeaders());
    toast(t("lobby.rematch_declined"), false);
  } catch (err) {
    toast(err.message);
  }
}

export function wireLobby(openGame) {
  open = openGame;
  // the list stays live: a game of the player's moved (the lobby socket's "turn") or began (a seek or challenge
  // taken) shows at once, not at the next visit
  let timer = null;
  onLobbyMessage((message) => {
    if ($("lobby").hidden || !(message.type === "turn" || message.change === "accepted")) return;
    clearTimeout(timer);
    timer = setTimeout(() => { if (!$("lobby").hidden) refreshList(); }, 200);
  });
}

// Show the list of games in place of the board.
export async function showLobby() {
  $("layout").hidden = true;
  $("lobby").hidden = false;
  document.body.classList.add("at-lobby");
  showSeeks(); // on a server with accounts: the seeks and challenges, kept fresh while the list shows
  showTournamentList(); // and the tournaments
  showTurns(); // and a signed-in player's games waiting for their move
  showCommunity(); // the live games, and who is online
  await refreshList();
  const rules = $("lobby-rules");
  rules.replaceChildren();
  for (const info of app.assets.games) {
    if (!info.rules) continue;
    const a = h("a", "button-link", t("main.how_to_play", { game: info.title }));
    a.href = info.rules;
    rules.append(a);
  }
}

// The game list, asked for again.
async function refreshList() {
  const list = $("game-list");
  try {
    // on a server with accounts the list is the asker's own games: its account's, and those of the seats held here
    const held = app.assets && app.assets.accounts ? { "x-seat-tokens": storedTokens().join(",") } : {};
    const { games } = await api("GET", "/api/games", undefined, null, held);
    list.replaceChildren(...games.map(row));
    $("lobby-empty").hidden = games.length > 0;
  } catch (err) {
    toast(err.message);
  }
}

export function hideLobby() {
  hideSeeks();
  hideTurns();
  hideCommunity();
  $("lobby").hidden = true;
  $("layout").hidden = false;
  document.body.classList.remove("at-lobby");
}
