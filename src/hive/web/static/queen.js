// HiveQueen in the browser: the 61-cell field, the movement phase, then the production phase.
// Shares app.js's helpers (el, centre, hexPoints, api, toast, app); app.js calls in here for HiveQueen games.
"use strict";

const Q_SIDES = ["South", "North"];
const Q_KINDS = { Q: "Queen", H: "Highborn", D: "Drone", N: "Nurse", W: "Worker", S: "Soldier" };
const Q_ORDER = "QHDNWS";
const Q_PRODUCIBLE = "WSND";
const Q_STYLE = [
  { fill: "#f8f1e0", ink: "#3b2f22", rim: "#a88a58" },
  { fill: "#2e3440", ink: "#f2e6c8", rim: "#0f1218" },
];
const Q_FIELD = { cell: "#dfe5cc", cellAlt: "#d6ddc0", line: "#b3bd98", label: "#8e9a76", south: "#ead9b0", north: "#c9ccd3" };

// Our piece glyphs, drawn in a 60 x 60 box around (0, 0) with the ink colour {c} and the disc colour {bg}.
const Q_GLYPHS = {
  // a crown of three points on a band
  Q: `<path d="M-19 9 L-22 -13 L-10 -3 L0 -19 L10 -3 L22 -13 L19 9 Z" fill="{c}"/>
      <rect x="-19" y="11" width="38" height="6" rx="2" fill="{c}"/>
      <circle cx="-22" cy="-15" r="3" fill="{c}"/><circle cx="0" cy="-21" r="3" fill="{c}"/><circle cx="22" cy="-15" r="3" fill="{c}"/>`,
  // a cut jewel: the Highborn, next in line to the crown
  H: `<path d="M-18 -6 L-9 -17 L9 -17 L18 -6 L0 19 Z" fill="{c}"/>
      <path d="M-18 -6 L18 -6 M-9 -17 L-4 -6 L0 19 M9 -17 L4 -6 L0 19" stroke="{bg}" stroke-width="2" fill="none"/>`,
  // a winged body: the Drone flies to any empty cell
  D: `<ellipse cx="-10" cy="-7" rx="11" ry="6.5" transform="rotate(-28 -10 -7)" fill="none" stroke="{c}" stroke-width="3.2"/>
      <ellipse cx="10" cy="-7" rx="11" ry="6.5" transform="rotate(28 10 -7)" fill="none" stroke="{c}" stroke-width="3.2"/>
      <ellipse cx="0" cy="5" rx="5.5" ry="12" fill="{c}"/>`,
  // an egg with a cross: the Nurse brings new pieces in
  N: `<path d="M0 -20 C 12 -20 17 0 17 7 C 17 16 9 21 0 21 C -9 21 -17 16 -17 7 C -17 0 -12 -20 0 -20 Z" fill="{c}"/>
      <path d="M0 -5 V 13 M-8 4 H 8" stroke="{bg}" stroke-width="3.6" stroke-linecap="round"/>`,
  // a honeycomb cell: the Worker carries the colony's capacity
  W: `<polygon points="0,-20 17.3,-10 17.3,10 0,20 -17.3,10 -17.3,-10" fill="none" stroke="{c}" stroke-width="4" stroke-linejoin="round"/>
      <polygon points="0,-9 7.8,-4.5 7.8,4.5 0,9 -7.8,4.5 -7.8,-4.5" fill="{c}"/>`,
  // a spear: the Soldier only ever moves to capture
  S: `<path d="M0 -22 L8 -6 L3 -6 L3 20 L-3 20 L-3 -6 L-8 -6 Z" fill="{c}"/>
      <path d="M-11 -2 H 11" stroke="{c}" stroke-width="3.6" stroke-linecap="round"/>`,
};

function isQueen() { return !!(app.state && app.state.kind === "hivequeen"); }

function qCentre(cell) { return centre(cell.q, cell.r); }

