// The New game and Import / Export dialogs, and the Copy buttons. The games on offer, their side names and records
// are the server's (app.games, from /api/assets); each game's option fields are its page module's.

import { $, app, h, toast } from "../page.js";
import { askSignIn, signedIn } from "../players/account.js";

let load = null; // the page module of a kind of game, as a promise (the shell's)
const fields = {}; // per kind: a promise of {module, box}, the box holding the module's option fields
let preset = null; // the board editor's position to start from: its kind, options and record replace the form's

// The option fields of the games of this kind, drawn by its page module once and kept (with what was chosen).
function fieldsFor(kind) {
  fields[kind] ??= load(kind).then((module) => {
    const box = h("div", "game-fields");
    box.hidden = true;
    module.renderOptions(box, app.games[kind]);
    $("game-options").append(box);
    return { module, box };
  });
  return fields[kind];
}

// The option fields of a kind of game in another dialog's container (a seek's, a tournament's), drawn by the game's
// page module as New game's are (its module's renderOptions and options: the shell names no game), once per
// container and kind, and kept with what was chosen. Resolves to {module, box}: module.options(box) reads them.
const elsewhere = new Map(); // container → {kind: promise of {module, box}}
export function optionFields(kind, container) {
  if (!elsewhere.has(container)) elsewhere.set(container, {});
  const boxes = elsewhere.get(container);
  boxes[kind] ??= load(kind).then((module) => {
    const box = h("div", "game-fields");
    box.hidden = true;
    module.renderOptions(box, app.games[kind]);
    container.append(box);
    return { module, box };
  });
  return boxes[kind];
}

// Show the option fields of `kind` in `container` (and no other kind's); resolves to {module, box}.
export async function showOptionFields(kind, container) {
  const fields = await optionFields(kind, container);
  for (const other of container.children) other.hidden = other !== fields.box;
  return fields;
}

function sideValue(info, seat) { return info.sides[seat].toLowerCase(); }

// Show the New game form's rows for the chosen mode and game, with the game's names for the sides.
async function syncRows() {
  const form = $("form-new");
  const data = new FormData(form);
  const mode = data.get("mode"), kind = data.get("game");
  for (const row of form.querySelectorAll("[data-for]")) row.hidden = !row.dataset.for.split(" ").includes(mode);
  $("tc-custom").hidden = data.get("time_control") !== "custom" || mode === "local";
  const info = app.games[kind];
  const sides = $("colour").options;
  info.sides.forEach((side, seat) => {
    sides[seat].value = sideValue(info, seat);
    sides[seat].textContent = seat === info.first ? `${side} (${info.first_note})` : side;
  });
  const { box } = await fieldsFor(kind);
  if (new FormData(form).get("game") !== kind) return; // another game was chosen meanwhile
  for (const other of $("game-options").children) other.hidden = other !== box;
}

// The body of POST /api/games for the New game form: the game module reads its own options.
async function newGameBody() {
  const f = new FormData($("form-new"));
  const kind = f.get("game");
  const { module, box } = await fieldsFor(kind);
  const name = (f.get("name") || "").trim();
  return {
    kind, mode: f.get("mode"), ai_level: f.get("ai_level"), colour: f.get("colour"), options: module.options(box),
    name: name || null, help: f.get("help") === "on", time_control: timeControl(f.get("time_control")),
  };
}

// The time control a time select's choice names (New game's, a seek's, a tournament's): "untimed" (null), a
// preset's name, "days:N" ({days}), or New game's "custom" (the minutes and seconds of increment typed beside it).
export function timeControl(choice) {
  if (!choice || choice === "untimed") return null;
  if (choice.startsWith("days:")) return { days: Number(choice.slice(5)) };
  if (choice === "custom") {
    return { initial: Number($("tc-minutes").value) * 60, increment: Number($("tc-increment").value) };
  }
  return choice;
}

// A game read from a record of another kind than New game's: that game's defaults, the same seat.
function importAs(body, kind) {
  if (body.kind === kind) return body;
  const seat = app.games[body.kind].sides.findIndex((side) => side.toLowerCase() === body.colour);
  return { ...body, kind, options: {}, colour: seat < 0 ? body.colour : sideValue(app.games[kind], seat) };
}

