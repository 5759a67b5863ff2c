// Telling a player that the opponent moved: a short chime (which can be muted) and, while the tab is in the
// background, a mark in its title until it is looked at again.

import { t } from "../i18n.js";
import { $ } from "../page.js";

let muted = localStorage.getItem("hive.sound") === "off";
let audio = null;
let baseTitle = document.title;
let marked = false; // the title says the opponent has moved, until the player looks
let waiting = 0; // the notices waiting (notices.js): the title starts with their count, "(2) …"

// A title with the count of the notices waiting before it.
function counted(title) { return waiting ? `(${waiting}) ${title}` : title; }

// The notices waiting are now `n`: the title says so.
export function showCount(n) {
  waiting = n;
  document.title = counted(document.title.replace(/^\(\d+\) /, ""));
}

function chime() {
  if (muted) return;
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    for (const [i, pitch] of [660, 880].entries()) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = pitch;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.18, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.25);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + i * 0.12);
      tone.stop(now + i * 0.12 + 0.3);
    }
  } catch (err) { /* no sound on this browser */ }
}

function showSound() {
  const button = $("btn-sound");
  button.textContent = t(muted ? "top.sound_off" : "top.sound_on");
  button.setAttribute("aria-pressed", String(!muted));
  button.classList.toggle("muted-sound", muted);
}

export function wireSound() {
  showSound();
  $("btn-sound").onclick = () => {
    muted = !muted;
    localStorage.setItem("hive.sound", muted ? "off" : "on");
    showSound();
  };
  document.addEventListener("visibilitychange", () => { if (!document.hidden) unmark(); });
}

// The page's title when nothing is waiting (the game's name and whose turn it is).
export function setTitle(title) {
  baseTitle = title;
  if (!marked) document.title = counted(title);
}

function unmark() {
  marked = false;
  document.title = counted(baseTitle);
}

// After a new state of the same game: tell screen readers the move just played, by whom, and how the game ended
// (the live region is polite: it waits for the reader to finish). ``first`` is the ply of the game's first move.
export function announce(old, state, sideName, first) {
  if (!old || old.id !== state.id) return;
  const said = [];
  if (state.moves.length > old.moves.length) {
    const ply = first + state.moves.length - 1;
    said.push(`${sideName(ply % 2)} played ${state.moves[state.moves.length - 1]}.`);
  }
  if (state.result && !old.result) said.push(`Game over: ${state.reason || state.result}.`);
  if (said.length) document.getElementById("live").textContent = said.join(" ");
}

// After a new state: chime and mark the title when the other side (a person or the AI) has just moved and the
// player holds one seat. The server says who made the change (a game set up from a position may start with either
// side, so the number of moves does not tell).
export function noticeMove(old, state) {
  if (!old || old.id !== state.id || state.moves.length <= old.moves.length) return;
  if (state.seats.length !== 1) return;
  const mover = state.event ? state.event.by : null;
  if (mover === null || mover === undefined || state.seats.includes(mover)) return;
  chime();
  marked = true;
  document.title = counted(`● ${state.result ? "Game over" : "Your move"} · ${baseTitle.replace(/^.*? · /, "")}`);
  if (!document.hidden) setTimeout(unmark, 4000);
}