// A piece disc with its glyph and letter.
function qDrawPiece(parent, side, kind, x, y, opts = {}) {
  const st = Q_STYLE[side];
  const g = el("g", { class: "qtile" }, parent);
  const radius = opts.radius || R * 0.8;
  el("circle", { cx: x, cy: y, r: radius, fill: st.fill, stroke: opts.outline || st.rim, "stroke-width": opts.outline ? 4 : kind === "Q" ? 3.5 : 2 }, g);
  if (kind === "Q" || kind === "H") {
    el("circle", { cx: x, cy: y, r: radius * 0.86, fill: "none", stroke: st.rim, "stroke-width": 1.2, "stroke-dasharray": kind === "H" ? "3 3" : "none" }, g);
  }
  const glyph = el("g", { transform: `translate(${x.toFixed(2)},${(y - radius * 0.1).toFixed(2)}) scale(${(radius / 34).toFixed(3)})` }, g);
  glyph.innerHTML = Q_GLYPHS[kind].replaceAll("{c}", st.ink).replaceAll("{bg}", st.fill);
  if (opts.letter !== false) {
    const t = el("text", {
      x: x.toFixed(2), y: (y + radius * 0.8).toFixed(2), "text-anchor": "middle", "font-size": (radius * 0.3).toFixed(1),
      "font-weight": "bold", fill: st.ink, "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif", opacity: 0.75,
    }, g);
    t.textContent = kind;
  }
  return g;
}

function qMiniPiece(side, kind, size = 30) {
  const svg = el("svg", { width: size, height: size, viewBox: `${-R} ${-R} ${2 * R} ${2 * R}`, class: "qmini" });
  qDrawPiece(svg, side, kind, 0, 0, { radius: R * 0.92, letter: false });
  return svg;
}

// ------------------------------------------------------------------ the turn being built

// app.q: {base: movement text, prods: ["+Sd4"], preview: server's preview, kind: chosen production kind}
function qReset() { app.q = null; app.selected = null; qHidePick(); }

function qView() {
  if (app.review) return app.review.view;
  if (app.q && app.q.preview) return app.q.preview.view;
  return app.state.view;
}

function qTurnText() { return app.q ? [app.q.base, ...app.q.prods].join(";") : ""; }

async function qPreview(text) {
  return api("POST", `/api/games/${app.gameId}/preview`, { move: text });
}

async function qChooseMovement(text) {
  qHidePick();
  app.selected = null;
  try {
    const preview = await qPreview(text);
    if (preview.done) { await play({ move: preview.move }); return; }
    app.q = { base: preview.move, prods: [], preview, kind: null };
    const kinds = qKindsAvailable();
    if (kinds.length === 1) app.q.kind = kinds[0];
  } catch (err) {
    toast(err.message);
  }
  render();
}

async function qProduce(move) {
  qHidePick();
  const q = app.q;
  try {
    const preview = await qPreview([q.base, ...q.prods, move].join(";"));
    q.prods.push(move);
    q.preview = preview;
    const kinds = qKindsAvailable();
    if (!kinds.includes(q.kind)) q.kind = kinds.length === 1 ? kinds[0] : null;
  } catch (err) {
    toast(err.message);
  }
  render();
}

async function qTakeBackPiece() {
  const q = app.q;
  if (!q) return;
  if (!q.prods.length) { qReset(); render(); return; }
  try {
    q.preview = await qPreview([q.base, ...q.prods.slice(0, -1)].join(";"));
    q.prods.pop();
  } catch (err) {
    toast(err.message);
  }
  render();
}

async function qEndTurn() {
  const text = qTurnText();
  qReset();
  await play({ move: text });
}

function qKindsAvailable() {
  if (!app.q || !app.q.preview) return [];
  return [...new Set(app.q.preview.productions.map((p) => p.kind))].sort((a, b) => Q_PRODUCIBLE.indexOf(a) - Q_PRODUCIBLE.indexOf(b));
}

function qProductionsAt(cell) {
  if (!app.q || !app.q.preview) return [];
  return app.q.preview.productions.filter((p) => p.cell === cell);
}

// ------------------------------------------------------------------ the field

