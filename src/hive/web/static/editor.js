// The board editor (/editor): pieces taken from both hands onto the board (stacked where the game stacks them),
// moved, taken back, the side to move and the turn number set; the server says at once whether the position is
// legal (the library's own message when it is not) and, when it is, its legal moves, shown for a piece picked on
// the board as in a game. From a legal position: a game (the New game dialog's choices) or an analysis on one
// screen. What a game's pieces and cells are, how they are drawn and written, is its page module's (editor verbs,
// listed at the top of main.js).

import { serverText, side as sideName, t } from "./i18n.js";
import { api } from "./net.js";
import { $, app, h, stylesheet, toast } from "./page.js";

stylesheet(new URL("./editor.css", import.meta.url));

let shell = null; // the shell's gameFor(kind), createGame(body), newGameFrom(preset), analyse(), render()
let panel = null;
const boxes = {}; // per kind: the option fields drawn by its page module
let checking = 0; // the number of the last check sent: a late answer to an earlier one is dropped

// The board's controller while the editor is open (see hexboard.js's wireBoard).
export const editorBoard = {
  press: () => null,
  click: (evt) => clickBoard(evt),
  hover() {},
  leave() {},
};

function row(className, ...children) {
  const div = h("div", className);
  div.append(...children);
  return div;
}

function button(id, label, className = "") {
  const b = h("button", className, label);
  b.id = id;
  b.type = "button";
  return b;
}

function build() {
  panel = h("aside", "side editor");
  panel.id = "editor";
  panel.hidden = true;
  const games = h("select");
  games.id = "ed-game";
  for (const info of app.assets.games) {
    const option = h("option", "", info.title);
    option.value = info.kind;
    games.append(option);
  }
  const head = h("div", "card ed-head");
  const label = h("label", "", `${t("shell.game")} `);
  label.append(games);
  const options = h("div", "ed-options");
  options.id = "ed-options";
  head.append(row("box-title", h("span", "", t("shell.set_up_a_position"))), row("row", label), options);
  const hands = [0, 1].map((seat) => { const card = h("div", "card ed-hand"); card.dataset.seat = seat; return card; });
  const side = h("select");
  side.id = "ed-side";
  const number = h("input");
  Object.assign(number, { id: "ed-number", type: "number", min: 1, max: 10000, value: 1 });
  const toMove = h("label", "", `${t("editor.to_move")} `);
  toMove.append(side);
  const turn = h("label", "", `${t("editor.turn")} `);
  turn.append(number);
  const status = h("div", "ed-status");
  status.id = "ed-status";
  status.setAttribute("role", "status");
  const text = h("textarea");
  Object.assign(text, { id: "ed-text", rows: 2, spellcheck: false });
  text.setAttribute("aria-label", t("editor.record"));
  const box = h("div", "card ed-box");
  box.append(
    row("row ed-turn", toMove, turn),
    status,
    row("ed-controls", button("ed-remove", t("editor.back_to_hand")), button("ed-clear", t("editor.clear")), button("ed-reset", t("editor.start_position"))),
    row("ed-controls ed-go", button("ed-play", t("shell.start_a_game"), "primary"), button("ed-analyse", t("shell.analyse"))),
    h("div", "box-title", t("editor.record")),
    row("copy-row", text, button("ed-load", t("editor.load"))),
  );
  panel.append(hands[0], hands[1], box, head); // on a phone, the hands right under the board
  $("layout").append(panel);
  const flag = h("div", "ed-flag"); // the verdict on the board too, in view while pieces are placed
  flag.id = "ed-flag";
  flag.hidden = true;
  $("board-area").append(flag);
}

function wire() {
  $("ed-game").onchange = () => choose($("ed-game").value);
  $("ed-options").addEventListener("change", () => {
    const ed = app.editor;
    ed.options = ed.module.options(boxes[ed.kind]);
    changed();
  });
  $("ed-side").onchange = () => { app.editor.turn = Number($("ed-side").value); changed(); };
  $("ed-number").onchange = () => {
    const n = Math.round(Number($("ed-number").value));
    if (!(n >= 1 && n <= 10000)) { toast(t("editor.turn_range")); $("ed-number").value = String(app.editor.number); return; }
    if (n === app.editor.number) return; // the same number again (the field left after Enter)
    app.editor.number = n;
    changed(false);
  };
  $("ed-remove").onclick = () => {
    const ed = app.editor;
    if (ed.chosen === null) return;
    ed.module.editorTake(ed.cells, ed.chosen);
    drop();
    changed();
  };
  $("ed-clear").onclick = () => { Object.assign(app.editor, { cells: {}, number: 1, turn: 0 }); drop(); changed(); };
  $("ed-reset").onclick = () => load(null);
  $("ed-load").onclick = () => load($("ed-text").value.trim());
  $("ed-play").onclick = () => {
    const ed = app.editor;
    shell.newGameFrom({ kind: ed.kind, options: ed.options, position: ed.answer.position });
  };
  $("ed-analyse").onclick = async () => {
    const ed = app.editor;
    const body = { kind: ed.kind, options: ed.options, position: ed.answer.position, mode: "local" };
    if (await shell.createGame(body)) shell.analyse();
  };
}

