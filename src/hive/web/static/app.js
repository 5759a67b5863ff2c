// Hive in the browser: draws the game sent by the server and sends the player's actions back.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const R = 40;
const SQRT3 = Math.sqrt(3);
const BUGS = "QSBGAMLP";
const BUG_NAMES = ["Queen Bee", "Spider", "Beetle", "Grasshopper", "Soldier Ant", "Mosquito", "Ladybug", "Pillbug"];
const LEVEL_NAMES = { random: "Random mover", easy: "Easy", medium: "Medium", hard: "Hard", max: "Max" };

const $ = (id) => document.getElementById(id);
const app = {
  assets: null,
  theme: localStorage.getItem("hive.theme") || "default",
  gameId: null,
  token: null,
  state: null,
  selected: null, // piece name
  flipped: false,
  flipChosen: false,
  review: null, // {ply, view}
  hint: null, // {piece, to, from}
  evalOn: false,
  viewBox: null,
  userMoved: false,
  ws: null,
  wsDelay: 500,
  drag: null,
  pan: null,
};

// ------------------------------------------------------------------ helpers

function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function themeOf() { return app.assets.themes[app.theme] || app.assets.themes.default; }
function sideName(seat) { return isQueen() ? Q_SIDES[seat] : themeOf().sides[seat]; }
function colourOf(name) { return name[0] === "w" ? 0 : 1; }
function kindOf(name) { return BUGS.indexOf(name[1]); }
function key(q, r) { return `${q},${r}`; }

function centre(q, r) {
  const f = app.flipped ? -1 : 1;
  return [f * R * SQRT3 * (q + r / 2), f * R * 1.5 * r];
}

function hexPoints(x, y, radius) {
  const pts = [];
  for (const a of [-90, -30, 30, 90, 150, 210]) {
    const t = (a * Math.PI) / 180;
    pts.push(`${(x + radius * Math.cos(t)).toFixed(2)},${(y + radius * Math.sin(t)).toFixed(2)}`);
  }
  return pts.join(" ");
}

function pixelToHex(x, y) {
  const f = app.flipped ? -1 : 1;
  x *= f; y *= f;
  const r = y / (1.5 * R);
  const q = x / (R * SQRT3) - r / 2;
  let rq = Math.round(q), rr = Math.round(r), rs = Math.round(-q - r);
  const dq = Math.abs(rq - q), dr = Math.abs(rr - r), ds = Math.abs(rs + q + r);
  if (dq > dr && dq > ds) rq = -rr - rs; else if (dr > ds) rr = -rq - rs;
  return [rq, rr];
}

function toast(message, error = true) {
  const t = $("toast");
  t.textContent = message;
  t.className = "toast" + (error ? " error" : "");
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 4200);
}

async function api(method, path, body) {
  const headers = { "content-type": "application/json" };
  if (app.token) headers["x-seat-token"] = app.token;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new Error("The server cannot be reached; is hive play still running?");
  }
  let data = null;
  try { data = await response.json(); } catch (err) { data = null; }
  if (!response.ok) throw new Error((data && data.error) || `${response.status} ${response.statusText}`);
  return data;
}

// ------------------------------------------------------------------ pieces

function drawTile(parent, name, x, y, opts = {}) {
  const th = themeOf();
  const colour = colourOf(name), kind = kindOf(name);
  const fill = th.tiles[colour][kind], ink = th.inks[colour][kind], edge = th.edges[colour];
  const g = el("g", { class: "tile" }, parent);
  el("polygon", {
    class: "hex-face", points: hexPoints(x, y, R * 0.93), fill, stroke: opts.outline || edge,
    "stroke-width": opts.outline ? 4 : 2, "stroke-linejoin": "round",
  }, g);
  const glyph = el("g", {
    class: "bug", transform: `translate(${x.toFixed(2)},${(y - R * 0.1).toFixed(2)}) scale(${(R * 0.047).toFixed(3)})`,
    "stroke-linecap": "round",
  }, g);
  glyph.innerHTML = app.assets.glyphs[BUGS[kind]].replaceAll("{c}", ink).replaceAll("{bg}", fill);
  if (opts.label !== false) {
    const label = el("text", {
      x: x.toFixed(2), y: (y + R * 0.7).toFixed(2), "text-anchor": "middle", "font-size": (R * 0.26).toFixed(1),
      "font-weight": "bold", fill: ink, "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif",
    }, g);
    label.textContent = name.slice(1);
  }
  return g;
}

function miniTile(name, size = 52) {
  const svg = el("svg", { width: size, height: size, viewBox: `${-R} ${-R} ${2 * R} ${2 * R}` });
  drawTile(svg, name, 0, 0);
  return svg;
}

// ------------------------------------------------------------------ board

function currentView() { return app.review ? app.review.view : app.state && app.state.view; }

function canAct() {
  const s = app.state;
  return s && !app.review && !s.result && !s.thinking && s.seats.includes(s.view.turn);
}