function renderQueenBoard() {
  const svg = $("board");
  svg.innerHTML = "";
  const view = qView();
  if (!view) return;
  const root = el("g", { id: "viewport" }, svg);
  const byName = new Map(view.cells.map((c) => [c.cell, c]));
  const producing = !!(app.q && app.q.preview && !app.review);
  const legal = (!app.review && !producing && app.selected && view.legal[app.selected]) || [];
  const bounds = [];
  const lit = new Set(legal.map((d) => d.to));
  if (producing) for (const p of app.q.preview.productions) if (!app.q.kind || p.kind === app.q.kind) lit.add(p.cell);

  const defs = el("defs", {}, root);
  const shadow = el("filter", { id: "qshadow", x: "-30%", y: "-30%", width: "160%", height: "160%" }, defs);
  el("feDropShadow", { dx: 0, dy: 1.5, stdDeviation: 1.6, "flood-color": "#2a2010", "flood-opacity": 0.35 }, shadow);

  // the field: a rim, then the 61 cells, the two home rows tinted for their sides
  const rim = [];
  for (const c of view.cells) rim.push(qCentre(c));
  const outer = el("g", { class: "qfield" }, root);
  for (const c of view.cells) {
    const [x, y] = qCentre(c);
    el("polygon", { points: hexPoints(x, y, R * 1.12), fill: "#8f9a74", stroke: "#8f9a74", "stroke-width": 2 }, outer);
  }
  for (const c of view.cells) {
    const [x, y] = qCentre(c);
    bounds.push([x, y]);
    const home = c.r === 4 ? Q_FIELD.south : c.r === -4 ? Q_FIELD.north : (c.q + 2 * c.r) % 3 === 0 ? Q_FIELD.cellAlt : Q_FIELD.cell;
    const poly = el("polygon", {
      class: "qcell", "data-cell": c.cell, points: hexPoints(x, y, R * 0.985), fill: home, stroke: Q_FIELD.line, "stroke-width": 1.2,
    }, root);
    if (!c.piece && !lit.has(c.cell)) {
      const t = el("text", {
        x, y: y + R * 0.12, "text-anchor": "middle", "font-size": R * 0.3, fill: Q_FIELD.label, "pointer-events": "none",
        "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif",
      }, root);
      t.textContent = c.cell;
    }
    poly.dataset.empty = c.piece ? "0" : "1";
  }

  // the last turn (or the turn being built): origin dashed, destination solid, new pieces dotted
  const last = view.last;
  const outline = (name, cls, dash, colour) => {
    const c = byName.get(name);
    if (!c) return;
    const [x, y] = qCentre(c);
    el("polygon", {
      class: cls, points: hexPoints(x, y, R * 0.9), fill: "none", stroke: colour, "stroke-width": R * 0.09,
      "stroke-dasharray": dash, "pointer-events": "none", "stroke-linejoin": "round",
    }, root);
  };
  const lastColour = producing ? "#1c7ed6" : "#d9480f";
  if (last) {
    if (last.from !== last.to) outline(last.from, "qlast-from", "7 5", lastColour);
    outline(last.to, "qlast-to", "none", lastColour);
    for (const p of last.productions) outline(p, "qlast-new", "2 4", "#2f9e44");
  }

  // the pieces
  for (const c of view.cells) {
    if (!c.piece) continue;
    const [x, y] = qCentre(c);
    const selected = app.selected === c.cell && !app.review;
    const g = el("g", { class: "qpiece", "data-cell": c.cell, "data-side": c.piece.side, "data-kind": c.piece.kind, filter: "url(#qshadow)" }, root);
    qDrawPiece(g, c.piece.side, c.piece.kind, x, y, { outline: selected ? "#e8a50c" : null });
    if (selected) g.classList.add("selected");
    const title = el("title", {}, g);
    title.textContent = `${Q_SIDES[c.piece.side]} ${Q_KINDS[c.piece.kind]} on ${c.cell}`;
  }

  // movements of the selected piece: one marker a cell (a slide with or without promotion shares it)
  const seen = new Set();
  for (const d0 of legal) {
    if (seen.has(d0.to)) continue;
    seen.add(d0.to);
    const here = legal.filter((m) => m.to === d0.to);
    const d = { ...d0, promote: here.some((m) => m.promote) };
    const c = byName.get(d.to);
    const [x, y] = qCentre(c);
    const g = el("g", { class: "qdest", "data-cell": d.to, "data-move": d.move }, root);
    if (d.capture || d.swap || d.to === app.selected) {
      el("circle", {
        cx: x, cy: y, r: R * 0.86, fill: "transparent", stroke: d.capture ? "#d6336c" : "#1c7ed6", "stroke-width": R * 0.1,
        "stroke-dasharray": d.swap ? "6 4" : "none", class: "qdest-ring",
      }, g);
    } else {
      el("polygon", { class: "qdest-hex", points: hexPoints(x, y, R * 0.78), fill: "#1c7ed6", "fill-opacity": 0.16, stroke: "#1c7ed6", "stroke-width": R * 0.06 }, g);
      el("circle", { cx: x, cy: y, r: R * 0.14, fill: "#1c7ed6", "fill-opacity": 0.75 }, g);
    }
    if (d.promote) {
      const crown = el("g", { transform: `translate(${(x + R * 0.52).toFixed(1)},${(y - R * 0.52).toFixed(1)}) scale(${(R / 110).toFixed(3)})` }, g);
      el("circle", { cx: 0, cy: 0, r: 26, fill: "#f4c542", stroke: "#8a6a12", "stroke-width": 3 }, crown);
      crown.insertAdjacentHTML("beforeend", Q_GLYPHS.Q.replaceAll("{c}", "#5b4208").replace(/scale\([^)]*\)/, ""));
    }
    const title = el("title", {}, g);
    title.textContent = here.map((m) => m.move).join(" or ");
  }

  // where the chosen kind (or any kind) can be produced
  if (producing) {
    const kind = app.q.kind;
    const cells = new Map();
    for (const p of app.q.preview.productions) {
      if (!cells.has(p.cell)) cells.set(p.cell, []);
      cells.get(p.cell).push(p.kind);
    }
    for (const [name, kinds] of cells) {
      const strong = !kind || kinds.includes(kind);
      if (!strong) continue;
      const c = byName.get(name);
      const [x, y] = qCentre(c);
      const g = el("g", { class: "qprod", "data-cell": name, "data-kinds": kinds.join("") }, root);
      el("polygon", { class: "qprod-hex", points: hexPoints(x, y, R * 0.8), fill: "#2f9e44", "fill-opacity": kind ? 0.2 : 0.1, stroke: "#2f9e44", "stroke-width": R * 0.06, "stroke-dasharray": kind ? "none" : "5 4" }, g);
      if (kind) {
        const ghost = el("g", { opacity: 0.5, "pointer-events": "none" }, g);
        qDrawPiece(ghost, app.state.view.turn, kind, x, y, { radius: R * 0.55, letter: false });
      } else {
        const t = el("text", { x, y: y + R * 0.16, "text-anchor": "middle", "font-size": R * 0.42, "font-weight": "bold", fill: "#2b8a3e" }, g);
        t.textContent = "+";
      }
      const title = el("title", {}, g);
      title.textContent = `Produce here: ${kinds.map((k) => Q_KINDS[k]).join(", ")}`;
    }
  }

  if (app.hint && !app.review) {
    for (const name of [app.hint.from, app.hint.to]) outline(name, "hint-mark", name === app.hint.from ? "4 4" : "none", "#7048e8");
  }

  // files and ranks around the field
  const labels = el("g", { class: "qcoords", "pointer-events": "none" }, root);
  for (const c of view.cells) {
    const edges = [];
    if (c.r === Math.min(4, 4 - c.q)) edges.push(["file", 0, 1]);
    if (c.q === -4) edges.push(["rank", -1, 0]);
    if (c.q + c.r === -4 && c.q > -4) edges.push(["rank", -1, 0]);
    for (const [what, dq, dr] of edges) {
      const [x, y] = centre(c.q + dq * 0.95, c.r + dr * 0.95);
      const t = el("text", { x, y: y + R * 0.12, "text-anchor": "middle", "font-size": R * 0.3, "font-weight": 600, fill: "#6c7452", "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif" }, labels);
      t.textContent = what === "file" ? c.cell[0] : c.cell.slice(1);
    }
  }
  fit(bounds, false, 1.25);
}

