// Hive's page module: the hive in axial coordinates, the hands, the Queens' pressure; pieces are clicked or dragged
// from a hand or the board onto a lit cell; a pop-up shows a stack. Same interface as every game module (see main.js).

import { gameType, side, t } from "../i18n.js";
import { $, app, h, stylesheet, toast } from "../page.js";
import { R, beginDrag, centre, drawPending, dragged, el, fit, frame, hexAt, hexPoints, keyTarget, pickedFrom, ring } from "../hexboard.js";
import { beside, describe, destination, spoken } from "./hive-words.js";
import { hideStack, holdToShow, makeStackPop, showStack } from "./hive-stack.js";
export * from "./hive-editor.js"; // the board editor's verbs

export const intro = t("hive.intro");
export const evaluation = true;
export const flipTitle = t("top.flip_title");
export const SIDES = ["White", "Black"];

stylesheet(new URL("./hive.css", import.meta.url));

export const BUGS = "QSBGAMLP";
export const BUG_NAMES = [...BUGS].map((letter) => t(`hive.piece.${letter}`)); // the bugs' names in the page's language
export const AROUND = [[1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1]];
const EXPANSIONS = "MLP"; // the bugs a game may leave out
const SIDE_RIMS = ["#fff4dc", "#10141c"]; // the Warm/Cool set's sides: a cream rim and a near-black rim

let shell = null;

export function init(s) {
  shell = s;
  makeStackPop(() => shell.currentView());
}

export function hide() { hideStack(); }

// The set the open game is played with: the classic one, or seed 001's Warm/Cool edition.
function warmCool() { return !!app.state && app.state.options.set === "warm-cool"; }
function themeOf() { return app.assets.themes[warmCool() ? "warm-cool" : "default"]; }
export function colourOf(name) { return name[0] === "w" ? 0 : 1; }
// The palette of a side's pieces: with the Warm/Cool set, the side that went first plays White's part in the
// notation, in its own colours.
function paletteOf(colour) { return warmCool() && app.state.options.first === "cool" ? 1 - colour : colour; }
export function kindOf(name) { return BUGS.indexOf(name[1]); }
export function key(q, r) { return `${q},${r}`; }
export { spoken as pieceName }; // how premove.js names a pre-selected piece

export function sideName(seat) { return side("hive", app.state ? app.state.sides[seat] : SIDES[seat]); }
export function phase() { return ` ${t("hive.to_move")}`; }
export function reasonText(reason) { return reason; } // the server names the sides as the page does

export function info(state) {
  const opts = state.options;
  const exp = opts.game_type === "Base" ? t("hive.base_only") : gameType(opts.game_type);
  const set = opts.set === "warm-cool" ? ` · ${t("hive.warm_cool_set")}` : "";
  const opening = t(opts.tournament_opening ? "hive.opening_tournament" : "hive.opening_original");
  return `${exp} · ${opening}${opts.repetition_draw ? ` · ${t("hive.repetition_draw")}` : ""}${set}`;
}

// A new game's options in the New game dialog: the expansions, the opening rule, the repetition draw.
export function renderOptions(box) {
  const bugs = [...EXPANSIONS].map((bug) =>
    `<label class="check"><input type="checkbox" name="${bug}" checked> ${BUG_NAMES[BUGS.indexOf(bug)]}</label>`);
  box.innerHTML = `
    <div class="row">
      <span class="label">${t("hive.expansions")}</span>
      ${bugs.join("\n      ")}
    </div>
    <div class="row">
      <label>${t("hive.opening")} <select name="opening">
        <option value="tournament">${t("hive.opening_tournament_option")}</option>
        <option value="original">${t("hive.opening_original_option")}</option>
      </select></label>
    </div>
    <div class="row">
      <label class="check"><input type="checkbox" name="repetition"> ${t("hive.repetition_option")}</label>
    </div>
    <div class="row">
      <label>${t("hive.pieces")} <select name="set">
        <option value="classic">${t("hive.set_classic")}</option>
        <option value="warm-cool">${t("hive.set_warm_cool")}</option>
      </select></label>
      <label data-set="warm-cool" hidden>${t("hive.first_to_play")} <select name="first">
        <option value="warm">${t("hive.warm")}</option>
        <option value="cool">${t("hive.cool")}</option>
      </select></label>
    </div>`;
  const set = box.querySelector("[name=set]");
  set.addEventListener("change", () => { box.querySelector("[data-set]").hidden = set.value !== "warm-cool"; });
}