function renderBoard() {
  if (isQueen()) { renderQueenBoard(); return; }
  const svg = $("board");
  svg.innerHTML = "";
  const view = currentView();
  if (!view) return;
  const th = themeOf();
  const root = el("g", { id: "viewport" }, svg);
  const cells = new Map(view.cells.map((c) => [key(c.q, c.r), c]));
  const legal = (!app.review && app.selected && view.legal[app.selected]) || [];
  const bounds = [];

  // empty outline around the hive, faint, so the shape of the free spaces reads
  const ring = new Set();
  for (const c of view.cells) {
    for (const [dq, dr] of [[1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1]]) {
      const k = key(c.q + dq, c.r + dr);
      if (!cells.has(k)) ring.add(k);
    }
  }
  for (const k of ring) {
    const [q, r] = k.split(",").map(Number);
    const [x, y] = centre(q, r);
    el("polygon", { class: "slot", "data-cell": k, points: hexPoints(x, y, R * 0.93), fill: "transparent", stroke: "rgba(90,70,40,.10)", "stroke-width": 1.5 }, root);
  }
  if (!view.cells.length) {
    const [x, y] = centre(0, 0);
    el("polygon", { points: hexPoints(x, y, R * 0.93), fill: "none", stroke: "rgba(90,70,40,.25)", "stroke-width": 2, "stroke-dasharray": "6 5" }, root);
    bounds.push([x, y]);
  }

  const sorted = [...view.cells].sort((a, b) => (app.flipped ? -1 : 1) * (a.r - b.r || a.q - b.q));
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
        fill: th.tiles[colourOf(below)][kindOf(below)], stroke: th.edges[colourOf(below)], "stroke-width": 1.5,
      }, g);
    }
    const selected = app.selected === top && !app.review;
    const tile = drawTile(g, top, x, y, { outline: selected ? th.highlight : null });
    if (selected) g.classList.add("selected");
    if (app.drag && app.drag.moved && app.drag.piece === top) tile.classList.add("dragging");
    if (c.stack.length > 1) {
      const bx = x + R * 0.52, by = y - R * 0.52;
      const badge = el("g", { class: "height-badge" }, g);
      el("circle", { cx: bx, cy: by, r: R * 0.24, fill: th.badge[0], stroke: th.edges[colourOf(top)], "stroke-width": 1.2 }, badge);
      const t = el("text", { x: bx, y: by + R * 0.1, "text-anchor": "middle", "font-size": R * 0.28, "font-weight": "bold", fill: th.badge[1] }, badge);
      t.textContent = c.stack.length;
    }
    const title = el("title", {}, g);
    title.textContent = c.stack.slice().reverse().map((p) => `${sideName(colourOf(p))} ${BUG_NAMES[kindOf(p)]} (${p})`).join("\n on ");
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
    const mark = (at, dashed) => {
      const [x, y] = centre(at[0], at[1]);
      el("polygon", {
        class: dashed ? "last-from" : "last-to", points: hexPoints(x, y, R * 0.99), fill: "none", stroke: th.last_move,
        "stroke-width": R * 0.1, "stroke-dasharray": dashed ? "7 5" : "none", "pointer-events": "none", "stroke-linejoin": "round",
      }, root);
      bounds.push([x, y]);
    };
    if (view.last.from) mark(view.last.from, true);
    mark(view.last.to, false);
  }

  if (app.hint && !app.review) {
    for (const at of [app.hint.from, app.hint.to]) {
      if (!at) continue;
      const [x, y] = centre(at[0], at[1]);
      el("polygon", {
        class: "hint-mark", points: hexPoints(x, y, R * 0.86), fill: "none", stroke: "#7048e8", "stroke-width": R * 0.09,
        "stroke-dasharray": at === app.hint.from ? "4 4" : "none",
      }, root);
    }
  }

  for (const d of legal) {
    const [x, y] = centre(d.to[0], d.to[1]);
    if (!view.cells.length) bounds.push([x, y]);
    const g = el("g", { class: "dest", "data-to": key(d.to[0], d.to[1]), "data-move": d.move }, root);
    el("polygon", {
      class: "dest-hex", points: hexPoints(x, y, R * 0.8), fill: th.highlight, "fill-opacity": 0.18,
      stroke: th.highlight, "stroke-width": R * 0.07,
    }, g);
    el("circle", { cx: x, cy: y, r: R * 0.13, fill: th.highlight, "fill-opacity": 0.7 }, g);
    const title = el("title", {}, g);
    title.textContent = d.move;
  }
  for (const k of ring) bounds.push(centre(...k.split(",").map(Number)));
  fit(bounds);
}