// ------------------------------------------------------------------ clicks on the field

function qCanAct() {
  const s = app.state;
  return s && !app.review && !s.result && !s.thinking && s.seats.includes(s.view.turn);
}

function qRefuse() {
  const s = app.state;
  if (s.result) return "The game is over.";
  if (!s.seats.length) return "You are watching this game: only the players can move.";
  if (s.thinking) return "The AI is thinking.";
  if (!s.seats.includes(s.view.turn)) return `It's ${Q_SIDES[s.view.turn]}'s turn.`;
  return null;
}

async function queenClick(evt) {
  if (!app.state || app.review) return;
  const target = evt.target.closest("[data-cell]");
  if (!target) { app.selected = null; qHidePick(); render(); return; }
  const name = target.dataset.cell;
  const refusal = qRefuse();
  if (refusal) { toast(refusal); return; }
  const view = qView();
  const cell = view.cells.find((c) => c.cell === name);
  if (app.q && app.q.preview) { qClickProduction(evt, name); return; }
  if (app.selected) {
    const options = (view.legal[app.selected] || []).filter((m) => m.to === name);
    if (options.length === 1 && !options[0].promote) { qChooseMovement(options[0].move); return; }
    if (options.length) { qShowPick(evt, options.map((m) => ({ label: qMoveLabel(m), move: m.move, promote: m.promote }))); return; }
    if (name === app.selected) { app.selected = null; render(); return; }
  }
  if (cell.piece && cell.piece.side === view.turn) {
    if (view.legal[name]) { app.selected = name; app.hint = null; qHidePick(); render(); return; }
    try {
      const data = await api("POST", `/api/games/${app.gameId}/why`, { piece: name });
      toast(data.reason || `The ${Q_KINDS[cell.piece.kind]} on ${name} has no movement.`);
    } catch (err) { toast(err.message); }
    app.selected = null;
    render();
    return;
  }
  if (app.selected) {
    // not a lit cell: the server names the rule
    try {
      await api("POST", `/api/games/${app.gameId}/preview`, { from: app.selected, to: name });
    } catch (err) { toast(err.message); }
    return;
  }
  if (cell.piece) toast(`${Q_SIDES[cell.piece.side]} ${Q_KINDS[cell.piece.kind]} on ${name}. Click one of your own pieces to move it.`, false);
}

