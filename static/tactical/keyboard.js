// Keyboard play of the board (no mouse): while the map has focus, the arrow keys move a cursor over the cells,
// Enter or Space acts on the cursor's cell as a click would (select the unit there, or move, deploy, shoot or
// intercept to it), Escape is the board's own. Every action and its answer is read out through an aria-live
// region: the newest line of the battle log, the board's messages and what the cursor is on.
// It works through the board's own DOM events only, so the board's rules stay in one place (board.js).

import { CELL, el } from "./render.js";

const svg = document.getElementById("board");
const announce = document.getElementById("board-announce");
const strings = JSON.parse(document.getElementById("board-strings").textContent);
const STEP = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
const WIDTH = 18;
const HEIGHT = 21;
const cursor = { x: 9, y: 10, shown: false };
let ring = null;

function say(text) {
  if (!text) return;
  announce.textContent = "";
  // A new text node each time, so that a repeated sentence is read again.
  window.requestAnimationFrame(() => { announce.textContent = text; });
}

function unitAt(x, y) {
  return svg.querySelector(`#layer-units [data-unit][data-x="${x}"][data-y="${y}"]`);
}

function markAt(x, y) {
  return svg.querySelector(`#layer-marks [data-cell="${x},${y}"]`);
}

function drawCursor() {
  if (!ring || !ring.isConnected) ring = el("rect", { class: "kbd-cursor", id: "kbd-cursor", rx: 5 }, svg);
  svg.appendChild(ring); // above the units
  ring.setAttribute("x", cursor.x * CELL + 2);
  ring.setAttribute("y", cursor.y * CELL + 2);
  ring.setAttribute("width", CELL - 4);
  ring.setAttribute("height", CELL - 4);
  ring.setAttribute("data-x", cursor.x);
  ring.setAttribute("data-y", cursor.y);
}

function describeCell() {
  const where = `${cursor.x}, ${cursor.y}`;
  const unit = unitAt(cursor.x, cursor.y);
  const mark = markAt(cursor.x, cursor.y);
  const parts = [where];
  if (unit) {
    const title = unit.querySelector("title");
    parts.push(title ? title.textContent : unit.dataset.unit);
  }
  if (mark) parts.push(strings[`kbd_${mark.dataset.kind.replace("-", "_")}`] || mark.dataset.kind);
  return parts.join(" — ");
}

function hover() {
  const target = markAt(cursor.x, cursor.y);
  if (target) target.dispatchEvent(new PointerEvent("pointerover", { bubbles: true }));
}

function press() {
  const unit = unitAt(cursor.x, cursor.y);
  const mark = markAt(cursor.x, cursor.y);
  // A cell to move, deploy or intercept to wins over the unit standing there only when there is none.
  const target = unit || mark;
  if (!target) {
    say(`${cursor.x}, ${cursor.y} — ${strings.kbd_nothing}`);
    return;
  }
  target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
}

svg.addEventListener("focus", () => {
  cursor.shown = true;
  drawCursor();
  say(describeCell());
});

svg.addEventListener("keydown", (e) => {
  if (e.target !== svg) return; // a focused unit token keeps the board's own keys (arrows turn it)
  if (STEP[e.key]) {
    const [dx, dy] = STEP[e.key];
    cursor.x = Math.min(WIDTH - 1, Math.max(0, cursor.x + dx));
    cursor.y = Math.min(HEIGHT - 1, Math.max(0, cursor.y + dy));
    drawCursor();
    hover();
    say(describeCell());
  } else if (e.key === "Enter" || e.key === " ") {
    press();
  } else {
    return; // Escape and the rest: the board's own keys
  }
  e.preventDefault();
  e.stopPropagation(); // the board's arrow keys turn the selected unit; on the map they move the cursor
});

// Redraws of the units replace the layer's children: keep the cursor on top.
new MutationObserver(() => { if (cursor.shown) drawCursor(); }).observe(document.getElementById("layer-units"), { childList: true });

// Every action's answer: the newest line of the log, a message of the board, the chosen unit.
// The log's history (every version up to the one the board was welcomed with, which arrives after the welcome) is
// not read out: only what happens once the player is at the board.
const log = document.getElementById("board-log");
const happenedHere = (node) => {
  const until = log.dataset.historyUntil;
  return until !== undefined && node.dataset.version !== undefined && Number(node.dataset.version) > Number(until);
};
new MutationObserver((changes) => {
  const added = changes.flatMap((c) => [...c.addedNodes])
    .flatMap((n) => (n.nodeType === 1 && n.classList.contains("log-lines") ? [...n.children] : [n]))
    .filter((n) => n.nodeType === 1 && happenedHere(n));
  if (!added.length) return;
  const newest = added.reduce((a, b) => (Number(b.dataset.version) > Number(a.dataset.version) ? b : a));
  const lines = [...newest.querySelectorAll(".log-line")].map((n) => n.textContent.trim());
  say(lines.join(" ") || newest.textContent.trim());
}).observe(log, { childList: true, subtree: true }); // the lines are in lists of lines (log.js)
const message = document.getElementById("board-message");
new MutationObserver(() => { if (!message.hidden) say(message.textContent.trim()); })
  .observe(message, { childList: true, characterData: true, subtree: true, attributes: true, attributeFilter: ["hidden"] });