function fit(points, force = false, margin = 1.6) {
  if (app.userMoved && !force && app.viewBox) { applyViewBox(); return; }
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const m = R * margin;
  const left = Math.min(...xs, -R) - m, right = Math.max(...xs, R) + m;
  const top = Math.min(...ys, -R) - m, bottom = Math.max(...ys, R) + m;
  let w = right - left, h = bottom - top;
  const minSize = R * 9; // never zoom in so far that a lone tile fills the screen
  const cx = (left + right) / 2, cy = (top + bottom) / 2;
  w = Math.max(w, minSize); h = Math.max(h, minSize);
  app.viewBox = { x: cx - w / 2, y: cy - h / 2, w, h };
  applyViewBox();
}

function applyViewBox() {
  const v = app.viewBox;
  $("board").setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
}

function svgPoint(evt) {
  const svg = $("board");
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX; pt.y = evt.clientY;
  const m = svg.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : pt;
}

function zoom(factor, around) {
  const v = app.viewBox;
  if (!v) return;
  const cx = around ? around.x : v.x + v.w / 2, cy = around ? around.y : v.y + v.h / 2;
  const w = Math.min(Math.max(v.w * factor, R * 4), R * 80), f = w / v.w;
  app.viewBox = { x: cx - (cx - v.x) * f, y: cy - (cy - v.y) * f, w, h: v.h * f };
  app.userMoved = true;
  applyViewBox();
}

// ------------------------------------------------------------------ side panel

function renderSide() {
  const s = app.state;
  if (!s) return;
  const view = currentView();
  const bottomSeat = app.flipped ? 1 : 0;
  const card = isQueen() ? renderQueenCard : renderCard;
  card($("card-bottom"), bottomSeat, isQueen() ? qView() : view);
  card($("card-top"), 1 - bottomSeat, isQueen() ? qView() : view);
  renderStatus();
  renderMoves();
  renderControls();
  renderShare();
  const opts = s.options;
  if (isQueen()) {
    $("game-info").textContent = `HiveQueen · turn ${Math.floor(s.moves.length / 2) + 1}`;
  } else {
    const exp = opts.game_type === "Base" ? "no expansions" : opts.game_type.replace("Base+", "+");
    $("game-info").textContent = `${exp} · ${opts.tournament_opening ? "tournament" : "original"} opening${opts.repetition_draw ? " · repetition draw" : ""}`;
  }
  $("export-text").value = s.game_string;
  $("welcome").hidden = true;
}

function roleOf(seat) {
  const s = app.state;
  if (s.mode === "ai") return s.ai.seat === seat ? `AI · ${LEVEL_NAMES[s.ai.level] || s.ai.level}` : "You";
  if (s.mode === "local") return "";
  if (s.seats.includes(seat)) return "You";
  return s.seats.length ? "Opponent" : "Player";
}

function renderCard(card, seat, view) {
  const s = app.state;
  const th = themeOf();
  card.innerHTML = "";
  card.dataset.seat = seat;
  card.classList.toggle("to-move", !s.result && view.turn === seat && !app.review);
  const head = document.createElement("div");
  head.className = "card-head";
  const name = document.createElement("div");
  name.className = "card-name";
  const sw = document.createElement("span");
  sw.className = "swatch";
  sw.style.background = th.tiles[seat][0];
  name.append(sw, document.createTextNode(sideName(seat)));
  const role = document.createElement("span");
  role.className = "card-role";
  role.textContent = roleOf(seat);
  if (s.thinking && s.ai && s.ai.seat === seat) {
    role.textContent = "AI is thinking";
    role.classList.add("thinking-dots");
  }
  name.append(role);
  const meter = document.createElement("div");
  meter.className = "queen-meter";
  meter.title = "Spaces around this side's Queen Bee that are filled (6 loses)";
  const queen = view.queens[seat];
  meter.dataset.surrounded = queen ? queen.surrounded : 0;
  meter.append(document.createTextNode(queen ? "Queen " : "Queen in hand"));
  if (queen) {
    for (let i = 0; i < 6; i++) {
      const pip = document.createElement("span");
      pip.className = "pip" + (i < queen.surrounded ? " on" : "");
      meter.append(pip);
    }
    meter.append(document.createTextNode(` ${queen.surrounded}/6`));
  }
  head.append(name, meter);
  const hand = document.createElement("div");
  hand.className = "hand";
  hand.dataset.seat = seat;
  const pieces = view.hands[seat];
  const byKind = new Map();
  for (const p of pieces) {
    if (!byKind.has(p[1])) byKind.set(p[1], []);
    byKind.get(p[1]).push(p);
  }
  for (const [, group] of byKind) {
    const first = group[0];
    const item = document.createElement("div");
    item.className = "hand-piece";
    item.dataset.piece = first;
    item.title = `${BUG_NAMES[kindOf(first)]} (${group.length} in hand)`;
    if (app.selected === first && !app.review) item.classList.add("selected");
    if (app.drag && app.drag.moved && app.drag.piece === first) item.style.opacity = ".35";
    item.append(miniTile(first));
    if (group.length > 1) {
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = `×${group.length}`;
      item.append(count);
    }
    item.addEventListener("pointerdown", (evt) => startPieceDrag(evt, first));
    hand.append(item);
  }
  if (!pieces.length) {
    const empty = document.createElement("span");
    empty.className = "hand-empty";
    empty.textContent = "All pieces in play";
    hand.append(empty);
  }
  card.append(head, hand);
}