function qMoveLabel(m) {
  const [, , , to] = m.move.match(/^([QHDNWS])([a-i][1-9])(?:([-x])([a-i][1-9]))?/i) || [];
  if (m.promote && !to) return `Promote to Queen where it stands (${m.move})`;
  if (m.promote) return `${m.capture ? "Capture on" : "Slide to"} ${m.to}, then promote to Queen (${m.move})`;
  return `${m.capture ? "Capture on" : "Slide to"} ${m.to} and stay a Highborn (${m.move})`;
}

function qClickProduction(evt, name) {
  const here = qProductionsAt(name);
  const kind = app.q.kind;
  if (kind && here.some((p) => p.kind === kind)) { qProduce(`+${kind}${name}`); return; }
  if (here.length === 1) { qProduce(here[0].move); return; }
  if (here.length > 1) {
    qShowPick(evt, here.map((p) => ({ label: `${Q_KINDS[p.kind]} (${p.move})`, move: p.move, kind: p.kind, production: true })));
    return;
  }
  if (!app.q.preview.productions.length) { toast("Nothing more can be produced this turn: end the turn."); return; }
  // the server names the rule that forbids producing here
  const attempt = `+${kind || "W"}${name}`;
  qPreview([app.q.base, ...app.q.prods, attempt].join(";")).then(
    () => qProduce(attempt),
    (err) => toast(err.message.replace(/^'[^']*': /, "")),
  );
}

// a small chooser next to the click: promotion or not, or which piece to produce
function qShowPick(evt, choices) {
  const pick = $("qpick");
  pick.innerHTML = "";
  const title = document.createElement("div");
  title.className = "qpick-title";
  title.textContent = choices[0].production ? "Produce which piece?" : "Promote the Highborn?";
  pick.append(title);
  for (const choice of choices) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.move = choice.move;
    if (choice.promote) b.classList.add("primary");
    if (choice.kind) b.prepend(qMiniPiece(app.state.view.turn, choice.kind, 22));
    b.append(document.createTextNode(choice.label));
    b.onclick = () => (choice.production ? qProduce(choice.move) : qChooseMovement(choice.move));
    pick.append(b);
  }
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.textContent = "Cancel";
  cancel.className = "qpick-cancel";
  cancel.onclick = () => { qHidePick(); };
  pick.append(cancel);
  const area = $("board-area").getBoundingClientRect();
  pick.hidden = false;
  const x = Math.min(evt.clientX - area.left + 12, area.width - pick.offsetWidth - 10);
  const y = Math.min(evt.clientY - area.top + 12, area.height - pick.offsetHeight - 10);
  pick.style.left = `${Math.max(10, x)}px`;
  pick.style.top = `${Math.max(10, y)}px`;
}

