// The live tactical board (issue 4): state from the battle socket, drawn in SVG; clicks become actions.
// Protocol: docs/tactical-protocol.md. Strings come translated from the page (#board-strings).

import { BattleSocket } from "./socket.js";
import { CELL, drawContacts, drawGround, drawMarks, drawPath, drawUnits, unchanged } from "./render.js";
import { BattleLog, fill } from "./log.js";
import { renderStrikes } from "./cards.js";
import { orderRecipients, renderMelee, renderOrders, renderUnitCard, renderUnitList } from "./panels.js";
import { linkRules } from "./rules-panel.js";
import { attention } from "./attention.js";

const config = JSON.parse(document.getElementById("board-config").textContent);
const t = JSON.parse(document.getElementById("board-strings").textContent);
const $ = (id) => document.getElementById(id);
// Writes that leave an unchanged page alone: rewriting a text or an attribute to the value it has still makes the
// browser recompute style (and the rule links re-scan the text).
const setText = (node, text) => { if (node.textContent !== text) node.textContent = text; };
const setHidden = (node, yes) => { if (node.hidden !== Boolean(yes)) node.hidden = Boolean(yes); };
const setDisabled = (node, yes) => { if (node.disabled !== Boolean(yes)) node.disabled = Boolean(yes); };
const setData = (node, key, value) => { if (node.dataset[key] !== value) node.dataset[key] = value; };
const setTitle = (node, text) => { if (node.title !== text) node.title = text; };
// The clock's bar is scaled, not resized: a transform costs no layout (board.css).
const setFill = (node, fraction) => {
  const transform = `scaleX(${Math.round(Math.max(0, Math.min(1, fraction)) * 1000) / 1000})`;
  if (node.style.transform !== transform) node.style.transform = transform;
};
const FACINGS = ["N", "E", "S", "W"];
const KEYS = { ArrowUp: "N", ArrowRight: "E", ArrowDown: "S", ArrowLeft: "W" };
const svg = $("board");
const layers = { ground: $("layer-ground"), marks: $("layer-marks"), contacts: $("layer-contacts"), path: $("layer-path"), units: $("layer-units") };

const app = {
  state: null, viewer: config.viewer, version: 0, offset: 0, offsetFromPing: false,
  units: new Map(), selected: null, options: new Map(), mode: null, deployFacing: null,
  groundKey: "", forecast: null, sentAt: -1, orders: [], ordersLoaded: false, conceding: 0, syncing: 0,
};

const names = {
  unit: (id) => (app.units.get(id) ? app.units.get(id).name : id),
  side: (side) => t[`side_${side}`] || side,
  facing: (f) => t[f] || f,
  commander: (id) => {
    for (const u of app.units.values()) if (u.commander && u.commander.id === id) return u.commander.name;
    return `#${id}`;
  },
};
const ctx = {
  t, names, get selected() { return app.selected; },
  typeName: (unit) => t[`type_${unit.type}`] || (app.state.unit_types[unit.type] || {}).name || unit.type,
  card: (unit) => (app.state.unit_types || {})[unit.type] || null,
};
const log = new BattleLog($("board-log"), t, names);
log.onGap = (since) => requestSync(since);

const socket = new BattleSocket(config.socket, { onMessage, onStatus, onOffset: (ms) => { app.offset = ms; app.offsetFromPing = true; } });

// -- who is who -----------------------------------------------------------------------------------

const mine = () => new Set(app.viewer.units || []);
const mySides = () => app.viewer.sides || [];
const actsNow = () => app.state && mySides().includes(app.state.side);
const preparing = () => app.state && app.state.status === "setup"; // the moderator prepares the field (setup.js)
const selectedUnit = () => (app.selected ? app.units.get(app.selected) : null);
const optionsOf = (id) => {
  const o = app.options.get(id);
  return o && o.version === app.version ? o : null;
};