export function options(box) {
  const field = (name) => box.querySelector(`[name=${name}]`);
  const exp = [...EXPANSIONS].filter((bug) => field(bug).checked).join("");
  const chosen = {
    game_type: exp ? `Base+${exp}` : "Base",
    tournament_opening: field("opening").value === "tournament",
    repetition_draw: field("repetition").checked,
    set: field("set").value,
  };
  if (chosen.set === "warm-cool") chosen.first = field("first").value;
  return chosen;
}

// ------------------------------------------------------------------ pieces

function drawTile(parent, name, x, y, opts = {}) {
  const th = themeOf();
  const colour = paletteOf(colourOf(name)), kind = kindOf(name);
  const fill = th.tiles[colour][kind], ink = th.inks[colour][kind], edge = th.edges[colour];
  const g = el("g", { class: "tile", "data-side": colour }, parent);
  el("polygon", {
    class: "hex-face", points: hexPoints(x, y, R * 0.93), fill, stroke: opts.outline || edge,
    "stroke-width": opts.outline ? 4 : 2, "stroke-linejoin": "round",
  }, g);
  if (warmCool()) { // the side by a rim (light for Warm, dark for Cool), never by the bug's own colour
    el("polygon", {
      class: "side-rim", points: hexPoints(x, y, R * 0.8), fill: "none", stroke: SIDE_RIMS[colour],
      "stroke-width": R * 0.1, "stroke-linejoin": "round", "pointer-events": "none",
    }, g);
  }
  const glyph = el("g", {
    class: "bug", transform: `translate(${x.toFixed(2)},${(y - R * 0.1).toFixed(2)}) scale(${(R * 0.047).toFixed(3)})`,
    "stroke-linecap": "round",
  }, g);
  glyph.innerHTML = app.assets.glyphs[BUGS[kind]].replaceAll("{c}", ink).replaceAll("{bg}", fill);
  const label = el("text", {
    x: x.toFixed(2), y: (y + R * 0.7).toFixed(2), "text-anchor": "middle", "font-size": (R * 0.26).toFixed(1),
    "font-weight": "bold", fill: ink, "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif",
  }, g);
  label.textContent = name.slice(1);
  return g;
}

export function miniTile(name, size = 52) {
  const svg = el("svg", { width: size, height: size, viewBox: `${-R} ${-R} ${2 * R} ${2 * R}` });
  drawTile(svg, name, 0, 0);
  return svg;
}

// ------------------------------------------------------------------ the board