function renderStatus() {
  const s = app.state;
  const st = $("status");
  const view = s.view;
  if (app.review) {
    st.textContent = `Reviewing the position after move ${app.review.ply}`;
  } else if (s.result) {
    st.textContent = resultTitle(s) + (s.reason ? ` — ${s.reason}` : "");
  } else if (s.thinking) {
    st.innerHTML = `<span class="spinner"></span>${sideName(view.turn)} (AI) is thinking`;
  } else if (s.ai_error) {
    st.textContent = s.ai_error;
  } else {
    const you = s.seats.length === 1 ? (s.seats[0] === view.turn ? " — your move" : " — waiting for your opponent") : "";
    const phase = isQueen() && app.q && app.q.preview ? ": production" : " to move";
    st.textContent = `${sideName(view.turn)}${phase}${you}`;
    if (!s.seats.length) st.textContent += " · watching";
  }
  st.dataset.state = s.result || (s.thinking ? "thinking" : "playing");
  const banner = $("banner");
  banner.hidden = !s.result || !!app.review;
  if (s.result) {
    $("banner-title").textContent = resultTitle(s);
    const reason = s.reason || "";
    $("banner-reason").textContent = isQueen() ? reason : reason.replace(/^(White|Black)/, (w) => sideName(w === "White" ? 0 : 1));
  }
  const offer = s.offer;
  const box = $("offer");
  box.hidden = !offer || !!s.result;
  if (offer && !s.result) {
    const mine = s.seats.includes(offer.by) && s.seats.length === 1;
    const what = offer.what === "draw" ? "a draw" : "to take back a move";
    $("offer-text").textContent = mine ? `You offered ${what}; waiting for an answer` : `${sideName(offer.by)} offers ${what}`;
    $("btn-accept").hidden = mine || !s.seats.length;
    $("btn-decline").hidden = mine || !s.seats.length;
  }
}

function resultTitle(s) {
  if (s.result === "Draw") return "Draw";
  const sides = isQueen() ? Q_SIDES : ["White", "Black"];
  return `${sideName(sides.indexOf(s.result.replace(/Wins$/, "")))} wins`;
}

function renderMoves() {
  const s = app.state;
  const list = $("movelist");
  list.innerHTML = "";
  const reviewed = app.review ? app.review.ply : null;
  s.moves.forEach((move, i) => {
    if (i % 2 === 0) {
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = `${i / 2 + 1}.`;
      list.append(num);
    }
    const li = document.createElement("li");
    li.textContent = move;
    li.dataset.ply = i + 1;
    if (isQueen()) li.dataset.move = move;
    li.title = "Show the position after this move";
    if (i + 1 === s.moves.length && reviewed === null) li.classList.add("current");
    if (reviewed === i + 1) li.classList.add("reviewed");
    li.addEventListener("click", () => showReview(i + 1));
    list.append(li);
  });
  const target = list.querySelector(".reviewed") || list.lastElementChild;
  if (target) target.scrollIntoView({ block: "nearest" });
}

function renderControls() {
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
  $("btn-eval").hidden = isQueen();
  $("btn-flip").title = isQueen() ? "Flip the field: North at the bottom (F)" : "Flip the board (F)";
}

function renderShare() {
  const s = app.state;
  const box = $("share");
  const invite = localStorage.getItem(`hive.invite.${s.id}`);
  box.hidden = s.mode !== "online" || !s.seats.length;
  const base = `${location.origin}/game/${s.id}`;
  $("watch-link").value = base;
  $("invite-link").value = invite ? `${base}#seat=${invite}` : "(only the player who created the game has it)";
  $("invite-side").textContent = s.seats.length === 1 ? `(plays ${sideName(1 - s.seats[0])})` : "";
}

function render() {
  document.body.classList.remove("theme-default", "theme-warm-cool");
  document.body.classList.add(`theme-${app.theme}`);
  renderBoard();
  renderSide();
  renderQueenPanel();
  const queen = isQueen();
  document.body.classList.toggle("game-hivequeen", queen);
  $("brand-name").textContent = queen ? "HiveQueen" : "Hive";
  $("link-rules").hidden = !queen;
  $("evalbar").hidden = !app.evalOn || queen;
  $("review").hidden = !app.review;
  if (app.review) $("review-text").textContent = `Position after move ${app.review.ply} of ${app.state.moves.length}`;
}

// ------------------------------------------------------------------ playing