// -- messages from the server ---------------------------------------------------------------------

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      app.syncing = 0; // a sync asked on the previous connection will not be answered
      app.viewer = msg.viewer || app.viewer;
      // What the battle was when the player came to the board is its history: the keyboard does not read it out.
      if (!("historyUntil" in log.list.dataset)) log.list.dataset.historyUntil = String(msg.version);
      if (msg.version >= app.version) applyState(msg.state);
      if (log.version < msg.version) requestSync(log.version);
      if (!app.ordersLoaded) loadOrders();
      break;
    case "event":
      log.ingest(msg);
      if (msg.state && msg.version > app.version) applyState(msg.state);
      break;
    case "events":
      app.syncing = 0;
      for (const item of msg.items || []) {
        log.ingest(item);
        if (item.state && item.version > app.version) applyState(item.state);
      }
      break;
    case "state":
      app.syncing = 0;
      if (msg.version > app.version) applyState(msg.state);
      fillLogOverHttp(msg.version);
      break;
    case "options":
      app.options.set(msg.unit, msg);
      if (msg.version === app.version) render();
      break;
    case "order":
      app.orders.push(msg.order);
      renderOrders($("orders-list"), app.orders, ctx);
      break;
    case "error":
      showError(msg);
      break;
    case "ack":
      hideMessage("info");
      break;
    default:
  }
}

function onStatus(kind, detail) {
  const conn = $("status-conn");
  conn.dataset.state = kind;
  const words = { connecting: t.connecting, live: t.connected, reconnecting: fill(t.reconnecting, { seconds: detail }),
    forbidden: t.closed_forbidden, missing: t.closed_missing, closed: t.connecting };
  conn.textContent = words[kind] || kind;
  if (kind === "forbidden" || kind === "missing") showMessage(words[kind], "error");
}

function requestSync(since) {
  if (Date.now() - app.syncing < 2000) return;
  app.syncing = Date.now();
  socket.query("sync", { since });
}

async function fillLogOverHttp(version) {
  try {
    const answer = await fetch(`${config.api}events/?since=${log.version}`, { credentials: "same-origin" });
    if (!answer.ok) throw new Error(String(answer.status));
    const body = await answer.json();
    for (const item of body.items || []) log.ingest(item);
  } catch {
    log.skipTo(version);
  }
}

async function loadOrders() {
  if (!app.viewer.user || !((app.viewer.commanders || []).length || app.viewer.is_moderator)) return;
  app.ordersLoaded = true;
  try {
    const answer = await fetch(`${config.api}orders/`, { credentials: "same-origin" });
    if (answer.ok) app.orders = await answer.json();
  } catch {
    app.ordersLoaded = false;
  }
  renderOrders($("orders-list"), app.orders, ctx);
}

// -- the state ------------------------------------------------------------------------------------

function applyState(state) {
  if (!state) return;
  attention(state, mySides(), t); // a hidden tab calls its player when his side's turn begins
  app.state = state;
  app.version = state.version;
  app.units = new Map(state.units.map((u) => [u.id, u]));
  if (!app.offsetFromPing && state.server_time) app.offset = Date.parse(state.server_time) - Date.now();
  const key = JSON.stringify([state.terrain, state.cells, state.deployment_rows]);
  if (key !== app.groundKey) {
    drawGround(layers.ground, state, (feature) => t[`feature_${feature}`] || feature);
    app.groundKey = key;
  }
  const sel = selectedUnit();
  if (sel && !(sel.status === "field" || (state.phase === "deployment" && sel.status === "undeployed"))) app.selected = null;
  if (state.phase !== "move") app.mode = null;
  if (!app.selected && state.phase === "deployment" && !preparing()) {
    const next = state.units.find((u) => mine().has(u.id) && u.status === "undeployed" && !state.ready.includes(u.side));
    if (next) app.selected = next.id;
  }
  askOptions();
  loadForecast();
  render();
}

