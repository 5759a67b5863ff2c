// The players' clocks: each side's remaining time in its card, ticking down on the side whose clock runs, with a
// warning when it runs low, and the time each move used. The server keeps the time; the page only counts down from
// what it last said (state.clock) and waits for the server to call the flag.

import { app, h } from "../page.js";

const received = new WeakMap(); // a state -> when it arrived (performance.now())

// Whether a clock counts days per move (correspondence).
export function byDays(clock) { return !!(clock && clock.control && clock.control.days); }

// A remaining time as a clock shows it: "1:02:03", "4:05", or tenths below ten seconds ("7.3"); by days
// (correspondence: days), in one format from days down to an hour, "2d 5h", "1d 0h", "23h 55m", then "59:07".
export function clockText(ms, days = false) {
  const s = Math.max(0, ms) / 1000;
  if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
  if (days && s >= 3600) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  if (s < 10) return (Math.floor(s * 10) / 10).toFixed(1);
  const whole = Math.floor(s), hours = Math.floor(whole / 3600), minutes = Math.floor((whole % 3600) / 60);
  const seconds = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

// The time a move used, short: "0.4s", "12s", "3m 05s", "5h 20m", "1d 4h".
export function usedText(ms) {
  const s = ms / 1000;
  if (s < 10) return `${s.toFixed(1)}s`;
  if (s < 60) return `${Math.round(s)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(Math.floor(s % 60)).padStart(2, "0")}s`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
}

// seat's remaining milliseconds now, counted down from the state's figure if its clock runs.
function remaining(state, seat) {
  const clock = state.clock;
  if (!received.has(state)) received.set(state, performance.now());
  const running = clock.running === seat && !state.result;
  return clock.remaining[seat] - (running ? performance.now() - received.get(state) : 0);
}

// The clock of seat for its card's head (null in an untimed game).
export function clockFor(seat) {
  const s = app.state;
  if (!s || !s.clock) return null;
  const box = h("span", "clock");
  box.dataset.seat = seat;
  box.setAttribute("role", "timer");
  box.setAttribute("aria-label", `Time left for ${seat === 0 ? "the first" : "the second"} player`);
  update(box, s);
  return box;
}

function update(box, s) {
  const seat = Number(box.dataset.seat);
  const ms = remaining(s, seat);
  box.textContent = clockText(ms, byDays(s.clock));
  box.classList.toggle("running", s.clock.running === seat && !s.result);
  box.classList.toggle("low", ms <= s.clock.low);
  box.classList.toggle("out", ms <= 0);
}

// The time used by move i (0-based) of the open game, as a small element, or null.
export function usedFor(i) {
  const s = app.state;
  const used = s && s.clock ? s.clock.used[i] : null;
  if (used === null || used === undefined) return null;
  const tag = h("small", "used", usedText(used));
  tag.title = "Time used for this move";
  return tag;
}

function tick() {
  const s = app.state;
  if (!s || !s.clock) return;
  for (const box of document.querySelectorAll(".clock")) update(box, s);
}

setInterval(tick, 100);