function selectPiece(piece) {
  const s = app.state;
  if (!s || app.review) return;
  if (s.result) { toast("The game is over."); return; }
  if (!s.seats.length) { toast("You are watching this game: only the players can move."); return; }
  if (s.thinking) { toast("The AI is thinking."); return; }
  const view = s.view;
  if (!s.seats.includes(view.turn)) { toast(`It's ${sideName(view.turn)}'s turn.`); return; }
  if (!view.legal[piece]) {
    explain(piece);
    app.selected = null;
    render();
    return;
  }
  app.selected = app.selected === piece ? null : piece;
  app.hint = null;
  render();
}

async function explain(piece) {
  try {
    const data = await api("POST", `/api/games/${app.gameId}/why`, { piece });
    toast(data.reason || `${piece} has no move here.`);
  } catch (err) {
    toast(err.message);
  }
}

async function play(body) {
  app.selected = null;
  app.hint = null;
  try {
    const state = await api("POST", `/api/games/${app.gameId}/move`, { ...body, ply: app.state.moves.length });
    setState(state);
  } catch (err) {
    toast(err.message);
    render();
  }
}

function boardClick(evt) {
  if (isQueen()) { queenClick(evt); return; }
  if (!app.state || app.review) return;
  const dest = evt.target.closest(".dest");
  if (dest && app.selected) {
    play({ move: dest.dataset.move });
    return;
  }
  const piece = evt.target.closest(".piece");
  const view = app.state.view;
  if (piece && !app.selected && !view.legal[piece.dataset.piece] && colourOf(piece.dataset.piece) !== view.turn) {
    showStack(piece, evt); // the other side's piece: show what is there rather than a rule
    return;
  }
  if (piece && (!app.selected || view.legal[piece.dataset.piece] || piece.dataset.piece === app.selected)) {
    selectPiece(piece.dataset.piece);
    return;
  }
  if (app.selected) {
    const p = svgPoint(evt);
    const [q, r] = pixelToHex(p.x, p.y);
    play({ piece: app.selected, to: [q, r] }); // not a lit cell: the server says which rule forbids it
    return;
  }
  if (piece) showStack(piece, evt);
}

// a press on a piece: select it, and if the pointer travels, drag it
function startPieceDrag(evt, piece) {
  if (evt.button !== 0) return;
  evt.preventDefault();
  evt.stopPropagation();
  app.drag = { piece, x: evt.clientX, y: evt.clientY, moved: false, ghost: null, fromHand: !evt.target.closest("#board") };
}

function onPointerMove(evt) {
  const d = app.drag;
  if (d) {
    if (!d.moved && Math.hypot(evt.clientX - d.x, evt.clientY - d.y) > 6) {
      if (!canAct() || !app.state.view.legal[d.piece]) { app.drag = null; selectPiece(d.piece); return; }
      d.moved = true;
      app.selected = d.piece;
      render();
      d.ghost = el("g", { class: "ghost" }, $("viewport"));
      drawTile(d.ghost, d.piece, 0, 0);
    }
    if (d.moved) {
      const p = svgPoint(evt);
      const ghost = $("viewport").querySelector(".ghost") || d.ghost;
      if (!ghost.isConnected) { $("viewport").appendChild(ghost); }
      ghost.setAttribute("transform", `translate(${p.x.toFixed(1)},${p.y.toFixed(1)})`);
    }
    return;
  }
  const pan = app.pan;
  if (pan) {
    const v = app.viewBox;
    const svg = $("board");
    const scale = v.w / svg.clientWidth;
    const sc = Math.max(scale, v.h / svg.clientHeight);
    if (Math.hypot(evt.clientX - pan.x0, evt.clientY - pan.y0) > 4) pan.moved = true;
    app.viewBox = { ...v, x: pan.vx - (evt.clientX - pan.x0) * sc, y: pan.vy - (evt.clientY - pan.y0) * sc };
    app.userMoved = true;
    svg.classList.add("panning");
    applyViewBox();
  }
}

function onPointerUp(evt) {
  const d = app.drag;
  if (d) {
    app.drag = null;
    if (!d.moved) {
      if (d.fromHand) selectPiece(d.piece);
      return;
    }
    const under = document.elementFromPoint(evt.clientX, evt.clientY);
    const dest = under && under.closest(".dest");
    if (dest) { play({ move: dest.dataset.move }); return; }
    if (under && under.closest("#board")) {
      const p = svgPoint(evt);
      const [q, r] = pixelToHex(p.x, p.y);
      const cell = app.state.view.cells.find((c) => c.stack[c.stack.length - 1] === d.piece);
      if (!cell || cell.q !== q || cell.r !== r) { play({ piece: d.piece, to: [q, r] }); return; }
    }
    render();
    return;
  }
  if (app.pan) {
    const moved = app.pan.moved;
    app.pan = null;
    $("board").classList.remove("panning");
    if (!moved) boardClick(evt);
  }
}