// The plies played before a game's first move: those of the position it was set up from ("Position;<game>;<side>[4]").
export function startPly(state) {
  const turn = state.start ? /^\s*(\w+)\[(\d+)\]/.exec(state.start.split(";")[2] || "") : null;
  if (!turn) return 0;
  const side = app.games[state.kind].sides.findIndex((name) => name.toLowerCase() === turn[1].toLowerCase());
  return 2 * (Number(turn[2]) - 1) + Math.max(side, 0);
}

// Show the editor (the page at /editor), with the game chosen last or the first on offer.
export async function openEditor(hooks) {
  shell = hooks;
  if (!panel) { build(); wire(); }
  document.body.classList.add("editing");
  panel.hidden = $("ed-flag").hidden = false;
  if (!app.editor) await choose(app.editorKind || app.assets.games[0].kind);
  else render();
}

export function closeEditor() {
  if (!panel) return;
  document.body.classList.remove("editing");
  panel.hidden = $("ed-flag").hidden = true;
  if (app.editor) app.editorKind = app.editor.kind;
  app.editor = null;
  app.selected = null;
}

async function choose(kind) {
  const module = await shell.gameFor(kind);
  if (!boxes[kind]) {
    boxes[kind] = h("div", "game-fields");
    module.renderOptions(boxes[kind], app.games[kind]);
    $("ed-options").append(boxes[kind]);
  }
  for (const [k, box] of Object.entries(boxes)) box.hidden = k !== kind;
  $("ed-game").value = kind;
  const side = $("ed-side");
  side.innerHTML = "";
  app.games[kind].sides.forEach((name, seat) => { const o = h("option", "", sideName(kind, name)); o.value = seat; side.append(o); });
  app.editor = { kind, module, options: module.options(boxes[kind]), cells: {}, turn: 0, number: 1, pick: null, chosen: null, view: null, answer: null };
  await load(null);
  shell.render(); // the top bar names the game
}

// Check a position record (null: the start of a game) and, when it is legal, edit it.
async function load(text) {
  const ed = app.editor;
  const seq = ++checking;
  try {
    const answer = await api("POST", "/api/positions", { kind: ed.kind, options: ed.options, position: text });
    if (seq !== checking || app.editor !== ed) return;
    if (!answer.valid) { toast(serverText(answer.error)); return; }
    drop();
    ed.turn = answer.view.turn;
    ed.number = Number((answer.position.split(";")[2].match(/\[(\d+)\]/) || [0, 1])[1]);
    accept(ed, answer);
  } catch (err) {
    toast(err.message);
  }
}

function accept(ed, answer) {
  ed.answer = answer;
  if (answer.valid) {
    ed.options = answer.options;
    ed.cells = ed.module.editorFrom(answer.view);
    ed.view = answer.view;
    if (app.selected) ed.chosen = Object.keys(ed.cells).find((cell) => ed.module.editorSelect(ed.cells, cell) === app.selected) ?? null;
    if (ed.chosen === null) app.selected = null;
  }
  render();
}

function turnText(ed) { return `${app.games[ed.kind].sides[ed.turn]}[${ed.number}]`; }

// The position was edited: draw it as it stands and ask the server about it (the turn number raised to the
// least the pieces in play need, unless it was set by hand).
async function changed(raise = true) {
  const ed = app.editor;
  if (raise) ed.number = Math.max(ed.number, ed.module.editorLeast(ed.cells, ed.turn));
  const text = ed.module.editorText(ed.cells, turnText(ed), ed.options);
  ed.view = ed.module.editorView(ed.cells);
  ed.answer = { valid: null, position: null };
  render();
  const seq = ++checking;
  try {
    const answer = await api("POST", "/api/positions", { kind: ed.kind, options: ed.options, position: text });
    if (seq === checking && app.editor === ed) accept(ed, answer);
  } catch (err) {
    if (seq === checking) { ed.answer = { valid: false, error: err.message }; render(); }
  }
}