function qHidePick() { const p = $("qpick"); if (p) p.hidden = true; }

// ------------------------------------------------------------------ the turn panel and the side cards

function renderQueenPanel() {
  const panel = $("qpanel");
  const s = app.state;
  panel.hidden = !isQueen() || !!app.review || !!s.result;
  if (panel.hidden) return;
  panel.innerHTML = "";
  const mine = qCanAct();
  const steps = document.createElement("div");
  steps.className = "qsteps";
  const producing = !!(app.q && app.q.preview);
  for (const [i, label] of [[1, "Move"], [2, "Produce"]]) {
    const step = document.createElement("span");
    step.className = "qstep" + ((i === 1) !== producing ? " on" : "");
    step.innerHTML = `<b>${i}</b>${label}`;
    steps.append(step);
  }
  panel.append(steps);
  const text = document.createElement("div");
  text.className = "qpanel-text";
  panel.append(text);
  if (!mine) {
    text.textContent = s.thinking ? `${Q_SIDES[s.view.turn]} (AI) is thinking…` : `${Q_SIDES[s.view.turn]} to move`;
    panel.dataset.phase = "waiting";
    return;
  }
  if (!producing) {
    panel.dataset.phase = "movement";
    const view = s.view;
    const promo = view.can_promote[view.turn];
    text.textContent = app.selected
      ? `Click a lit cell to move the ${Q_KINDS[view.cells.find((c) => c.cell === app.selected).piece.kind]} on ${app.selected}` +
        " (blue ring: swap, red ring: capture, crown: promotion)."
      : promo
        ? "Your Queen is gone: promote a Highborn now (click it), or you lose at the end of this movement."
        : "Click one of your pieces to see its movements.";
    return;
  }
  panel.dataset.phase = "production";
  const q = app.q, p = q.preview;
  const head = document.createElement("div");
  head.className = "qturn";
  head.innerHTML = `<code>${qTurnText()}</code>`;
  text.replaceWith(head);
  const info = document.createElement("div");
  info.className = "qpanel-text";
  info.id = "qprod-info";
  info.textContent = p.productions.length
    ? `You may produce ${p.left} more piece${p.left === 1 ? "" : "s"} (units ${p.units} of capacity ${p.capacity}; ${p.nurses} Nurse${p.nurses === 1 ? "" : "s"} producing). Choose a piece, then a green cell.`
    : `No more pieces can be produced (units ${p.units} of capacity ${p.capacity}). End the turn.`;
  panel.append(info);
  const kinds = document.createElement("div");
  kinds.className = "qkinds";
  const available = qKindsAvailable();
  const counts = p.view.counts;
  const limits = p.view.limits;
  const side = s.view.turn;
  for (const kind of Q_PRODUCIBLE) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "qkind" + (q.kind === kind ? " selected" : "");
    b.dataset.kind = kind;
    b.disabled = !available.includes(kind);
    const cells = p.productions.filter((x) => x.kind === kind).length;
    const limit = limits[kind] ? ` / ${limits[kind]}` : "";
    b.title = b.disabled ? `No ${Q_KINDS[kind]} can be produced now` : `${cells} cell${cells === 1 ? "" : "s"} where a ${Q_KINDS[kind]} can enter`;
    const label = document.createElement("span");
    label.className = "qkind-label";
    label.innerHTML = `<b>${Q_KINDS[kind]}</b><small>${counts[kind][side]}${limit} on field</small>`;
    b.append(qMiniPiece(side, kind, 30), label);
    b.onclick = () => { q.kind = kind; render(); };
    kinds.append(b);
  }
  panel.append(kinds);
  const buttons = document.createElement("div");
  buttons.className = "qbuttons";
  const back = document.createElement("button");
  back.type = "button";
  back.id = "qbtn-back";
  back.textContent = q.prods.length ? "Take back the last piece" : "Take back the movement";
  back.onclick = qTakeBackPiece;
  const end = document.createElement("button");
  end.type = "button";
  end.id = "qbtn-end";
  end.className = "primary";
  end.textContent = q.prods.length ? "End turn" : "End turn without producing";
  end.onclick = qEndTurn;
  buttons.append(back, end);
  panel.append(buttons);
}