function showStack(pieceEl, evt) {
  const view = currentView();
  const [q, r] = pieceEl.dataset.cell.split(",").map(Number);
  const cell = view.cells.find((c) => c.q === q && c.r === r);
  const pop = $("stack-pop");
  if (!cell) { pop.hidden = true; return; }
  pop.innerHTML = "";
  const title = document.createElement("div");
  title.className = "stack-title";
  title.textContent = cell.stack.length > 1 ? `Stack of ${cell.stack.length} (top first)` : "Piece";
  pop.append(title);
  for (const p of cell.stack.slice().reverse()) {
    const row = document.createElement("div");
    row.className = "stack-row";
    row.append(miniTile(p, 26), document.createTextNode(`${sideName(colourOf(p))} ${BUG_NAMES[kindOf(p)]} · ${p}`));
    pop.append(row);
  }
  const area = $("board-area").getBoundingClientRect();
  pop.style.left = `${evt.clientX - area.left + 14}px`;
  pop.style.top = `${evt.clientY - area.top + 14}px`;
  pop.hidden = false;
}

// ------------------------------------------------------------------ actions

async function action(name, body = {}) {
  try {
    setState(await api("POST", `/api/games/${app.gameId}/${name}`, body));
  } catch (err) {
    toast(err.message);
  }
}

function undo() {
  if (!app.state || !app.state.seats.length || $("btn-undo").disabled) return;
  app.selected = null; app.hint = null; app.review = null;
  if (isQueen() && app.q) { qReset(); render(); return; } // first drop the turn being built
  action("undo");
}

function redo() {
  if (!app.state || !app.state.seats.length || $("btn-redo").disabled || $("btn-redo").hidden) return;
  app.selected = null; app.hint = null; app.review = null;
  action("redo");
}

function flip() {
  app.flipped = !app.flipped;
  app.flipChosen = true;
  app.userMoved = false;
  render();
}

async function hint() {
  if (!app.state || app.state.result) return;
  $("btn-hint").disabled = true;
  try {
    const data = await api("GET", `/api/games/${app.gameId}/hint`);
    const view = app.state.view;
    for (const [piece, moves] of Object.entries(view.legal)) {
      const found = moves.find((m) => m.move === data.move);
      if (!found) continue;
      const cell = view.cells.find((c) => c.stack[c.stack.length - 1] === piece);
      app.hint = { piece, to: found.to, from: cell ? [cell.q, cell.r] : null };
    }
    if (isQueen()) { qHint(data); return; }
    toast(`Hint: ${data.move}`, false);
    setEval(data);
    render();
  } catch (err) {
    toast(err.message);
  } finally {
    $("btn-hint").disabled = false;
  }
}

function setEval(data) {
  const white = data.white;
  $("eval-white").style.height = `${(white * 100).toFixed(1)}%`;
  const pct = Math.round((white - 0.5) * 200);
  $("eval-text").textContent = pct > 0 ? `+${pct}` : `${pct}`;
  $("evalbar").title = `${sideName(0)}'s chances ${(white * 100).toFixed(0)}% (AI at depth ${data.depth})`;
}

async function refreshEval() {
  if (!app.evalOn || !app.state || app.state.result || isQueen()) return;
  const moves = app.state.moves.length;
  try {
    const data = await api("GET", `/api/games/${app.gameId}/hint`);
    if (app.state.moves.length === moves) setEval(data);
  } catch (err) { /* the game moved on; the next state asks again */ }
}

function toggleEval() {
  app.evalOn = !app.evalOn;
  $("evalbar").hidden = !app.evalOn;
  renderControls();
  refreshEval();
}

async function showReview(ply) {
  const s = app.state;
  if (ply === s.moves.length) { exitReview(); return; }
  try {
    const data = await api("GET", `/api/games/${app.gameId}/position?ply=${ply}`);
    app.review = { ply: data.ply, view: data.view };
    app.selected = null;
    render();
  } catch (err) {
    toast(err.message);
  }
}

function exitReview() {
  app.review = null;
  render();
}

// ------------------------------------------------------------------ games and the server

function setState(state) {
  const old = app.state;
  if (old && old.id === state.id && old.version[0] === state.version[0] && state.version[1] < old.version[1]) {
    return; // a reply that arrived after a newer update over the socket
  }
  const first = !app.state || app.state.id !== state.id;
  const grew = app.state && state.moves.length !== app.state.moves.length;
  app.state = state;
  if (first || grew) qReset();
  if (first) {
    app.review = null;
    app.userMoved = false;
    if (!app.flipChosen) app.flipped = state.seats.length === 1 && state.seats[0] === 1;
  }
  if (grew) { app.hint = null; }
  if (app.selected && !state.view.legal[app.selected]) app.selected = null;
  render();
  if (grew || first) refreshEval();
}

