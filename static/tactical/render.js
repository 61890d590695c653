// Drawing the board: terrain, marks (reachable cells, range, deployment), contacts and units, in SVG.
// Pure functions of the state and the view's choices; the controller (board.js) owns the events.

export const CELL = 40;
const NS = "http://www.w3.org/2000/svg";
const ANGLE = { N: 0, E: 90, S: 180, W: 270 };
const SIDE_COLOUR = { attacker: "#a8231f", defender: "#234f96" };

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

// What each drawn node (or a whole layer) was drawn from: a redraw from the same inputs leaves the DOM alone, so
// a pushed event costs the browser only the nodes it changed (style and layout included).
const drawnFrom = new WeakMap();

/** Records ``key`` as what ``node`` was drawn from. */
export function remember(node, key) {
  drawnFrom.set(node, key);
  return node;
}

/** Whether ``node`` was last drawn from ``key``; records ``key`` as its inputs from now on. */
export function unchanged(node, key) {
  if (drawnFrom.get(node) === key) return true;
  remember(node, key);
  return false;
}

/** The children of ``parent`` become ``nodes``, in order: nodes kept in place are not touched. */
export function reconcile(parent, nodes) {
  const wanted = new Set(nodes);
  for (const child of [...parent.childNodes]) if (!wanted.has(child)) parent.removeChild(child);
  let at = parent.firstChild;
  for (const node of nodes) {
    if (node === at) at = at.nextSibling;
    else parent.insertBefore(node, at);
  }
}

export function centre(x, y) {
  return [x * CELL + CELL / 2, y * CELL + CELL / 2];
}

/** The ground: terrain colour, deployment rows, special cells (``featureName`` titles them), grid lines and
 * coordinates. */
export function drawGround(layer, state, featureName) {
  clear(layer);
  const w = state.width * CELL;
  const h = state.height * CELL;
  el("rect", { x: 0, y: 0, width: w, height: h, class: `ground terrain-${state.terrain}` }, layer);
  for (const [side, rows] of Object.entries(state.deployment_rows || {})) {
    for (const y of rows) {
      el("rect", { x: 0, y: y * CELL, width: w, height: CELL, class: `deploy-row deploy-${side}` }, layer);
    }
  }
  for (const cell of state.cells || []) {
    const g = el("g", { class: `feature feature-${cell.feature}`, "data-feature": cell.feature }, layer);
    el("rect", { x: cell.x * CELL, y: cell.y * CELL, width: CELL, height: CELL, fill: `url(#pat-${cell.feature})` }, g);
    el("title", {}, g).textContent = featureName(cell.feature);
  }
  const grid = el("g", { class: "grid" }, layer);
  for (let x = 0; x <= state.width; x += 1) el("line", { x1: x * CELL, y1: 0, x2: x * CELL, y2: h }, grid);
  for (let y = 0; y <= state.height; y += 1) el("line", { x1: 0, y1: y * CELL, x2: w, y2: y * CELL }, grid);
  const labels = el("g", { class: "coords" }, layer);
  for (let x = 0; x < state.width; x += 1) {
    el("text", { x: x * CELL + CELL / 2, y: -5, "text-anchor": "middle" }, labels).textContent = x;
  }
  for (let y = 0; y < state.height; y += 1) {
    el("text", { x: -5, y: y * CELL + CELL / 2 + 4, "text-anchor": "end" }, labels).textContent = y;
  }
}

/** Highlighted cells: ``marks`` is a list of {x, y, kind, title?}; each is a click target. */
export function drawMarks(layer, marks) {
  if (unchanged(layer, JSON.stringify(marks))) return;
  clear(layer);
  for (const mark of marks) {
    const attrs = {
      x: mark.x * CELL + 1, y: mark.y * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 4,
      class: `mark mark-${mark.kind}`, "data-cell": `${mark.x},${mark.y}`, "data-kind": mark.kind,
    };
    const rect = el("rect", attrs, layer);
    if (mark.title) el("title", {}, rect).textContent = mark.title;
  }
}