export function renderBoard() {
  const svg = $("board");
  svg.innerHTML = "";
  const view = shell.currentView();
  if (!view) return;
  const th = themeOf();
  const root = el("g", { id: "viewport" }, svg);
  const cells = new Map(view.cells.map((c) => [key(c.q, c.r), c]));
  const legal = (!app.review && app.selected && view.legal[app.selected]) || [];
  const aiming = !app.review && !!app.selected && !legal.length && preselecting(app.selected); // where it may go is unknown yet
  const bounds = [];

  // empty outline around the hive, faint, so the shape of the free spaces reads
  const slots = new Set();
  for (const c of view.cells) {
    for (const [dq, dr] of AROUND) {
      const k = key(c.q + dq, c.r + dr);
      if (!cells.has(k)) slots.add(k);
    }
  }
  for (const k of slots) {
    const [x, y] = centre(...k.split(",").map(Number));
    const slot = el("polygon", { class: "slot", "data-cell": k, points: hexPoints(x, y, R * 0.93), fill: "transparent", stroke: "rgba(90,70,40,.10)", "stroke-width": 1.5 }, root);
    // a piece picked to pre-select its move: the keyboard reaches every free cell, as the pointer does
    if (aiming) keyTarget(slot, k, t("hive.preselect_to", { piece: spoken(app.selected), where: beside(view, k.split(",").map(Number)) }), [x, y], true);
  }
  if (!view.cells.length) {
    const [x, y] = centre(0, 0);
    el("polygon", { points: hexPoints(x, y, R * 0.93), fill: "none", stroke: "rgba(90,70,40,.25)", "stroke-width": 2, "stroke-dasharray": "6 5" }, root);
    bounds.push([x, y]);
  }

  const moving = dragged();
  const sorted = [...view.cells].sort((a, b) => (frame.flipped ? -1 : 1) * (a.r - b.r || a.q - b.q));
  for (const c of sorted) {
    const [x, y] = centre(c.q, c.r);
    bounds.push([x, y]);
    const top = c.stack[c.stack.length - 1];
    const g = el("g", { class: "piece", "data-piece": top, "data-cell": key(c.q, c.r), "data-height": c.stack.length }, root);
    for (let level = c.stack.length - 1; level > 0; level--) {
      const below = c.stack[level - 1];
      const shift = R * 0.09 * level;
      el("polygon", {
        class: "under", points: hexPoints(x + shift, y + shift, R * 0.93),
        fill: th.tiles[paletteOf(colourOf(below))][kindOf(below)], stroke: th.edges[paletteOf(colourOf(below))],
        "stroke-width": 1.5,
      }, g);
    }
    const selected = app.selected === top && !app.review;
    const tile = drawTile(g, top, x, y, { outline: selected ? th.highlight : null });
    if (selected) g.classList.add("selected");
    if (moving && moving.piece === top) tile.classList.add("dragging");
    if (c.stack.length > 1) {
      const bx = x + R * 0.52, by = y - R * 0.52;
      const badge = el("g", { class: "height-badge" }, g);
      el("circle", { cx: bx, cy: by, r: R * 0.24, fill: th.badge[0], stroke: th.edges[paletteOf(colourOf(top))], "stroke-width": 1.2 }, badge);
      const height = el("text", { x: bx, y: by + R * 0.1, "text-anchor": "middle", "font-size": R * 0.28, "font-weight": "bold", fill: th.badge[1] }, badge);
      height.textContent = c.stack.length;
    }
    const tip = el("title", {}, g);
    tip.textContent = c.stack.slice().reverse().map((p) => `${describe(p)} (${p})`).join(`\n ${t("hive.on")} `);
    // The cell takes the focus through a clear hexagon over the piece (a control named by its label alone, apart from
    // the letters and numbers drawn on the tile); a cell a picked piece may go to is that destination's to focus.
    const name = spoken(top) + (c.stack.length > 1 ? t("hive.on_stack", { count: c.stack.length }) : "");
    if (!legal.some((d) => d.to[0] === c.q && d.to[1] === c.r)) {
      const cover = el("polygon", { class: "piece-cover", points: hexPoints(x, y, R * 0.93), fill: "transparent" }, g);
      keyTarget(cover, key(c.q, c.r), name, [x, y]);
    }
  }

  // Queen pressure: six pips on the Queen's tile, filled for each occupied neighbour
  view.queens.forEach((queen, seat) => {
    if (!queen) return;
    const [x, y] = centre(queen.q, queen.r);
    const g = el("g", { class: "queen-ring", "data-seat": seat, "data-surrounded": queen.surrounded, "pointer-events": "none" }, root);
    for (let i = 0; i < 6; i++) {
      const a = ((-60 + i * 60) * Math.PI) / 180;
      el("circle", {
        cx: (x + R * 0.66 * Math.cos(a)).toFixed(2), cy: (y + R * 0.66 * Math.sin(a)).toFixed(2), r: R * 0.075,
        fill: i < queen.surrounded ? "#d63a2b" : "rgba(255,255,255,.55)", stroke: "rgba(0,0,0,.45)", "stroke-width": 0.8,
      }, g);
    }
  });

  if (view.last) {
    for (const [at, dashed] of [[view.last.from, true], [view.last.to, false]]) {
      if (!at) continue;
      const [x, y] = centre(at[0], at[1]);
      ring(root, x, y, R * 0.99, th.last_move, R * 0.1, dashed ? "7 5" : "none", dashed ? "last-from" : "last-to");
      bounds.push([x, y]);
    }
  }

  if (app.hint && !app.review) {
    for (const at of [app.hint.from, app.hint.to]) {
      if (!at) continue;
      const [x, y] = centre(at[0], at[1]);
      ring(root, x, y, R * 0.86, "#7048e8", R * 0.09, at === app.hint.from ? "4 4" : "none", "hint-mark");
    }
  }

  showPending(root, view, bounds);

  for (const d of legal) {
    const [x, y] = centre(d.to[0], d.to[1]);
    if (!view.cells.length) bounds.push([x, y]);
    const g = el("g", { class: "dest", "data-to": key(d.to[0], d.to[1]), "data-move": d.move }, root);
    el("polygon", {
      class: "dest-hex", points: hexPoints(x, y, R * 0.8), fill: th.highlight, "fill-opacity": 0.18,
      stroke: th.highlight, "stroke-width": R * 0.07,
    }, g);
    el("circle", { cx: x, cy: y, r: R * 0.13, fill: th.highlight, "fill-opacity": 0.7 }, g);
    const tip = el("title", {}, g);
    tip.textContent = d.move;
    keyTarget(g, key(d.to[0], d.to[1]), destination(view, d), [x, y], true);
  }
  for (const k of slots) bounds.push(centre(...k.split(",").map(Number)));
  fit(bounds);
}

