// HiveQueen's page module: the 61-cell field, then a turn built in two phases (a movement, then productions) that
// the server previews step by step and plays whole, in a turn panel under the field, with a chooser for the clicks
// that mean more than one thing. Same interface as every game module (see main.js).

import { t } from "../i18n.js";
import { api } from "../net.js";
import { $, app, h, stylesheet, toast } from "../page.js";
import { KINDS, SIDES, STYLE, drawField, miniPiece } from "./hivequeen-field.js";
import { aiming, pieceName, preselectClick, preselected } from "./hivequeen-premove.js";
import { backToBoard, hexAt } from "../hexboard.js";
import { startPly } from "../editor.js";

export const intro = t("hivequeen.intro");
export const evaluation = false;
export const flipTitle = t("hivequeen.flip_title");
export { SIDES, pieceName, preselected }; // the last two: a movement chosen early (premove.js)

stylesheet(new URL("./hivequeen.css", import.meta.url));

const ORDER = "QHDNWS";
const PRODUCIBLE = "WSND";

let shell = null;
// The turn being built: {base: movement text, prods: ["+Sd4"], preview: the server's preview, kind: chosen kind}.
let turn = null;
let panel = null; // the turn panel: its steps, what to do, the pieces to produce
let pick = null; // the chooser next to a click

export function init(s) {
  shell = s;
  panel = h("div", "qpanel");
  panel.id = "qpanel";
  pick = h("div", "qpick");
  pick.id = "qpick";
  panel.hidden = pick.hidden = true;
  $("board-area").append(panel, pick);
}

export function hide() { reset(); panel.hidden = true; }

export function sideName(seat) { return SIDES[seat]; }
export function phase() { return turn && turn.preview ? `: ${t("hivequeen.production")}` : ` ${t("hive.to_move")}`; }
export function reasonText(reason) { return reason; }
export function info(state) { return t("hivequeen.info", { turn: Math.floor((startPly(state) + state.moves.length) / 2) + 1 }); }

// No options: a few words on the game and its rules page instead.
export function renderOptions(box, game) {
  const text = h("p", "", `${t("hivequeen.about")} `);
  const link = h("a", "", t("main.how_to_play", { game: game.title }));
  Object.assign(link, { href: game.rules, target: "_blank", rel: "noopener" });
  text.append(link);
  const row = h("div", "row about");
  row.append(text);
  box.append(row);
}

export function options() { return {}; }

export function reset() { turn = null; hidePick(); }
export function cancelTurn() { if (!turn) return false; reset(); return true; }
export function escape() {
  if (!pick.hidden && pick.contains(document.activeElement)) backToBoard(); // the keyboard was in the chooser
  hidePick();
}

function fieldView() {
  if (app.review) return app.review.view;
  if (turn && turn.preview) return turn.preview.view;
  return shell.currentView();
}

function turnText() { return turn ? [turn.base, ...turn.prods].join(";") : ""; }

function preview(text) { return api("POST", `/api/games/${app.gameId}/preview`, { move: text, ...shell.at() }); }

async function chooseMovement(text) {
  hidePick();
  app.selected = null;
  try {
    const answer = await preview(text);
    if (answer.done) { await shell.play({ move: answer.move }); return; }
    turn = { base: answer.move, prods: [], preview: answer, kind: null };
    const kinds = kindsAvailable();
    if (kinds.length === 1) turn.kind = kinds[0];
  } catch (err) {
    toast(err.message);
  }
  shell.render();
}

async function produce(move) {
  hidePick();
  const t = turn;
  try {
    const answer = await preview([t.base, ...t.prods, move].join(";"));
    t.prods.push(move);
    t.preview = answer;
    const kinds = kindsAvailable();
    if (!kinds.includes(t.kind)) t.kind = kinds.length === 1 ? kinds[0] : null;
  } catch (err) {
    toast(err.message);
  }
  shell.render();
}

async function takeBackPiece() {
  const t = turn;
  if (!t) return;
  if (!t.prods.length) { reset(); shell.render(); return; }
  try {
    t.preview = await preview([t.base, ...t.prods.slice(0, -1)].join(";"));
    t.prods.pop();
  } catch (err) {
    toast(err.message);
  }
  shell.render();
}

async function endTurn() {
  const text = turnText();
  reset();
  await shell.play({ move: text });
}

function kindsAvailable() {
  if (!turn || !turn.preview) return [];
  return [...new Set(turn.preview.productions.map((p) => p.kind))].sort((a, b) => PRODUCIBLE.indexOf(a) - PRODUCIBLE.indexOf(b));
}

