// A tournament's tables: its standings with the tie-breaks in the tournament's order, a round robin's crosstable,
// and each round's pairings (each game a link).

import { t as tx } from "../i18n.js";
import { $, h } from "../page.js";
import { signedIn } from "../players/account.js";
import { playerLink } from "../players/players.js";

const TIEBREAKS = {
  "buchholz-cut1": ["Bch-1", tx("tournaments.buchholz_cut1")],
  buchholz: ["Bch", tx("tournaments.buchholz")],
  "sonneborn-berger": ["SB", tx("tournaments.sonneborn_berger")],
  "head-to-head": [tx("tournaments.h2h"), tx("tournaments.head_to_head")],
  wins: [tx("tournaments.wins"), tx("tournaments.games_won")],
};

// 1.5 as 1½; 0.5 as ½.
function points(value) {
  const whole = Math.floor(value);
  const half = value - whole >= 0.5 ? "½" : "";
  return whole === 0 && half ? half : `${whole}${half}`;
}

function resultText(game, t) {
  if (game.second === null) return `+${points(t.bye_points)}`; // a bye's points: the row reads "Ada +1 bye"
  if (game.result === null) return "…";
  const text = game.result === 1 ? "1-0" : game.result === 0 ? "0-1" : "½-½";
  return game.forfeit ? tx("tournaments.forfeit", { result: text }) : text;
}

// A table's header row.
function headRow(cells) {
  const thead = h("thead");
  const tr = h("tr");
  for (const [text, title, cls] of cells) {
    const th = h("th", cls || "");
    th.scope = "col";
    if (title) { const abbr = h("abbr", "", text); abbr.title = title; th.append(abbr); } else th.textContent = text;
    tr.append(th);
  }
  thead.append(tr);
  return thead;
}

export function standingsTable(t) {
  const table = $("t-standings");
  const caption = h("caption", "sr-only", tx("shell.standings"));
  const head = headRow([
    ["#", tx("players.rank"), "num"], [tx("panel.player"), null, "name"], [tx("tournaments.pts"), tx("tournaments.points"), "num"],
    [tx("players.wdl"), tx("players.wdl_title"), "num"],
    ...t.tiebreaks.map((name) => [...(TIEBREAKS[name] || [name, null]), "num"]),
  ]);
  const body = h("tbody");
  for (const line of t.standings) {
    const tr = h("tr", line.player === signedIn() ? "mine" : "");
    const player = h("th", "name");
    player.append(playerLink(line.player));
    player.scope = "row";
    tr.append(h("td", "num", String(line.rank)), player, h("td", "num", points(line.points)),
      h("td", "num", `${line.wins}/${line.draws}/${line.losses}`),
      ...t.tiebreaks.map((name) => h("td", "num", points(line.tiebreaks[name] ?? 0))));
    body.append(tr);
  }
  table.replaceChildren(caption, head, body);
}

// A round robin's crosstable: each row's player's points against each column's (by standing number).
export function crossTable(t) {
  const order = t.standings.map((line) => line.player);
  const scores = new Map(); // "a\nb" → a's points against b, each game
  const add = (a, b, value) => { const key = `${a}\n${b}`; scores.set(key, [...(scores.get(key) || []), value]); };
  for (const round of t.paired) {
    for (const game of round) {
      if (game.second === null || game.result === null) continue;
      add(game.first, game.second, game.result);
      add(game.second, game.first, 1 - game.result);
    }
  }
  const head = headRow([["#", tx("players.rank"), "num"], [tx("panel.player"), null, "name"], ...order.map((name, i) => [String(i + 1), name, "num"]), [tx("tournaments.pts"), tx("tournaments.points"), "num"]]);
  const body = h("tbody");
  t.standings.forEach((line, i) => {
    const tr = h("tr", line.player === signedIn() ? "mine" : "");
    const player = h("th", "name", line.player);
    player.scope = "row";
    tr.append(h("td", "num", String(i + 1)), player);
    for (const other of order) {
      if (other === line.player) { tr.append(h("td", "num self", "×")); continue; }
      tr.append(h("td", "num", (scores.get(`${line.player}\n${other}`) || []).map(points).join(" ")));
    }
    tr.append(h("td", "num", points(line.points)));
    body.append(tr);
  });
  $("t-cross").replaceChildren(h("caption", "sr-only", tx("shell.crosstable")), head, body);
}

export function roundTable(t, round, number, enterGame) {
  const me = signedIn();
  const section = h("section", "t-round");
  section.dataset.round = number;
  const title = h("h3", "", tx("tournaments.round", { number }));
  title.id = `t-round-${number}`;
  const table = h("table", "t-table t-pairings");
  table.setAttribute("aria-labelledby", title.id);
  const body = h("tbody");
  for (const game of round) {
    const tr = h("tr", game.first === me || game.second === me ? "mine" : "");
    tr.dataset.board = game.board;
    const cell = h("td", "t-game");
    if (game.game_id) {
      const mine = game.first === me || game.second === me;
      const action = game.result !== null ? "review" : mine ? "play" : "watch";
      const label = tx(`lobby.action_${action}`);
      const a = h("a", "button-link", label);
      a.href = `/game/${game.game_id}`;
      a.dataset.action = action;
      a.setAttribute("aria-label", tx("tournaments.game_label", { label, number, board: game.board, first: game.first, second: game.second }));
      a.onclick = (evt) => { evt.preventDefault(); enterGame(game); };
      cell.append(a);
    }
    tr.append(h("td", "num", String(game.board)), h("td", "name first", game.first),
      h("td", "t-result", resultText(game, t)), game.second === null ? h("td", "name muted t-bye", tx("tournaments.bye")) : h("td", "name", game.second), cell);
    body.append(tr);
  }
  table.append(headRow([[tx("tournaments.bd"), tx("tournaments.board"), "num"], [tx("tournaments.first"), null, "name"], [tx("shell.result"), null, "t-result"], [tx("tournaments.second"), null, "name"], [tx("tournaments.game"), null, "t-game"]]), body);
  const box = h("div", "t-scroll");
  box.append(table);
  section.append(title, box);
  return section;
}