function renderQueenCard(card, seat, view) {
  const s = app.state;
  card.innerHTML = "";
  card.dataset.seat = seat;
  card.classList.toggle("to-move", !s.result && view.turn === seat && !app.review);
  const head = document.createElement("div");
  head.className = "card-head";
  const name = document.createElement("div");
  name.className = "card-name";
  const sw = document.createElement("span");
  sw.className = "swatch";
  sw.style.background = Q_STYLE[seat].fill;
  name.append(sw, document.createTextNode(Q_SIDES[seat]));
  const role = document.createElement("span");
  role.className = "card-role";
  role.textContent = roleOf(seat);
  if (s.thinking && s.ai && s.ai.seat === seat) {
    role.textContent = "AI is thinking";
    role.classList.add("thinking-dots");
  }
  name.append(role);
  const units = view.units[seat], capacity = view.capacity[seat];
  const meter = document.createElement("div");
  meter.className = "qunits";
  meter.dataset.units = units;
  meter.dataset.capacity = capacity;
  meter.title = "Units on the field and the capacity their Workers support (5 a Worker)";
  meter.innerHTML = `<b>${units}</b> / ${capacity} units`;
  head.append(name, meter);
  const bar = document.createElement("div");
  bar.className = "qbar" + (units >= capacity ? " full" : "");
  const fill = document.createElement("span");
  fill.style.width = `${Math.min(100, (100 * units) / Math.max(capacity, 1)).toFixed(1)}%`;
  bar.append(fill);
  const pieces = document.createElement("div");
  pieces.className = "qcounts";
  for (const kind of Q_ORDER) {
    const n = view.counts[kind][seat];
    const item = document.createElement("span");
    item.className = "qcount" + (n ? "" : " none");
    item.dataset.kind = kind;
    item.title = `${Q_KINDS[kind]}s on the field: ${n}${view.limits[kind] ? ` (at most ${view.limits[kind]})` : ""}`;
    item.append(qMiniPiece(seat, kind, 26));
    const c = document.createElement("b");
    c.textContent = `${n}`;
    item.append(c);
    pieces.append(item);
  }
  card.append(head, bar, pieces);
  if (!view.counts.Q[seat] && !s.result) {
    const warn = document.createElement("div");
    warn.className = "qwarn";
    warn.textContent = view.can_promote[seat] ? "Queen lost: a Highborn must be promoted" : "Queen lost";
    card.append(warn);
  }
}

function qHint(data) {
  const m = data.move.match(/^([QHDNWS])([a-i][1-9])(?:[-x]([a-i][1-9]))?/i);
  app.hint = m ? { from: m[2], to: m[3] || m[2] } : null;
  toast(`Hint: ${data.move}`, false);
  render();
}