/** Options of the chosen unit, and during my interception window of every unit of mine (T10). */
function askOptions() {
  const wanted = new Set();
  if (app.selected) wanted.add(app.selected);
  if (app.state.phase === "interception" && actsNow()) {
    for (const u of app.state.units) if (mine().has(u.id) && u.status === "field") wanted.add(u.id);
  }
  for (const id of wanted) if (!optionsOf(id)) socket.query("options", { unit: id });
}

let forecastTimer = null;
function loadForecast() {
  if (forecastTimer !== null) clearTimeout(forecastTimer);
  forecastTimer = null;
  const state = app.state;
  if (!state.contacts.length || !["move", "interception"].includes(state.phase)) {
    app.forecast = null;
    renderMelee($("melee-body"), null, ctx);
    return;
  }
  forecastTimer = setTimeout(async () => {
    forecastTimer = null;
    try {
      const answer = await fetch(config.melee, { credentials: "same-origin" });
      const body = await answer.json();
      if (body.version === app.version) {
        app.forecast = body;
        renderMelee($("melee-body"), body, ctx);
      }
    } catch {
      /* the forecast is a help; the board works without it */
    }
  }, 120);
}

// -- drawing --------------------------------------------------------------------------------------

function interceptors() {
  const set = new Set();
  if (!app.state || app.state.phase !== "interception" || !actsNow()) return set;
  for (const id of mine()) {
    const o = optionsOf(id);
    if (o && o.interceptions.length) set.add(id);
  }
  return set;
}

function marksFor(unit, o) {
  if (!unit || !o) return [];
  const marks = [];
  if (app.state.phase === "deployment") return o.deploy.map(([x, y]) => ({ x, y, kind: "deploy" }));
  if (app.mode === "withdraw") return o.withdraw.map((w) => ({ x: w.x, y: w.y, kind: "withdraw" }));
  for (const [x, y] of o.range) marks.push({ x, y, kind: "range" });
  for (const r of o.reachable) marks.push({ x: r.x, y: r.y, kind: r.contact ? "reach-contact" : "reach", title: `${r.cost}` });
  for (const i of o.interceptions) {
    if (i.path && i.path.length) {
      const [x, y] = i.path[i.path.length - 1];
      marks.push({ x, y, kind: "intercept" });
    }
  }
  return marks;
}

function describe(unit) {
  return `${unit.name} — ${t[`class_${unit.class}`] || unit.class} — ${t.health} ${unit.health}/${unit.max_health}`;
}

/** The strike the hovered (or keyboard-chosen) cell's move would make, before the player commits. */
function showStrikes(hit) {
  const box = $("strike-preview");
  if (box) renderStrikes(box, hit && hit.strikes ? hit.strikes : [], ctx);
}

function render() {
  const state = app.state;
  if (!state) return;
  const unit = selectedUnit();
  const o = unit ? optionsOf(unit.id) : null;
  const mineNow = mine();
  const canUse = unit && mineNow.has(unit.id);
  const waiting = app.sentAt === app.version;
  drawMarks(layers.marks, !waiting && !preparing() && (canUse || (o && o.range.length)) ? marksFor(unit, o) : []);
  drawPath(layers.path, null, null);
  drawContacts(layers.contacts, state, app.units);
  const targets = new Set();
  if (canUse && o) {
    for (const id of o.targets) targets.add(id);
    for (const i of o.interceptions) targets.add(i.target);
  }
  drawUnits(layers.units, state, { selected: app.selected, mine: mineNow, targets, interceptors: interceptors(), describe });
  renderUnitCard($("unit-card-body"), unit, ctx);
  renderTurnButtons(unit, o);
  renderUnitList($("units-list"), state, ctx);
  renderStatus();
  renderActions(unit, o);
  renderOrderForm();
}

