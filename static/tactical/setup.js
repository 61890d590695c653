// The moderator's setup of a battle (issue 16): paint cells of the field by click or drag, or by column and
// row; the server keeps a passable route between the deployment zones (T5) and refuses a cut with the reason.
// The board itself (board.js) redraws from the socket once a change is stored.

import { CELL, el } from "./render.js";

const $ = (id) => document.getElementById(id);
const config = JSON.parse($("board-config").textContent);
const t = JSON.parse($("board-strings").textContent);
const svg = $("board");
const route = $("setup-route");
const preview = el("g", { id: "layer-paint", "aria-hidden": "true" }, svg);
const picked = new Map();
let painting = false;

svg.classList.add("painting");

function feature() {
  const chosen = document.querySelector('input[name="paint"]:checked');
  return chosen && chosen.value !== "clear" ? chosen.value : null;
}

function cellAt(event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const at = point.matrixTransform(svg.getScreenCTM().inverse());
  const x = Math.floor(at.x / CELL);
  const y = Math.floor(at.y / CELL);
  return x >= 0 && x < 18 && y >= 0 && y < 21 ? [x, y] : null;
}

function pick(cell) {
  if (!cell) return;
  const key = cell.join(",");
  if (picked.has(key)) return;
  picked.set(key, cell);
  el("rect", { x: cell[0] * CELL + 3, y: cell[1] * CELL + 3, width: CELL - 6, height: CELL - 6, rx: 4, class: "paint-preview" }, preview);
}

function say(text, kind) {
  route.textContent = text;
  route.dataset.kind = kind;
}

async function send(cells) {
  if (!cells.length) return;
  const value = feature();
  say(t.paint_sent.replace("{count}", String(cells.length)), "info");
  try {
    const answer = await fetch(`${config.api}map/`, {
      method: "PATCH", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": config.csrf },
      body: JSON.stringify({ cells: cells.map(([x, y]) => ({ x, y, feature: value })) }),
    });
    const body = await answer.json().catch(() => ({}));
    if (answer.ok) say(t.paint_route_kept, "ok");
    else say(`${t.refused} — ${body.rule ? `${body.rule}: ` : ""}${body.detail || answer.status}`, "error");
  } catch {
    say(t.reconnecting.replace("{seconds}", "…"), "error");
  } finally {
    picked.clear();
    preview.replaceChildren();
  }
}

svg.addEventListener("pointerdown", (event) => {
  const cell = cellAt(event);
  if (!cell) return;
  painting = true;
  svg.setPointerCapture(event.pointerId);
  pick(cell);
  event.preventDefault();
});
svg.addEventListener("pointermove", (event) => {
  if (painting) pick(cellAt(event));
});
const finish = () => {
  if (!painting) return;
  painting = false;
  send([...picked.values()]);
};
svg.addEventListener("pointerup", finish);
svg.addEventListener("pointercancel", finish);

$("paint-form").addEventListener("submit", (event) => {
  event.preventDefault();
  send([[Number($("paint-x").value), Number($("paint-y").value)]]);
});
