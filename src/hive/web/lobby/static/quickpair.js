// Quick pairing, in the lobby's "Play someone" on a server with accounts: a grid of the common time controls (the
// server's /api/quickpair: bullet, blitz, rapid, classical, correspondence), each cell showing how many open seeks
// of other players wait in its pool (the game chosen above the grid, rated or casual). One click on a cell accepts
// the oldest of them whose ratings fit, or opens a seek there; a click on one's own waiting cell withdraws it. The
// server decides which in one transaction (two players clicking at once get one game). A guest is asked to sign in.
// The open seeks come from seeks.js (showQuick), which also opens the game once the account's own seek is taken.

import { api } from "../net.js";
import { $, app, h, stylesheet, toast } from "../page.js";
import { askSignIn, csrfHeaders, signedIn } from "../players/account.js";
import { t } from "../i18n.js";

stylesheet(new URL("./quickpair.css", import.meta.url));

// The texts, from the page's catalog (page-pairing.po).
const TEXTS = {
  title: () => t("pairing.title"),
  game: () => t("pairing.game"),
  rated: () => t("pairing.rated"),
  speeds: {
    bullet: () => t("pairing.speed.bullet"), blitz: () => t("pairing.speed.blitz"), rapid: () => t("pairing.speed.rapid"),
    classical: () => t("pairing.speed.classical"), correspondence: () => t("pairing.speed.correspondence"),
  },
  days: (count) => t("pairing.days", { count }),
  waiting: (count) => t("pairing.open", { count }),
  none: () => t("pairing.seek"),
  mine: () => t("pairing.mine"),
  cancel: () => t("pairing.cancel"),
  cellLabel: (control, speed, count) => (count ? t("pairing.cell_open", { control, speed, count }) : t("pairing.cell_empty", { control, speed })),
  mineLabel: (control, speed) => t("pairing.cell_mine", { control, speed }),
  opened: (control) => t("pairing.opened", { control }),
  cancelled: () => t("pairing.cancelled"),
  failed: (error) => t("pairing.failed", { error }),
};

let grid = null; // the server's: {cells, games}
let seeks = []; // the open seeks, as seeks.js last showed them
let hooks = null; // seeks.js's: enter(id, token) opens a started game; watch(seek) follows one's own seek

// The cells' pools are the chosen game's, with the options a click asks for (the game's own defaults).
function sameJSON(a, b) {
  const canon = (value) => JSON.stringify(Object.keys(value || {}).sort().map((key) => [key, value[key]]));
  return canon(a) === canon(b);
}

function inPool(seek, cell) {
  const kind = $("quick-game").value;
  const game = grid.games[kind];
  return seek.pool === cell.id && seek.kind === kind && !!game && seek.game === game.game
    && sameJSON(seek.options, game.options) && seek.rated === $("quick-rated").checked;
}

// A cell's name: minutes and seconds as the server writes them, or the days in the page's language.
function labelOf(cell) {
  const days = cell.time_control.days;
  return days ? TEXTS.days(days) : cell.label;
}

// Draw the grid again from the open seeks (the button focused keeps its focus).
function draw() {
  if (!grid) return;
  const me = signedIn();
  const box = $("quick-grid");
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.cell : null;
  box.replaceChildren(...grid.cells.map((cell) => {
    const pool = seeks.filter((seek) => inPool(seek, cell));
    const mine = !!me && pool.some((seek) => seek.player === me);
    const count = pool.filter((seek) => seek.player !== me).length;
    const speed = TEXTS.speeds[cell.speed] ? TEXTS.speeds[cell.speed]() : cell.speed;
    const label = labelOf(cell);
    const button = h("button", `pairing-cell${mine ? " mine" : ""}${count ? " open" : ""}`);
    button.type = "button";
    button.dataset.cell = cell.id;
    button.dataset.speed = cell.speed;
    button.setAttribute("aria-pressed", String(mine));
    button.title = mine ? TEXTS.mineLabel(label, speed) : TEXTS.cellLabel(label, speed, count);
    button.append(h("span", "pairing-control", label), h("span", "pairing-speed", mine ? TEXTS.mine() : speed),
      h("span", "pairing-count", mine ? TEXTS.cancel() : count ? TEXTS.waiting(count) : TEXTS.none()));
    button.onclick = () => pair(button, cell);
    return button;
  }));
  if (focused) {
    const again = box.querySelector(`[data-cell="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  }
}

async function pair(button, cell) {
  if (!signedIn()) { askSignIn(); return; }
  button.disabled = true;
  $("seeks-error").textContent = "";
  const body = { kind: $("quick-game").value, time_control: cell.time_control, rated: $("quick-rated").checked };
  try {
    const data = await api("POST", "/api/quickpair", body, null, csrfHeaders());
    if (data.paired === "started") { await hooks.enter(data.id, data.token); return; }
    if (data.paired === "waiting") {
      hooks.watch(data.seek);
      seeks = [data.seek, ...seeks.filter((seek) => seek.id !== data.seek.id)];
      toast(TEXTS.opened(labelOf(cell)), false);
    } else {
      seeks = seeks.filter((seek) => seek.id !== data.seek);
      toast(TEXTS.cancelled(), false);
    }
  } catch (err) {
    $("seeks-error").textContent = TEXTS.failed(err.message);
  } finally {
    button.disabled = false;
  }
  draw();
}

// The open seeks changed (seeks.js's lists): the counts follow.
export function showQuick(open) {
  seeks = open;
  draw();
}

// Build the grid's frame (its game choice and rated box) and ask the server for its cells.
export async function wireQuick(given) {
  hooks = given;
  const box = $("quick");
  const head = h("div", "pairing-head");
  const title = h("h3", "", TEXTS.title());
  title.id = "quick-title";
  const game = h("label", "pairing-choice", `${TEXTS.game()} `);
  const select = h("select");
  select.id = "quick-game";
  for (const info of app.assets.games) {
    const option = h("option", "", info.title);
    option.value = info.kind;
    select.append(option);
  }
  game.append(select);
  const rated = h("label", "check pairing-choice");
  const check = h("input");
  check.type = "checkbox";
  check.id = "quick-rated";
  check.checked = true;
  rated.append(check, document.createTextNode(` ${TEXTS.rated()}`));
  head.append(title, game, rated);
  const cells = h("div", "pairing-grid");
  cells.id = "quick-grid";
  cells.setAttribute("role", "group");
  cells.setAttribute("aria-labelledby", "quick-title");
  box.replaceChildren(head, cells);
  select.onchange = draw;
  check.onchange = draw;
  try {
    grid = await api("GET", "/api/quickpair", undefined, null);
    box.hidden = false;
    draw();
  } catch (err) {
    box.hidden = true; // the seeks and their dialog still serve
  }
}