// The move chosen but not sent (premove.js), drawn as in every game.
function showPending(root, view, bounds) {
  const pending = app.pending;
  if (!pending || !pending.to || app.review) return;
  const cell = view.cells.find((c) => c.stack[c.stack.length - 1] === pending.piece);
  const to = centre(pending.to[0], pending.to[1]);
  drawPending(root, pending, cell ? centre(cell.q, cell.r) : null, to, key(...pending.to), (g, x, y) => drawTile(g, pending.piece, x, y, {}));
  bounds.push(to);
}

// Hive has no turn panel.
export function renderPanel() {}

// ------------------------------------------------------------------ the side cards

export function renderCard(card, seat) {
  const view = shell.currentView();
  const th = themeOf();
  const head = shell.cardHead(card, seat, view, th.tiles[paletteOf(seat)][0]);
  const meter = h("div", "queen-meter");
  meter.title = t("hive.meter_title");
  const queen = view.queens[seat];
  meter.dataset.surrounded = queen ? queen.surrounded : 0;
  meter.append(document.createTextNode(queen ? `${t("hive.queen_short")} ` : t("hive.queen_in_hand")));
  if (queen) {
    for (let i = 0; i < 6; i++) meter.append(h("span", "pip" + (i < queen.surrounded ? " on" : "")));
    meter.append(document.createTextNode(` ${queen.surrounded}/6`));
  }
  head.append(meter);
  const hand = h("div", "hand");
  hand.dataset.seat = seat;
  const pieces = view.hands[seat];
  const byKind = new Map();
  for (const p of pieces) {
    if (!byKind.has(p[1])) byKind.set(p[1], []);
    byKind.get(p[1]).push(p);
  }
  const moving = dragged();
  for (const [, group] of byKind) {
    const first = group[0];
    const item = h("div", "hand-piece");
    item.dataset.piece = first;
    item.title = t("hive.in_hand_title", { piece: BUG_NAMES[kindOf(first)], count: group.length });
    if (app.selected === first && !app.review) item.classList.add("selected");
    if (moving && moving.piece === first) item.style.opacity = ".35";
    item.append(miniTile(first));
    if (group.length > 1) item.append(h("span", "count", `×${group.length}`));
    // the control a keyboard reaches: a clear cover named by its label alone, apart from the letters on the tile
    const cover = h("span", "hand-cover");
    cover.setAttribute("role", "button");
    cover.setAttribute("tabindex", "0");
    cover.dataset.keep = `hand:${first}`;
    cover.setAttribute("aria-label", t("hive.in_hand_label", { piece: describe(first), count: group.length }));
    cover.setAttribute("aria-pressed", String(app.selected === first && !app.review));
    item.append(cover);
    item.addEventListener("pointerdown", (evt) => beginDrag(evt, carry(first, !evt.target.closest("#board"))));
    item.addEventListener("keydown", (evt) => {
      if (evt.key === "ArrowLeft" || evt.key === "ArrowRight") { // along the hand
        evt.preventDefault();
        evt.stopPropagation();
        const next = evt.key === "ArrowLeft" ? item.previousElementSibling : item.nextElementSibling;
        if (next && next.querySelector(".hand-cover")) next.querySelector(".hand-cover").focus();
        return;
      }
      if (evt.key !== "Enter" && evt.key !== " ") return;
      evt.preventDefault();
      pickedFrom(cover.dataset.keep); // its destinations take the focus; Esc gives it back
      selectPiece(first);
    });
    hand.append(item);
  }
  if (!pieces.length) hand.append(h("span", "hand-empty", t("hive.all_in_play")));
  card.append(hand);
}

// ------------------------------------------------------------------ playing

// Whether the player may pre-select a move of this piece now: one of theirs, on the opponent's turn (see premove.js).
function preselecting(piece) { return shell.mayPreselect() && colourOf(piece) === app.state.seats[0]; }

// The move a pre-selected {piece, to} is in the view's legal moves (a request's body), or null.
export function preselected(pending, view) {
  const found = (view.legal[pending.piece] || []).find((d) => d.to[0] === pending.to[0] && d.to[1] === pending.to[1]);
  return found ? { move: found.move } : null;
}

// A click on the pending move's piece or cell: it is cancelled.
function onPending(evt) {
  const pending = app.pending;
  if (!pending || !pending.to) return false;
  const piece = evt.target.closest(".piece");
  const [q, r] = hexAt(evt);
  return (piece && piece.dataset.piece === pending.piece && !app.selected) || (q === pending.to[0] && r === pending.to[1]);
}

