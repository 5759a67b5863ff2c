// A rating history graph, as inline SVG: the rating after each rated game (points joined by a line) against time, with
// its axes named in words ("Rating", "Date" or the day's "Time on ..."), ratings and dates along them, and a summary
// in words for those who do not see it (role="img", its <title> and <desc>). One game's graph is a line from the
// start rating to the rating after it. It is drawn at the width it is shown at
// (one user unit a CSS pixel), so that its text stays readable on a phone.

const NS = "http://www.w3.org/2000/svg";
const PAD = { left: 60, right: 16, top: 12, bottom: 44 };
const DAY = 86400;
const START = 1500; // every player's rating before their first rated game
let made = 0; // ids of the graphs' titles

function el(tag, attrs = {}, text = null) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

const dateText = (seconds, withYear) => new Date(seconds * 1000).toLocaleDateString(undefined,
  withYear ? { day: "numeric", month: "short", year: "numeric" } : { day: "numeric", month: "short" });
const timeText = (seconds) => new Date(seconds * 1000).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });

// Round ticks between low and high, about count of them.
function ticks(low, high, count) {
  const span = Math.max(high - low, 1);
  const raw = span / Math.max(count, 1);
  const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000].find((s) => s >= raw) || 1000;
  const out = [];
  for (let v = Math.ceil(low / step) * step; v <= high + 1e-9; v += step) out.push(v);
  return out;
}

// What the graph says, in words: how many games, over which dates, from which rating to which, and its extremes.
export function graphSummary(points, what) {
  const ratings = points.map(([, r]) => Math.round(r));
  const first = points[0][0], last = points[points.length - 1][0];
  const when = dateText(first, true) === dateText(last, true) ? `on ${dateText(first, true)}`
    : `from ${dateText(first, true)} to ${dateText(last, true)}`;
  if (points.length === 1) return `${what}: 1 rated game ${when}, after which it was ${ratings[0]}.`;
  return `${what}: ${points.length} rated games ${when}; it went from ${ratings[0]} to ${ratings[ratings.length - 1]} ` +
    `(highest ${Math.max(...ratings)}, lowest ${Math.min(...ratings)}).`;
}

// One rated game: a line from the rating every player starts at to the rating after it, each end marked with its
// value, the game's date below its end, and "1 rated game" over it (a lone dot reads as nothing).
function onePoint(svg, [t, r], w, height) {
  const inner = { x: PAD.left, y: PAD.top + 18, w: w - PAD.left - PAD.right, h: height - PAD.top - 18 - PAD.bottom };
  const low = Math.min(START, r) - 30, high = Math.max(START, r) + 30;
  const y = (v) => inner.y + inner.h - ((v - low) / (high - low)) * inner.h;
  const x0 = inner.x + inner.w * 0.12, x1 = inner.x + inner.w * 0.88;
  const axes = el("g", { class: "axes", "aria-hidden": "true" });
  for (const value of ticks(low, high, 4)) {
    axes.append(el("line", { x1: inner.x, x2: inner.x + inner.w, y1: y(value), y2: y(value), class: "grid" }),
      el("text", { x: inner.x - 6, y: y(value) + 4, "text-anchor": "end" }, String(value)));
  }
  axes.append(el("line", { x1: inner.x, x2: inner.x + inner.w, y1: inner.y + inner.h, y2: inner.y + inner.h, class: "axis" }),
    el("text", { x: x0, y: inner.y + inner.h + 17, "text-anchor": "middle" }, "Start"),
    el("text", { x: x1, y: inner.y + inner.h + 17, "text-anchor": "middle" }, dateText(t, true)),
    el("text", { x: inner.x + inner.w / 2, y: PAD.top + 4, "text-anchor": "middle", class: "axis-title one-game" }, "1 rated game"),
    el("text", { x: 14, y: inner.y + inner.h / 2, "text-anchor": "middle", class: "axis-title",
      transform: `rotate(-90 14 ${inner.y + inner.h / 2})` }, "Rating"));
  svg.append(axes);
  const line = el("line", { class: "rating-line rating-start", x1: x0, y1: y(START), x2: x1, y2: y(r), "aria-hidden": "true" });
  const dots = el("g", { class: "rating-dots", "aria-hidden": "true" });
  dots.append(el("circle", { cx: x0, cy: y(START).toFixed(1), r: 4, class: "start" }),
    el("circle", { cx: x1, cy: y(r).toFixed(1), r: 5 }));
  const values = el("g", { class: "rating-values", "aria-hidden": "true" });
  // each value above its end; the lower end's drawn away from the line, which rises from it toward the other end
  values.append(el("text", { x: START >= r ? x0 : x0 + 4, y: y(START) - 10, "text-anchor": START >= r ? "middle" : "end" }, String(START)),
    el("text", { x: r >= START ? x1 : x1 - 4, y: y(r) - 10, "text-anchor": r >= START ? "middle" : "start" }, String(Math.round(r))));
  svg.append(line, dots, values);
}