/** Contacts as red bars across the shared edge, the initiator's end marked. */
export function drawContacts(layer, state, units) {
  const at = (id) => (units.get(id) ? [units.get(id).x, units.get(id).y] : null);
  const key = JSON.stringify((state.contacts || []).map((c) => [at(c.a), at(c.b), at(c.initiator)]));
  if (unchanged(layer, key)) return;
  clear(layer);
  for (const contact of state.contacts || []) {
    const a = units.get(contact.a);
    const b = units.get(contact.b);
    if (!a || !b || a.x === null || b.x === null) continue;
    const [ax, ay] = centre(a.x, a.y);
    const [bx, by] = centre(b.x, b.y);
    const mx = (ax + bx) / 2;
    const my = (ay + by) / 2;
    const dx = (by - ay) / CELL;
    const dy = (ax - bx) / CELL;
    el("line", { x1: mx - dx * 13, y1: my - dy * 13, x2: mx + dx * 13, y2: my + dy * 13, class: "contact" }, layer);
    const init = units.get(contact.initiator);
    if (init && init.x !== null) {
      const [ix, iy] = centre(init.x, init.y);
      el("circle", { cx: mx + (ix - mx) * 0.28, cy: my + (iy - my) * 0.28, r: 3, class: "contact-init" }, layer);
    }
  }
}