function renderStatus() {
  const s = app.state;
  setText($("status-phase"), preparing() ? t.phase_setup : t[`phase_${s.phase}`] || s.phase);
  setHidden($("board-finished"), s.phase !== "ended");
  if (s.phase === "ended" && s.winner && !$("finished-winner").textContent) $("finished-winner").textContent = fill(t.winner, { side: t[s.winner] });
  let turn = "";
  if (s.phase === "ended") turn = s.winner ? fill(t.winner, { side: t[s.winner] }) : "";
  else if (s.phase === "interception") turn = fill(t[`window_${s.side}`], { round: s.round }); // T14.2
  else if (s.phase !== "deployment") turn = `${fill(t.round, { round: s.round })} · ${fill(t.to_act, { side: t[s.side] })}`;
  setText($("status-turn"), turn);
  setData($("status-turn"), "side", s.phase === "deployment" ? "" : s.side);
  const v = app.viewer;
  renderHalt();
  setText($("board-role"), v.is_moderator ? t.moderator
    : mySides().length ? fill(t.your_side, { side: names.side(mySides()[0]) }) : t.spectator);
  tick();
}

// The moderator's hold (M1, T7.6): a paused clock or a die awaited; players' actions wait for it.
function renderHalt() {
  const s = app.state;
  const box = $("board-halt");
  const sentence = s.awaiting_die ? t.halt_awaiting
    : s.paused ? fill(t.halt_paused, { seconds: Math.ceil(s.seconds_left || 0) }) : "";
  setHidden(box, !sentence);
  setText(box, sentence);
  setData(box, "state", s.awaiting_die ? "awaiting_die" : s.paused ? "paused" : "");
}