function syncImportKind() { $("import-text").placeholder = app.games[$("import-kind").value].import.placeholder; }

// The games' choices in both dialogs, the first chosen.
function addChoices(games) {
  games.forEach((info, i) => {
    const input = h("input");
    Object.assign(input, { type: "radio", name: "game", value: info.kind, checked: i === 0 });
    const text = h("span");
    text.append(h("b", "", info.title), h("small", "", info.summary));
    const label = h("label");
    label.append(input, text);
    $("game-choices").append(label);
    const option = h("option", "", `${info.title} (${info.import.label})`);
    option.value = info.kind;
    $("import-kind").append(option);
  });
}

// The New game dialog with its game and options fixed by a position (null: chosen in the dialog as usual).
function fromPosition(position) {
  preset = position;
  $("game-choices").hidden = $("game-options").hidden = !!position;
  $("new-title").textContent = position ? `New ${app.games[position.kind].title} game from this position` : "New game";
}

// The New game dialog for a game from the board editor's position ({kind, options, position}).
export function newGameFrom(position) {
  $("form-new").querySelector(`[name=game][value="${position.kind}"]`).checked = true;
  fromPosition(position);
  syncRows();
  $("dlg-new").showModal();
}

// games is the list from /api/assets; loadModule(kind) and createGame(body) are the shell's. Resolves once every
// game's options are drawn, so that choosing another game shows its own at once.
export async function wireDialogs(games, { loadModule, createGame }) {
  load = loadModule;
  addChoices(games);
  const openNew = () => { fromPosition(null); syncRows(); $("dlg-new").showModal(); };
  $("btn-new").onclick = openNew;
  $("btn-banner-new").onclick = openNew;
  $("btn-welcome-new").onclick = openNew;
  $("btn-io").onclick = () => {
    const kind = app.state ? app.state.kind : games[0].kind;
    $("import-kind").value = kind;
    $("io-title").textContent = app.games[kind].record;
    syncImportKind();
    $("dlg-io").showModal();
  };
  $("import-kind").addEventListener("change", syncImportKind);
  $("form-new").addEventListener("change", (evt) => { if (["mode", "game", "time_control"].includes(evt.target.name)) syncRows(); });
  $("form-new").addEventListener("submit", async (evt) => {
    if (evt.submitter && evt.submitter.value !== "start") return;
    evt.preventDefault();
    if (await createGame({ ...(await newGameBody()), ...preset })) $("dlg-new").close();
  });
  $("form-io").addEventListener("submit", async (evt) => {
    if (!evt.submitter || evt.submitter.value !== "import") return;
    evt.preventDefault();
    const text = $("import-text").value.trim();
    const kind = $("import-kind").value;
    if (!text) { toast(app.games[kind].import.empty); return; }
    const body = importAs(await newGameBody(), kind);
    body.mode = $("import-mode").value;
    body.game_string = text;
    if (await createGame(body)) { $("dlg-io").close(); $("import-text").value = ""; }
  });
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", async () => {
      const input = $(button.dataset.copy);
      input.select();
      try { await navigator.clipboard.writeText(input.value); toast("Copied", false); } catch (err) { document.execCommand("copy"); }
    });
  }
  await Promise.all(games.map((info) => fieldsFor(info.kind)));
  await syncRows();
}

// A dialog only a signed-in player uses (a seek's, a tournament's: dlg-<prefix>, its message in <prefix>-error): one
// who is not signed in is asked to sign in instead; otherwise its message is cleared, its fields follow the choices
// (sync) and the field `first` has the focus.
export function openSignedInDialog(prefix, sync, first) {
  if (!signedIn()) { askSignIn(); return; }
  $(`${prefix}-error`).textContent = "";
  sync();
  $(`dlg-${prefix}`).showModal();
  $(first).focus();
}

// A rated game has a clock: while `rated`, the time select's untimed choice is disabled (blitz chosen in its place).
export function clockForRated(rated, select) {
  select.querySelector("[value=untimed]").disabled = rated;
  if (rated && select.value === "untimed") select.value = "blitz";
}