function connect() {
  if (app.ws) { app.ws.onclose = null; app.ws.close(); }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = app.token ? `?token=${encodeURIComponent(app.token)}` : "";
  const ws = new WebSocket(`${proto}://${location.host}/ws/games/${app.gameId}${q}`);
  app.ws = ws;
  const conn = $("conn");
  ws.onopen = () => { app.wsDelay = 500; conn.textContent = "Live"; conn.className = "conn"; };
  ws.onmessage = (evt) => {
    if (evt.data === "pong") return;
    setState(JSON.parse(evt.data));
  };
  ws.onclose = () => {
    conn.textContent = "Connection lost — reconnecting…";
    conn.className = "conn down";
    setTimeout(() => { if (app.ws === ws) connect(); }, app.wsDelay);
    app.wsDelay = Math.min(app.wsDelay * 2, 5000);
  };
}

async function openGame(id, token) {
  app.gameId = id;
  app.token = token || localStorage.getItem(`hive.token.${id}`) || null;
  if (token) localStorage.setItem(`hive.token.${id}`, token);
  localStorage.setItem("hive.last", id);
  app.flipChosen = false;
  try {
    setState(await api("GET", `/api/games/${id}`));
  } catch (err) {
    toast(err.message);
    if (/no game/.test(err.message)) { localStorage.removeItem("hive.last"); showWelcome(); return; }
  }
  connect();
}

async function createGame(body) {
  try {
    const data = await api("POST", "/api/games", body);
    localStorage.setItem(`hive.token.${data.id}`, data.token);
    if (data.invite) localStorage.setItem(`hive.invite.${data.id}`, data.invite);
    history.pushState(null, "", `/game/${data.id}#seat=${data.token}`);
    app.state = null;
    app.selected = null;
    app.hint = null;
    await openGame(data.id, data.token);
    return true;
  } catch (err) {
    toast(err.message);
    return false;
  }
}

function newGameBody(form) {
  const f = new FormData(form);
  if (f.get("game") === "hivequeen") {
    return { kind: "hivequeen", mode: f.get("mode"), ai_level: f.get("ai_level"), colour: f.get("colour"), options: {} };
  }
  const exp = ["M", "L", "P"].filter((x) => f.get(x)).join("");
  return {
    kind: "hive",
    mode: f.get("mode"),
    ai_level: f.get("ai_level"),
    colour: f.get("colour"),
    options: {
      game_type: exp ? `Base+${exp}` : "Base",
      tournament_opening: f.get("opening") === "tournament",
      repetition_draw: !!f.get("repetition"),
    },
  };
}

function showWelcome() {
  $("welcome").hidden = false;
  $("status").textContent = "No game yet";
}

function route() {
  const m = location.pathname.match(/^\/game\/([\w-]+)/);
  const seat = new URLSearchParams(location.hash.slice(1)).get("seat");
  if (m) { openGame(m[1], seat); return; }
  const last = localStorage.getItem("hive.last");
  if (last) {
    history.replaceState(null, "", `/game/${last}`);
    openGame(last, null);
    return;
  }
  showWelcome();
  $("dlg-new").showModal();
}

// ------------------------------------------------------------------ wiring

function syncModeRows() {
  const form = new FormData($("form-new"));
  const mode = form.get("mode"), game = form.get("game");
  for (const row of document.querySelectorAll("#form-new [data-for]")) {
    row.hidden = !row.dataset.for.split(" ").includes(mode);
  }
  for (const row of document.querySelectorAll("#form-new [data-game]")) row.hidden = row.dataset.game !== game;
  const queen = game === "hivequeen";
  const colours = $("form-new").querySelectorAll("select[name=colour] option");
  colours[0].textContent = queen ? "South (moves first)" : "White (first)";
  colours[1].textContent = queen ? "North" : "Black";
}

function syncImportKind() {
  const queen = $("import-kind").value === "hivequeen";
  $("import-text").placeholder = queen
    ? '[Game "HiveQueen"]\nWc3-c4;+Sd4\nWg7-g6;+Sf6'
    : "Base+MLP;InProgress;White[3];wG1;bG1 wG1-;wQ -wG1;bQ bG1-";
}