function clockText(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function tick() {
  const s = app.state;
  const text = $("clock-text");
  const fillBar = $("clock-fill");
  const clock = $("status-clock");
  if (s && (s.paused || s.awaiting_die)) {
    const seconds = Math.ceil(s.seconds_left || 0);
    setText(text, clockText(seconds));
    setFill(fillBar, seconds / s.turn_seconds);
    setData(clock, "state", "paused");
    setTitle(clock, s.awaiting_die ? t.halt_awaiting : t.clock_paused);
    return;
  }
  if (!s || !s.deadline) {
    setText(text, "–");
    setFill(fillBar, 0);
    setData(clock, "state", "off");
    setTitle(clock, t.no_clock);
    return;
  }
  const left = Date.parse(s.deadline) - (Date.now() + app.offset);
  const seconds = Math.max(0, Math.ceil(left / 1000));
  setText(text, clockText(seconds));
  setFill(fillBar, left / (s.turn_seconds * 1000));
  const urgent = Math.max(3, Math.min(10, s.turn_seconds / 4));
  setData(clock, "state", left <= 0 ? "expired" : seconds <= urgent ? "urgent" : "running");
  setTitle(clock, left <= 0 ? t.time_up : t.time_left);
}
// The log keeps the height it reaches when full (board.css), so its new lines are laid out inside it. Looked at
// between events, where the page's layout is clean and reading a size costs nothing, never in a handler, where it
// would force the layout of everything the handler wrote.
const logList = $("board-log");
function markFullLog() {
  if (!logList.classList.contains("full") && logList.scrollHeight > logList.clientHeight) logList.classList.add("full");
}
setInterval(() => {
  tick();
  markFullLog();
}, 200);

function renderTurnButtons(unit, o) {
  const box = $("turn-buttons");
  const s = app.state;
  const usable = unit && mine().has(unit.id) && o && ((s.phase === "deployment" && !s.ready.includes(unit.side)) || (s.phase === "move" && actsNow() && unit.may_move));
  const current = usable && (s.phase === "deployment" && unit.status === "undeployed" ? deployFacing(unit) : unit.facing);
  if (unchanged(box, JSON.stringify(usable ? [s.phase, current, unit.points, o.turn_costs] : null))) return;
  box.replaceChildren();
  box.hidden = !usable;
  if (!usable) return;
  for (const f of FACINGS) {
    const cost = s.phase === "deployment" ? 0 : o.turn_costs[f];
    const b = document.createElement("button");
    b.type = "button";
    b.className = "bbtn turn";
    b.dataset.facing = f;
    b.textContent = s.phase === "deployment" ? t[f] : fill(t.turn_to, { direction: t[f], cost });
    b.setAttribute("aria-pressed", String(f === current));
    b.disabled = f === current || cost > unit.points;
    b.addEventListener("click", () => turnTo(f));
    box.appendChild(b);
  }
  const hint = document.createElement("p");
  hint.className = "muted small";
  hint.textContent = t.turn_keys;
  box.appendChild(hint);
}

function renderActions(unit, o) {
  const s = app.state;
  const v = app.viewer;
  const live = s.phase !== "ended";
  const show = (id, yes) => setHidden($(id), !yes);
  const side = mySides().length === 1 ? mySides()[0] : null;
  show("btn-ready", live && s.phase === "deployment" && side && !s.ready.includes(side));
  show("btn-start", live && s.phase === "deployment" && v.is_moderator && !preparing());
  show("btn-end-interceptions", s.phase === "interception" && actsNow());
  const endTurn = $("btn-end-turn");
  show("btn-end-turn", s.phase === "move" && actsNow());
  const myCommanders = v.commanders || [];
  const others = s.units.some((u) => u.side === s.side && u.status === "field" && u.commander && !myCommanders.includes(u.commander.id));
  const saidDone = myCommanders.length && myCommanders.every((c) => s.done.includes(c));
  setText(endTurn, saidDone ? t.waiting_done : others && !v.is_moderator ? t.done : t.end_turn);
  const halted = Boolean(s.paused || s.awaiting_die); // the moderator holds the battle (#board-halt says why)
  setDisabled(endTurn, Boolean(saidDone) || halted);
  setDisabled($("btn-end-interceptions"), halted);
  const canWithdraw = unit && mine().has(unit.id) && o && o.withdraw.length && s.phase === "move" && actsNow();
  show("btn-withdraw", canWithdraw);
  setText($("btn-withdraw"), app.mode === "withdraw" ? t.cancel : t.withdraw);
  show("btn-concede", live && (v.chief_of || []).length > 0);
  // Armed by a first click, the confirmation stays until a second click or a cancel: it never expires unseen.
  setText($("btn-concede"), app.conceding ? t.concede_confirm : t.concede);
  show("btn-concede-cancel", live && (v.chief_of || []).length > 0 && Boolean(app.conceding));
  let hint = "";
  if (preparing()) hint = "";
  else if (s.phase === "deployment" && side && !s.ready.includes(side)) hint = t.deploy_hint;
  else if (s.phase === "deployment" && side) hint = t.ready_wait;
  else if (s.phase === "interception" && actsNow()) hint = t.intercept_hint;
  else if (s.phase === "move" && actsNow()) hint = app.mode === "withdraw" ? t.withdraw_hint : t.move_hint;
  setText($("action-hint"), hint);
  setHidden($("actions"), !hint && [...$("actions").querySelectorAll("button")].every((b) => b.hidden));
}

function renderOrderForm() {
  const panel = $("orders-panel");
  const v = app.viewer;
  setHidden(panel, !((v.commanders || []).length || v.is_moderator));
  const recipients = orderRecipients(app.state, v);
  const form = $("order-form");
  setHidden(form, !recipients.length);
  const select = $("order-to");
  const want = recipients.map(([id]) => String(id)).join(",");
  if (select.dataset.ids !== want) {
    select.replaceChildren(...recipients.map(([id, name]) => new Option(name, String(id))));
    select.dataset.ids = want;
  }
}

// -- actions --------------------------------------------------------------------------------------

function act(action) {
  app.sentAt = app.version; // marks stay hidden until the board moves on, so a second click cannot repeat it
  socket.action(action);
  showMessage(t.sent, "info");
  render();
}

function defaultFacing(side) {
  return side === "attacker" ? "N" : "S";
}

function deployFacing(unit) {
  return app.deployFacing && app.deployFacing.unit === unit.id ? app.deployFacing.facing : defaultFacing(unit.side);
}

function turnTo(facing) {
  const unit = selectedUnit();
  if (!unit || !mine().has(unit.id)) return;
  if (app.state.phase === "deployment") {
    if (unit.status === "undeployed") {
      app.deployFacing = { unit: unit.id, facing };
      render();
    } else {
      act({ do: "deploy", unit: unit.id, x: unit.x, y: unit.y, facing });
    }
    return;
  }
  act({ do: "turn", unit: unit.id, facing });
}

function select(id, toggle = true) {
  app.selected = toggle && app.selected === id ? null : id;
  app.mode = null;
  const unit = selectedUnit();
  if (unit && (mine().has(unit.id) || unit.max_arrows) && !optionsOf(unit.id)) socket.query("options", { unit: unit.id });
  render();
}

function clickUnit(id, toggle = true) {
  const unit = selectedUnit();
  const o = unit ? optionsOf(unit.id) : null;
  if (unit && o && mine().has(unit.id) && id !== unit.id) {
    const choices = o.interceptions.filter((i) => i.target === id);
    if (choices.length) {
      const choice = choices[0];
      act(choice.volley ? { do: "intercept", unit: unit.id, target: id } : { do: "intercept", unit: unit.id, target: id, path: choice.path });
      return;
    }
    if (o.targets.includes(id)) {
      act({ do: "shoot", unit: unit.id, target: id });
      return;
    }
  }
  select(id, toggle);
}

function clickCell(x, y, kind) {
  const unit = selectedUnit();
  const o = unit ? optionsOf(unit.id) : null;
  if (!unit || !o) return;
  const at = (list) => list.find((c) => c.x === x && c.y === y);
  if (kind === "deploy") {
    act({ do: "deploy", unit: unit.id, x, y, facing: unit.status === "undeployed" ? deployFacing(unit) : unit.facing });
    if (unit.status === "undeployed") app.selected = null; // the next undeployed unit is chosen by applyState
  } else if (kind === "reach" || kind === "reach-contact") {
    const r = at(o.reachable);
    if (r) act({ do: "move", unit: unit.id, path: r.path });
  } else if (kind === "withdraw") {
    const w = at(o.withdraw);
    if (w) act({ do: "withdraw", unit: unit.id, path: w.path });
    app.mode = null;
  } else if (kind === "intercept") {
    const i = o.interceptions.find((c) => c.path && c.path.length && c.path[c.path.length - 1][0] === x && c.path[c.path.length - 1][1] === y);
    if (i) act({ do: "intercept", unit: unit.id, target: i.target, path: i.path });
  }
}

svg.addEventListener("click", (e) => {
  if (!app.state) return;
  const unitEl = e.target.closest("[data-unit]");
  if (unitEl) return clickUnit(unitEl.dataset.unit);
  const cellEl = e.target.closest("[data-cell]");
  if (cellEl) {
    const [x, y] = cellEl.dataset.cell.split(",").map(Number);
    return clickCell(x, y, cellEl.dataset.kind);
  }
  return undefined;
});

// Hovering a reachable cell shows the path the move would take (touch: the tap itself moves).
svg.addEventListener("pointerover", (e) => {
  const cellEl = e.target.closest("[data-cell]");
  const unit = selectedUnit();
  const o = unit ? optionsOf(unit.id) : null;
  if (!cellEl || !o) return drawPath(layers.path, null, null);
  const [x, y] = cellEl.dataset.cell.split(",").map(Number);
  const list = app.mode === "withdraw" ? o.withdraw : [...o.reachable, ...o.interceptions.filter((i) => i.path).map((i) => ({ x: i.path.at(-1)[0], y: i.path.at(-1)[1], path: i.path }))];
  const hit = list.find((c) => c.x === x && c.y === y);
  drawPath(layers.path, unit, hit ? hit.path : null);
  showStrikes(hit);
  return undefined;
});

$("units-list").addEventListener("click", (e) => {
  const row = e.target.closest("[data-unit-row]");
  if (row) clickUnit(row.dataset.unitRow, false);
});

document.addEventListener("keydown", (e) => {
  if (e.target.closest && e.target.closest("input, textarea, select")) return;
  if (KEYS[e.key] && selectedUnit()) {
    e.preventDefault();
    turnTo(KEYS[e.key]);
  } else if (e.key === "Escape") {
    app.selected = null;
    app.mode = null;
    app.conceding = 0;
    render();
  } else if ((e.key === "Enter" || e.key === " ") && e.target.dataset && (e.target.dataset.unit || e.target.dataset.unitRow)) {
    e.preventDefault();
    clickUnit(e.target.dataset.unit || e.target.dataset.unitRow);
  }
});

$("btn-ready").addEventListener("click", () => act({ do: "ready", side: mySides()[0] }));
$("btn-end-turn").addEventListener("click", () => act({ do: "end_turn", side: app.state.side }));
$("btn-end-interceptions").addEventListener("click", () => act({ do: "end_interceptions", side: app.state.side }));
$("btn-withdraw").addEventListener("click", () => {
  app.mode = app.mode === "withdraw" ? null : "withdraw";
  render();
});
$("btn-concede").addEventListener("click", () => {
  if (app.conceding) {
    app.conceding = 0;
    act({ do: "concede", side: app.viewer.chief_of[0] });
  } else {
    app.conceding = 1;
  }
  render();
});
$("btn-concede-cancel").addEventListener("click", () => {
  app.conceding = 0;
  render();
});
$("btn-start").addEventListener("click", async () => {
  const answer = await fetch(`${config.api}start/`, { method: "POST", credentials: "same-origin", headers: { "X-CSRFToken": config.csrf } });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) return showError({ status: answer.status, ...body });
  if (body.state && body.state.version > app.version) applyState(body.state);
  return undefined;
});
$("btn-zoom").addEventListener("click", () => {
  const zoomed = $("board-scroll").classList.toggle("zoomed");
  $("btn-zoom").setAttribute("aria-pressed", String(zoomed));
  $("btn-zoom").textContent = zoomed ? t.zoom_out : t.zoom_in;
});
$("order-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("order-text").value.trim();
  if (!text) return;
  socket.query("order", { to: Number($("order-to").value), text });
  $("order-text").value = "";
});