function selectPiece(piece) {
  const s = app.state;
  if (!s || app.review) return;
  const pre = preselecting(piece);
  const refusal = pre ? null : shell.refusal();
  if (refusal) { toast(refusal); return; }
  if (!pre && !shell.currentView().legal[piece]) {
    shell.explain(piece, t("hive.no_move", { piece }));
    app.selected = null;
    shell.render();
    return;
  }
  app.selected = app.selected === piece ? null : piece;
  app.hint = null;
  shell.render();
}

export function click(evt) {
  if (!app.state || app.review) return;
  if (onPending(evt)) { app.selected = null; shell.cancelPending(); return; }
  const dest = evt.target.closest(".dest");
  if (dest && app.selected) {
    shell.play({ move: dest.dataset.move });
    return;
  }
  const piece = evt.target.closest(".piece");
  const view = shell.currentView();
  if (piece && app.selected && preselecting(app.selected) && colourOf(piece.dataset.piece) !== colourOf(app.selected)) {
    shell.play({ piece: app.selected, to: hexAt(evt) }); // a climb pre-selected onto the other side's piece
    return;
  }
  if (piece && !app.selected && !view.legal[piece.dataset.piece] && colourOf(piece.dataset.piece) !== view.turn && !preselecting(piece.dataset.piece)) {
    showStack(piece, evt); // the other side's piece: show what is there rather than a rule
    return;
  }
  if (piece && (!app.selected || view.legal[piece.dataset.piece] || piece.dataset.piece === app.selected)) {
    selectPiece(piece.dataset.piece);
    return;
  }
  if (app.selected) {
    shell.play({ piece: app.selected, to: hexAt(evt) }); // not a lit cell: the server says which rule forbids it
    return;
  }
  if (piece) showStack(piece, evt);
}

// The drag of a piece from a hand or the board: a ghost tile follows the pointer onto a lit cell.
function carry(piece, fromHand) {
  let ghost = null;
  return {
    piece,
    fromHand,
    allowed: () => (shell.canAct() && !!shell.currentView().legal[piece]) || preselecting(piece),
    tap: () => selectPiece(piece),
    start() {
      app.selected = piece;
      shell.render();
      ghost = el("g", { class: "ghost" }, $("viewport"));
      drawTile(ghost, piece, 0, 0);
    },
    move(p) {
      const shown = $("viewport").querySelector(".ghost") || ghost;
      if (!shown.isConnected) $("viewport").appendChild(shown);
      shown.setAttribute("transform", `translate(${p.x.toFixed(1)},${p.y.toFixed(1)})`);
    },
    drop(evt) {
      const under = document.elementFromPoint(evt.clientX, evt.clientY);
      const dest = under && under.closest(".dest");
      if (dest) { shell.play({ move: dest.dataset.move }); return; }
      if (under && under.closest("#board")) {
        const [q, r] = hexAt(evt);
        const cell = shell.currentView().cells.find((c) => c.stack[c.stack.length - 1] === piece);
        if (!cell || cell.q !== q || cell.r !== r) { shell.play({ piece, to: [q, r] }); return; }
      }
      shell.render();
    },
  };
}

// A press on the board: a piece that may move is carried; a long press shows its stack.
export function press(evt) {
  hideStack();
  const piece = evt.target.closest(".piece");
  if (piece) holdToShow(piece, evt);
  const movable = piece && ((shell.canAct() && shell.currentView().legal[piece.dataset.piece]) || preselecting(piece.dataset.piece));
  if (movable && !evt.target.closest(".dest")) {
    return carry(piece.dataset.piece, false);
  }
  return null;
}

export function hover(evt, dragging) {
  const piece = evt.target.closest(".piece");
  if (piece && Number(piece.dataset.height) > 1 && !dragging) showStack(piece, evt);
  else if (!piece) hideStack();
}

export function leave() { hideStack(); }

// The hinted move: its piece, where it goes and where it comes from.
export function hint(data) {
  const view = shell.currentView();
  for (const [piece, moves] of Object.entries(view.legal)) {
    const found = moves.find((m) => m.move === data.move);
    if (!found) continue;
    const cell = view.cells.find((c) => c.stack[c.stack.length - 1] === piece);
    app.hint = { piece, to: found.to, from: cell ? [cell.q, cell.r] : null };
  }
}

// A Hive turn is one move: there is no turn being built to reset, drop or close.
export function reset() {}
export function cancelTurn() { return false; }
export function escape() {}