// ------------------------------------------------------------------ the field

export function renderBoard() {
  const view = fieldView();
  if (view) drawField(view, turn && turn.preview && !app.review ? turn : null, aiming(shell));
}

// ------------------------------------------------------------------ clicks on the field

export async function click(evt) {
  if (!app.state || app.review) return;
  const target = evt.target.closest("[data-cell]");
  if (!target) { app.selected = null; hidePick(); shell.render(); return; }
  const name = target.dataset.cell;
  const view = fieldView();
  const cell = view.cells.find((c) => c.cell === name);
  if (shell.mayPreselect()) { preselectClick(shell, name, cell); return; }
  const refusal = shell.refusal();
  if (refusal) { toast(refusal); return; }
  if (turn && turn.preview) { clickProduction(evt, name); return; }
  if (app.selected) {
    const options = (view.legal[app.selected] || []).filter((m) => m.to === name);
    if (options.length === 1 && !options[0].promote) { chooseMovement(options[0].move); return; }
    if (options.length) { showPick(evt, options.map((m) => ({ label: moveLabel(m), move: m.move, promote: m.promote }))); return; }
    if (name === app.selected) { app.selected = null; shell.render(); return; }
  }
  if (cell.piece && cell.piece.side === view.turn) {
    if (view.legal[name]) { app.selected = name; app.hint = null; hidePick(); shell.render(); return; }
    await shell.explain(name, t("hivequeen.no_movement", { piece: KINDS[cell.piece.kind], cell: name }));
    app.selected = null;
    shell.render();
    return;
  }
  if (app.selected) {
    // not a lit cell: the server names the rule
    try {
      await api("POST", `/api/games/${app.gameId}/preview`, { from: app.selected, to: name, ...shell.at() });
    } catch (err) { toast(err.message); }
    return;
  }
  if (cell.piece) toast(t("hivequeen.not_yours", { side: SIDES[cell.piece.side], piece: KINDS[cell.piece.kind], cell: name }), false);
}

function moveLabel(m) {
  const [, , , to] = m.move.match(/^([QHDNWS])([a-i][1-9])(?:([-x])([a-i][1-9]))?/i) || [];
  if (m.promote && !to) return t("hivequeen.promote_here", { move: m.move });
  const how = m.capture ? "capture" : "slide";
  if (m.promote) return t(`hivequeen.${how}_promote`, { cell: m.to, move: m.move });
  return t(`hivequeen.${how}_stay`, { cell: m.to, move: m.move });
}