// -- messages in the page -------------------------------------------------------------------------

let messageTimer = null;
function showMessage(text, kind) {
  const box = $("board-message");
  box.textContent = text;
  linkRules(box); // its rule id opens the rule beside the board
  box.dataset.kind = kind;
  box.hidden = false;
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => { box.hidden = true; }, kind === "error" ? 12000 : 4000);
}

function hideMessage(kind) {
  const box = $("board-message");
  if (box.dataset.kind === kind) box.hidden = true;
}

function showError(msg) {
  if (app.sentAt === app.version) {
    app.sentAt = -1;
    render();
  }
  if (msg.code === "stale" && msg.state) {
    if (msg.state.version > app.version) applyState(msg.state);
    return showMessage(t.error_stale, "error");
  }
  const title = msg.rule ? t[`rule_${msg.rule}`] || t[`rule_${msg.rule.split(".")[0]}`] : "";
  const rule = msg.rule ? `${fill(t.rule, { rule: msg.rule })}${title ? ` (${title})` : ""}: ` : "";
  // A field's message that only repeats the detail is left out; its name still says where the fault is.
  const field = ([name, said]) => {
    const more = [].concat(said).filter((text) => text !== msg.detail);
    return more.length ? `${name}: ${more.join(" ")}` : name;
  };
  const fields = msg.errors ? ` (${Object.entries(msg.errors).map(field).join("; ")})` : "";
  showMessage(`${t.refused} — ${rule}${msg.detail || ""}${fields}`, "error");
  return undefined;
}

$("unit-hint").textContent = t.select_hint;
svg.style.setProperty("--cell", `${CELL}px`);
socket.connect();