function drop() {
  const ed = app.editor;
  ed.chosen = null;
  app.selected = null;
}

function clickBoard(evt) {
  const ed = app.editor;
  const cell = ed.module.editorCell(evt);
  if (cell === null) return;
  if (ed.pick) {
    const refused = ed.module.editorPlace(ed.cells, ed.pick, cell);
    if (refused) { toast(refused); return; }
    ed.pick = null;
    drop();
    changed();
    return;
  }
  if (ed.chosen !== null) {
    const from = ed.chosen;
    drop();
    if (from !== cell) {
      const piece = ed.module.editorTake(ed.cells, from);
      const refused = ed.module.editorPlace(ed.cells, piece, cell);
      if (refused) { ed.module.editorPlace(ed.cells, piece, from); toast(refused); }
      changed();
      return;
    }
    render();
    return;
  }
  const picked = ed.module.editorSelect(ed.cells, cell);
  if (picked !== null) { ed.chosen = cell; app.selected = picked; }
  render();
}

// How many more of a palette piece may be put in play (Infinity: no limit).
function left(ed, key, count = undefined) {
  const most = count !== undefined ? count : ed.module.editorPieces(ed.options).flat().find((p) => p.key === key).count;
  if (most === null) return Infinity;
  return most - Object.values(ed.cells).flat().filter((p) => p.startsWith(key)).length;
}

// ------------------------------------------------------------------ drawing

export function renderEditor() { if (app.editor) render(); }

// A view's legal moves are a list, or lists by the piece that makes them.
function moveCount(legal) {
  return Array.isArray(legal) ? legal.length : Object.values(legal).reduce((n, list) => n + list.length, 0);
}

function render() {
  const ed = app.editor;
  const info = app.games[ed.kind];
  if (ed.view) ed.module.editorDraw(ed.view);
  renderHands(ed, info);
  showTurn();
  const answer = ed.answer || {};
  const status = $("ed-status");
  status.className = "ed-status" + (answer.valid ? " legal" : answer.valid === false ? " illegal" : "");
  const moves = answer.valid && answer.view ? moveCount(answer.view.legal) : 0;
  const mover = sideName(ed.kind, info.sides[ed.turn]);
  status.textContent = answer.valid === null || answer.valid === undefined
    ? t("editor.checking")
    : !answer.valid ? serverText(answer.error)
      : answer.over ? t("editor.legal_over", { over: answer.over })
        : `${t("editor.legal", { side: mover, count: moves })}${app.selected ? "" : ` ${t("editor.pick")}`}`;
  $("ed-flag").className = status.className.replace("ed-status", "ed-flag");
  $("ed-flag").textContent = answer.valid ? `${t("editor.legal_short")} · ${t("main.to_move", { side: mover })}` : status.textContent;
  const ready = !!answer.valid && !answer.over;
  $("ed-play").disabled = $("ed-analyse").disabled = !ready;
  $("ed-remove").disabled = ed.chosen === null;
  if (document.activeElement !== $("ed-text")) $("ed-text").value = answer.position || ed.module.editorText(ed.cells, turnText(ed), ed.options);
  document.title = `${t("shell.set_up_a_position")} · ${info.title}`;
}

function showTurn() {
  const ed = app.editor;
  $("ed-side").value = String(ed.turn);
  if (document.activeElement !== $("ed-number")) $("ed-number").value = String(ed.number); // never under typing
}

function renderHands(ed, info) {
  const pieces = ed.module.editorPieces(ed.options);
  for (const card of panel.querySelectorAll(".ed-hand")) {
    const seat = Number(card.dataset.seat);
    card.innerHTML = "";
    card.append(row("card-head", h("span", "card-name", t("editor.pieces_of", { side: sideName(ed.kind, info.sides[seat]) })), h("span", "card-role", t("editor.tap"))));
    const hand = h("div", "hand ed-palette");
    for (const { key, count } of pieces[seat]) {
      const n = left(ed, key, count);
      const item = h("button", "hand-piece ed-piece" + (ed.pick === key ? " selected" : ""));
      item.type = "button";
      item.dataset.piece = key;
      item.disabled = n <= 0;
      item.title = n === Infinity ? t("editor.no_limit") : t("editor.in_hand", { count: n });
      item.append(ed.module.editorPicture(key, 44));
      if (n !== Infinity) item.append(h("span", "count", `×${n}`));
      item.onclick = () => { ed.pick = ed.pick === key ? null : key; drop(); render(); };
      hand.append(item);
    }
    card.append(hand);
  }
}