// The graph of points ([when in seconds, rating], oldest first), width CSS pixels wide; what names it in words.
export function ratingGraph(points, width, what) {
  const w = Math.max(260, Math.round(width));
  const HEIGHT = Math.round(Math.min(260, Math.max(200, w * 0.28))); // taller on a wide screen, never flat
  const svg = el("svg", { viewBox: `0 0 ${w} ${HEIGHT}`, width: w, height: HEIGHT, role: "img", class: "rating-graph" });
  const id = `rating-graph-${++made}`;
  svg.setAttribute("aria-labelledby", `${id}-title ${id}-desc`);
  svg.append(el("title", { id: `${id}-title` }, `Rating history, ${what}`), el("desc", { id: `${id}-desc` }, graphSummary(points, what)));
  if (points.length === 1) { onePoint(svg, points[0], w, HEIGHT); return svg; }
  const ratings = points.map(([, r]) => r);
  const low = Math.min(...ratings) - 20, high = Math.max(...ratings) + 20;
  const t0 = points[0][0], t1 = points[points.length - 1][0];
  const inner = { x: PAD.left, y: PAD.top, w: w - PAD.left - PAD.right, h: HEIGHT - PAD.top - PAD.bottom };
  const x = (t) => (t1 === t0 ? inner.x + inner.w / 2 : inner.x + ((t - t0) / (t1 - t0)) * inner.w);
  const y = (r) => inner.y + inner.h - ((r - low) / (high - low)) * inner.h;

  const axes = el("g", { class: "axes", "aria-hidden": "true" });
  for (const value of ticks(low, high, 4)) {
    axes.append(el("line", { x1: inner.x, x2: inner.x + inner.w, y1: y(value), y2: y(value), class: "grid" }),
      el("text", { x: inner.x - 6, y: y(value) + 4, "text-anchor": "end" }, String(value)));
  }
  // along the bottom: dates, or the hours of one day
  const oneDay = t1 - t0 < 2 * DAY && dateText(t0, true) === dateText(t1, true);
  const withYear = new Date(t0 * 1000).getFullYear() !== new Date(t1 * 1000).getFullYear();
  const label = (t) => (oneDay ? timeText(t) : dateText(t, withYear));
  const count = Math.max(2, Math.floor(inner.w / 110));
  const times = t1 === t0 ? [t0] : Array.from({ length: count }, (_, i) => t0 + ((t1 - t0) * i) / (count - 1));
  let lastText = null;
  for (const t of times) {
    const text = label(t);
    if (text === lastText) continue;
    lastText = text;
    const anchor = t1 === t0 ? "middle" : t === t0 ? "start" : t === t1 ? "end" : "middle";
    axes.append(el("line", { x1: x(t), x2: x(t), y1: inner.y + inner.h, y2: inner.y + inner.h + 4, class: "tick" }),
      el("text", { x: x(t), y: inner.y + inner.h + 17, "text-anchor": anchor }, text));
  }
  axes.append(el("line", { x1: inner.x, x2: inner.x + inner.w, y1: inner.y + inner.h, y2: inner.y + inner.h, class: "axis" }),
    el("text", { x: inner.x + inner.w / 2, y: HEIGHT - 6, "text-anchor": "middle", class: "axis-title" },
      oneDay ? `Time on ${dateText(t0, true)}` : "Date"),
    el("text", { x: 14, y: inner.y + inner.h / 2, "text-anchor": "middle", class: "axis-title",
      transform: `rotate(-90 14 ${inner.y + inner.h / 2})` }, "Rating"));
  svg.append(axes);

  const line = el("polyline", { class: "rating-line", points: points.map(([t, r]) => `${x(t).toFixed(1)},${y(r).toFixed(1)}`).join(" ") });
  const dots = el("g", { class: "rating-dots", "aria-hidden": "true" });
  for (const [t, r] of points) dots.append(el("circle", { cx: x(t).toFixed(1), cy: y(r).toFixed(1), r: points.length > 60 ? 1.5 : 3 }));
  line.setAttribute("aria-hidden", "true");
  svg.append(line, dots);
  return svg;
}