/** The path a move would take, as a line from the unit through its cells. */
export function drawPath(layer, unit, path) {
  if (!layer.firstChild && (!unit || !path)) return;
  clear(layer);
  if (!unit || !path || !path.length || unit.x === null) return;
  const points = [centre(unit.x, unit.y), ...path.map(([x, y]) => centre(x, y))];
  el("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "path-line" }, layer);
  const [ex, ey] = points[points.length - 1];
  el("circle", { cx: ex, cy: ey, r: 5, class: "path-end" }, layer);
}

function body(g, cls) {
  switch (cls) {
    case "LI1":
      el("circle", { r: 12, class: "body" }, g);
      break;
    case "LI2":
      el("circle", { r: 12, class: "body" }, g);
      el("circle", { r: 5.5, class: "inner" }, g);
      break;
    case "HI":
      el("rect", { x: -11.5, y: -11.5, width: 23, height: 23, rx: 2, class: "body" }, g);
      el("path", { d: "M-11.5 -11.5L11.5 11.5M11.5 -11.5L-11.5 11.5", class: "inner" }, g);
      break;
    case "LC":
      el("path", { d: "M0 -14L14 0L0 14L-14 0Z", class: "body" }, g);
      break;
    default: // HC
      el("path", { d: "M0 -14L14 0L0 14L-14 0Z", class: "body" }, g);
      el("path", { d: "M-6.5 -6.5L6.5 6.5M6.5 -6.5L-6.5 6.5", class: "inner" }, g);
  }
}

/** A small picture of a unit's token (for lists and the legend). */
export function tokenIcon(cls, side) {
  const svg = el("svg", { viewBox: "-16 -16 32 32", class: `token-icon side-${side}`, "aria-hidden": "true" });
  const g = el("g", { class: "shape" }, svg);
  g.style.setProperty("--side", SIDE_COLOUR[side] || "#555");
  g.style.setProperty("--faction", SIDE_COLOUR[side] || "#555");
  body(g, cls);
  return svg;
}

function ticks(g, value, max, y, height, kind) {
  const count = Math.max(0, Math.ceil(max));
  if (!count) return;
  const step = Math.min(5.5, 34 / count);
  const width = Math.max(1.8, step - 1.5);
  const start = -((count - 1) * step) / 2 - width / 2;
  const row = el("g", { class: `ticks ticks-${kind}` }, g);
  el("rect", { x: start - 1.2, y: y - 1, width: (count - 1) * step + width + 2.4, height: height + 2, rx: 1.5, class: "tick-plate" }, row);
  for (let i = 0; i < count; i += 1) {
    const left = value - i;
    const state = left >= 1 ? "full" : left > 0 ? "half" : "lost";
    el("rect", { x: start + i * step, y, width, height, class: `tick tick-${state}` }, row);
  }
}

/** Every unit on the field: body by class, colour by side, facing notch, health lines and arrows. A unit drawn
 * from the same inputs as last time keeps its node, moved if it stands elsewhere; any other gets a new one in its
 * place. */
export function drawUnits(layer, state, view) {
  const drawn = new Map();
  for (const child of layer.children) if (child.dataset.unit) drawn.set(child.dataset.unit, child);
  const nodes = [];
  for (const unit of state.units) {
    if (unit.x === null || unit.y === null || unit.status !== "field") continue;
    const classes = ["unit", `side-${unit.side}`, `cls-${unit.class}`];
    if (view.selected === unit.id) classes.push("selected");
    if (view.mine.has(unit.id)) classes.push("mine");
    if (view.targets.has(unit.id)) classes.push("target");
    if (view.interceptors.has(unit.id)) classes.push("interceptor");
    if (unit.restricted) classes.push("restricted");
    if (unit.in_contact) classes.push("engaged");
    const title = view.describe(unit);
    // The cell is not part of the key: a move (the commonest event) shifts the token's node instead of building
    // a new one, so the browser restyles one element instead of the token's fifteen, and a focused token keeps
    // its focus.
    const key = JSON.stringify([classes, unit.health, unit.max_health, unit.arrows, unit.max_arrows,
      unit.facing, unit.faction && unit.faction.color, title]);
    const old = drawn.get(unit.id);
    if (old && drawnFrom.get(old) === key) {
      place(old, unit);
      nodes.push(old);
    } else {
      nodes.push(remember(drawUnit(unit, classes, title), key));
    }
  }
  reconcile(layer, nodes);
}

/** Puts a drawn token on its unit's cell (nothing is written when it is there already). */
function place(g, unit) {
  const x = String(unit.x);
  const y = String(unit.y);
  if (g.dataset.x === x && g.dataset.y === y) return;
  const [cx, cy] = centre(unit.x, unit.y);
  g.setAttribute("transform", `translate(${cx} ${cy})`);
  g.dataset.x = x;
  g.dataset.y = y;
}

function drawUnit(unit, classes, title) {
  const [cx, cy] = centre(unit.x, unit.y);
  const g = el("g", {
    class: classes.join(" "), transform: `translate(${cx} ${cy})`, "data-unit": unit.id, "data-x": unit.x, "data-y": unit.y,
    "data-health": unit.health, "data-facing": unit.facing, tabindex: 0, role: "button",
  });
  el("rect", { x: -CELL / 2 + 1, y: -CELL / 2 + 1, width: CELL - 2, height: CELL - 2, class: "hit" }, g);
  const shape = el("g", { class: "shape" }, g);
  shape.style.setProperty("--side", SIDE_COLOUR[unit.side] || "#555");
  shape.style.setProperty("--faction", (unit.faction && unit.faction.color) || SIDE_COLOUR[unit.side]);
  body(shape, unit.class);
  el("path", { d: "M-7.5 -14L0 -19.5L7.5 -14Z", class: "facing", transform: `rotate(${ANGLE[unit.facing] || 0})` }, g);
  // Lines go below the token, or above it when its facing notch points down.
  const top = unit.facing === "S";
  ticks(g, unit.health, unit.max_health, top ? -19 : 14.5, 3.5, "health");
  if (unit.max_arrows) ticks(g, unit.arrows, unit.max_arrows, top ? -14.3 : 18.6, 2, "arrows");
  if (unit.restricted) el("text", { x: 11, y: -10, class: "badge" }, g).textContent = "⊘";
  el("title", {}, g).textContent = title;
  return g;
}