function wire() {
  const board = $("board");
  board.addEventListener("pointerdown", (evt) => {
    if (evt.button !== 0) return;
    $("stack-pop").hidden = true;
    const piece = evt.target.closest(".piece");
    if (piece && canAct() && app.state.view.legal[piece.dataset.piece] && !evt.target.closest(".dest")) {
      app.drag = { piece: piece.dataset.piece, x: evt.clientX, y: evt.clientY, moved: false, ghost: null, fromHand: false, el: piece };
      app.pan = { x0: evt.clientX, y0: evt.clientY, vx: app.viewBox.x, vy: app.viewBox.y, moved: false, viaPiece: true };
      return;
    }
    app.pan = { x0: evt.clientX, y0: evt.clientY, vx: app.viewBox ? app.viewBox.x : 0, vy: app.viewBox ? app.viewBox.y : 0, moved: false };
  });
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", (evt) => {
    const d = app.drag;
    if (d && !d.moved && !d.fromHand) {
      app.drag = null;
      app.pan = null;
      boardClick(evt);
      return;
    }
    if (d && d.moved) app.pan = null;
    onPointerUp(evt);
  });
  board.addEventListener("wheel", (evt) => {
    evt.preventDefault();
    zoom(evt.deltaY > 0 ? 1.12 : 1 / 1.12, svgPoint(evt));
  }, { passive: false });
  board.addEventListener("mousemove", (evt) => {
    const piece = evt.target.closest(".piece");
    if (piece && Number(piece.dataset.height) > 1 && !app.drag) showStack(piece, evt);
    else if (!piece) $("stack-pop").hidden = true;
  });
  board.addEventListener("mouseleave", () => { $("stack-pop").hidden = true; });
  $("btn-zoom-in").onclick = () => zoom(1 / 1.25);
  $("btn-zoom-out").onclick = () => zoom(1.25);
  $("btn-fit").onclick = () => { app.userMoved = false; renderBoard(); };
  $("btn-flip").onclick = flip;
  $("btn-undo").onclick = undo;
  $("btn-redo").onclick = redo;
  $("btn-pass").onclick = () => play({ move: "pass" });
  $("btn-hint").onclick = hint;
  $("btn-eval").onclick = toggleEval;
  $("btn-resign").onclick = () => { if (confirm("Resign this game?")) action("resign"); };
  $("btn-draw").onclick = () => action("offer", { what: "draw" });
  $("btn-accept").onclick = () => action("answer", { accept: true });
  $("btn-decline").onclick = () => action("answer", { accept: false });
  $("btn-review-exit").onclick = exitReview;
  const openNew = () => { syncModeRows(); $("dlg-new").showModal(); };
  $("btn-new").onclick = openNew;
  $("btn-banner-new").onclick = openNew;
  $("btn-welcome-new").onclick = openNew;
  $("btn-io").onclick = () => {
    $("import-kind").value = isQueen() ? "hivequeen" : "hive";
    $("io-title").textContent = isQueen() ? "HiveQueen record" : "GameString";
    syncImportKind();
    $("dlg-io").showModal();
  };
  $("import-kind").addEventListener("change", syncImportKind);
  for (const radio of document.querySelectorAll("#form-new [name=mode], #form-new [name=game]")) radio.addEventListener("change", syncModeRows);
  $("form-new").addEventListener("submit", async (evt) => {
    if (evt.submitter && evt.submitter.value !== "start") return;
    evt.preventDefault();
    if (await createGame(newGameBody($("form-new")))) $("dlg-new").close();
  });
  $("form-io").addEventListener("submit", async (evt) => {
    if (!evt.submitter || evt.submitter.value !== "import") return;
    evt.preventDefault();
    const text = $("import-text").value.trim();
    const queen = $("import-kind").value === "hivequeen";
    if (!text) { toast(queen ? "Paste a HiveQueen record first: one turn a line, e.g. Wc3-c4;+Sd4" : "Paste a GameString first, e.g. Base;NotStarted;White[1]"); return; }
    const body = newGameBody($("form-new"));
    if (queen) { body.kind = "hivequeen"; body.options = {}; } else if (body.kind !== "hive") { body.kind = "hive"; body.options = {}; }
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
  const themeSelect = $("theme");
  themeSelect.value = app.theme;
  themeSelect.addEventListener("change", () => {
    app.theme = themeSelect.value;
    localStorage.setItem("hive.theme", app.theme);
    render();
  });
  window.addEventListener("keydown", (evt) => {
    if (evt.target.closest("input, textarea, select, dialog")) return;
    const k = evt.key.toLowerCase();
    if ((evt.ctrlKey || evt.metaKey) && k === "z" && !evt.shiftKey) { evt.preventDefault(); undo(); }
    else if ((evt.ctrlKey || evt.metaKey) && (k === "y" || (k === "z" && evt.shiftKey))) { evt.preventDefault(); redo(); }
    else if (evt.ctrlKey || evt.metaKey || evt.altKey) return;
    else if (k === "u") undo();
    else if (k === "r") redo();
    else if (k === "f") flip();
    else if (k === "h") hint();
    else if (k === "e") toggleEval();
    else if (k === "escape") { app.selected = null; app.review = null; if (isQueen()) qHidePick(); render(); }
    else if (k === "arrowleft" && app.state) showReview(Math.max(0, (app.review ? app.review.ply : app.state.moves.length) - 1));
    else if (k === "arrowright" && app.review) showReview(app.review.ply + 1);
  });
  window.addEventListener("popstate", route);
  window.addEventListener("resize", () => { if (!app.userMoved) renderBoard(); });
}

async function main() {
  app.assets = await api("GET", "/api/assets");
  const level = $("ai-level");
  for (const name of app.assets.levels) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = LEVEL_NAMES[name] || name;
    level.append(option);
  }
  level.value = "easy";
  wire();
  syncModeRows();
  route();
  document.body.dataset.ready = "1";
}

main().catch((err) => toast(err.message));