function clickProduction(evt, name) {
  const here = turn.preview.productions.filter((p) => p.cell === name);
  const kind = turn.kind;
  if (kind && here.some((p) => p.kind === kind)) { produce(`+${kind}${name}`); return; }
  if (here.length === 1) { produce(here[0].move); return; }
  if (here.length > 1) {
    showPick(evt, here.map((p) => ({ label: `${KINDS[p.kind]} (${p.move})`, move: p.move, kind: p.kind, production: true })));
    return;
  }
  if (!turn.preview.productions.length) { toast(t("hivequeen.nothing_more")); return; }
  // the server names the rule that forbids producing here
  const attempt = `+${kind || "W"}${name}`;
  preview([turn.base, ...turn.prods, attempt].join(";")).then(
    () => produce(attempt),
    (err) => toast(err.message.replace(/^'[^']*' ?: /, "")),
  );
}

// A small chooser next to the click: promotion or not, or which piece to produce.
function showPick(evt, choices) {
  pick.innerHTML = "";
  pick.append(h("div", "qpick-title", t(choices[0].production ? "hivequeen.which_piece" : "hivequeen.promote_question")));
  for (const choice of choices) {
    const b = h("button", choice.promote ? "primary" : "");
    b.type = "button";
    b.dataset.move = choice.move;
    if (choice.kind) b.prepend(miniPiece(shell.currentView().turn, choice.kind, 22));
    b.append(document.createTextNode(choice.label));
    b.onclick = () => { backToBoard(); return choice.production ? produce(choice.move) : chooseMovement(choice.move); };
    pick.append(b);
  }
  const cancel = h("button", "qpick-cancel", t("shell.cancel"));
  cancel.type = "button";
  cancel.onclick = () => { backToBoard(); hidePick(); shell.render(); };
  pick.append(cancel);
  const area = $("board-area").getBoundingClientRect();
  pick.hidden = false;
  const x = Math.min(evt.clientX - area.left + 12, area.width - pick.offsetWidth - 10);
  const y = Math.min(evt.clientY - area.top + 12, area.height - pick.offsetHeight - 10);
  pick.style.left = `${Math.max(10, x)}px`;
  pick.style.top = `${Math.max(10, y)}px`;
  if (evt.keyboard) pick.querySelector("button").focus();
}

function hidePick() { pick.hidden = true; }

// Pieces are clicked, never dragged; the field has nothing to show on hover.
export function press() { return null; }
export function hover() {}
export function leave() {}

export function hint(data) {
  const m = data.move.match(/^([QHDNWS])([a-i][1-9])(?:[-x]([a-i][1-9]))?/i);
  app.hint = m ? { from: m[2], to: m[3] || m[2] } : null;
}

// ------------------------------------------------------------------ the turn panel and the side cards

export function renderPanel() {
  const s = app.state;
  panel.hidden = !!app.review || (!!s.result && !app.analysis);
  if (panel.hidden) return;
  panel.innerHTML = "";
  const producing = !!(turn && turn.preview);
  const steps = h("div", "qsteps");
  for (const [i, label] of [[1, t("hivequeen.step_move")], [2, t("hivequeen.step_produce")]]) {
    const step = h("span", "qstep" + ((i === 1) !== producing ? " on" : ""));
    step.append(h("b", "", String(i)), label);
    steps.append(step);
  }
  panel.append(steps);
  const text = h("div", "qpanel-text");
  panel.append(text);
  const view = shell.currentView();
  if (!shell.canAct()) {
    text.textContent = s.thinking ? t("panel.ai_side_thinking", { side: SIDES[view.turn] }) : t("main.to_move", { side: SIDES[view.turn] });
    if (shell.mayPreselect() && (app.selected || !app.pending)) { // how to pre-select a movement meanwhile
      panel.append(h("div", "qpanel-text qpanel-hint", app.selected ? t("hivequeen.preselect_to", { piece: pieceName(app.selected) }) : t("hivequeen.preselect_piece")));
    }
    panel.dataset.phase = "waiting";
    return;
  }
  if (!producing) {
    panel.dataset.phase = "movement";
    text.textContent = app.selected
      ? t("hivequeen.click_lit", { piece: KINDS[view.cells.find((c) => c.cell === app.selected).piece.kind], cell: app.selected })
      : view.can_promote[view.turn]
        ? t("hivequeen.queen_gone")
        : t("hivequeen.click_piece");
    return;
  }
  panel.dataset.phase = "production";
  renderProduction(text, view.turn);
}

function renderProduction(text, side) {
  const tn = turn, p = tn.preview;
  const head = h("div", "qturn");
  head.innerHTML = `<code>${turnText()}</code>`;
  text.replaceWith(head);
  const info = h("div", "qpanel-text", p.productions.length
    ? `${t("hivequeen.may_produce", { count: p.left, units: p.units, capacity: p.capacity })} ${t("hivequeen.nurses_producing", { count: p.nurses })}`
    : t("hivequeen.no_more", { units: p.units, capacity: p.capacity }));
  info.id = "qprod-info";
  panel.append(info);
  const kinds = h("div", "qkinds");
  const available = kindsAvailable();
  for (const kind of PRODUCIBLE) {
    const b = h("button", "qkind" + (tn.kind === kind ? " selected" : ""));
    b.type = "button";
    b.dataset.kind = kind;
    b.disabled = !available.includes(kind);
    const cells = p.productions.filter((x) => x.kind === kind).length;
    const limit = p.view.limits[kind] ? ` / ${p.view.limits[kind]}` : "";
    b.title = b.disabled ? t("hivequeen.cannot_produce", { piece: KINDS[kind] }) : t("hivequeen.cells_to_enter", { count: cells, piece: KINDS[kind] });
    const label = h("span", "qkind-label");
    label.append(h("b", "", KINDS[kind]), h("small", "", t("hivequeen.on_field", { count: `${p.view.counts[kind][side]}${limit}` })));
    b.append(miniPiece(side, kind, 30), label);
    b.dataset.keep = `qkind:${kind}`;
    b.onclick = (evt) => {
      tn.kind = kind;
      if (evt.detail === 0) backToBoard(); // chosen by the keyboard: on to the cells where it can enter
      shell.render();
    };
    kinds.append(b);
  }
  panel.append(kinds);
  const buttons = h("div", "qbuttons");
  const back = h("button", "", t(tn.prods.length ? "hivequeen.take_back_piece" : "hivequeen.take_back_movement"));
  back.type = "button";
  back.id = "qbtn-back";
  back.dataset.keep = "qbtn-back";
  back.onclick = (evt) => { if (evt.detail === 0) backToBoard(); takeBackPiece(); };
  const end = h("button", "primary", t(tn.prods.length ? "hivequeen.end_turn" : "hivequeen.end_turn_without"));
  end.type = "button";
  end.id = "qbtn-end";
  end.onclick = (evt) => { if (evt.detail === 0) backToBoard(); endTurn(); };
  buttons.append(back, end);
  panel.append(buttons);
}

export function renderCard(card, seat) {
  const view = fieldView();
  const head = shell.cardHead(card, seat, view, STYLE[seat].fill);
  const units = view.units[seat], capacity = view.capacity[seat];
  const meter = h("div", "qunits");
  meter.dataset.units = units;
  meter.dataset.capacity = capacity;
  meter.title = t("hivequeen.units_title");
  meter.append(h("b", "", String(units)), ` / ${t("hivequeen.units", { count: capacity })}`);
  head.append(meter);
  const bar = h("div", "qbar" + (units >= capacity ? " full" : ""));
  const fill = h("span");
  fill.style.width = `${Math.min(100, (100 * units) / Math.max(capacity, 1)).toFixed(1)}%`;
  bar.append(fill);
  const pieces = h("div", "qcounts");
  for (const kind of ORDER) {
    const n = view.counts[kind][seat];
    const item = h("span", "qcount" + (n ? "" : " none"));
    item.dataset.kind = kind;
    item.title = t(view.limits[kind] ? "hivequeen.count_limit" : "hivequeen.count", { piece: KINDS[kind], count: n, limit: view.limits[kind] });
    item.append(miniPiece(seat, kind, 26), h("b", "", `${n}`));
    pieces.append(item);
  }
  card.append(bar, pieces);
  if (!view.counts.Q[seat] && !app.state.result) {
    card.append(h("div", "qwarn", t(view.can_promote[seat] ? "hivequeen.queen_lost_promote" : "hivequeen.queen_lost")));
  }
}

// ------------------------------------------------------------------ the board editor (see editor.js)

const MOST = { Q: 1, H: 2, D: 2, N: 2, W: 8, S: null }; // Soldiers: as many as the field holds
const SIDE_KEYS = "sn";
let template = []; // the 61 cells of the field, from the first view the editor shows

// The pieces each side may have on the field: a key per kind ("sQ": South's Queen) and how many (null: no limit).
export function editorPieces() {
  return [0, 1].map((side) => [...ORDER].map((kind) => ({ key: SIDE_KEYS[side] + kind, count: MOST[kind] })));
}

export function editorPicture(key, size) { return miniPiece(SIDE_KEYS.indexOf(key[0]), key[1], size); }

// The editor's position from a view: one piece a cell, by the cell's name.
export function editorFrom(view) {
  template = view.cells.map(({ cell, q, r }) => ({ cell, q, r }));
  return Object.fromEntries(view.cells.filter((c) => c.piece).map((c) => [c.cell, [SIDE_KEYS[c.piece.side] + c.piece.kind]]));
}

export function editorView(cells) {
  const piece = (name) => (cells[name] ? { side: SIDE_KEYS.indexOf(cells[name][0][0]), kind: cells[name][0][1] } : null);
  return { cells: template.map((c) => ({ ...c, piece: piece(c.cell) })), legal: {}, last: null };
}

export function editorText(cells, turn) {
  const sides = [0, 1].map((side) => Object.entries(cells).filter(([, [p]]) => p[0] === SIDE_KEYS[side]).map(([name, [p]]) => p[1] + name));
  return `Position;HiveQueen;${turn};${sides[0].join(" ")};${sides[1].join(" ")}`;
}

export function editorCell(evt) {
  const [q, r] = hexAt(evt);
  const found = template.find((c) => c.q === q && c.r === r);
  return found ? found.cell : null;
}

export function editorPlace(cells, key, cell) {
  if (cells[cell]) return t("hivequeen.taken", { cell });
  cells[cell] = [key];
  return null;
}

export function editorTake(cells, cell) {
  const piece = cells[cell] ? cells[cell][0] : null;
  delete cells[cell];
  return piece;
}
export function editorSelect(cells, cell) { return cells[cell] ? cell : null; }
export function editorDraw(view) { drawField(view, null); }
export function editorLeast() { return 1; }
