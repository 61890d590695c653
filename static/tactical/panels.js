// The side panels: the chosen unit's card, every unit's health, the melee forecast and the orders (T2).

import { renderCardFacts, linesText } from "./cards.js";
import { fill } from "./log.js";
import { reconcile, remember, tokenIcon, unchanged } from "./render.js";

function node(tag, attrs = {}, text = null) {
  const n = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") n.className = value;
    else if (key.startsWith("data-")) n.setAttribute(key, value);
    else n.setAttribute(key, value === true ? "" : value);
  }
  if (text !== null) n.textContent = text;
  return n;
}

export function healthText(unit) {
  return `${linesText(unit.health)}/${linesText(unit.max_health)}`;
}

function statusWords(unit, t) {
  const words = [];
  if (unit.status !== "field") words.push(t[`status_${unit.status}`] || unit.status);
  if (unit.in_contact) words.push(t.in_contact);
  if (unit.restricted) words.push(t.restricted);
  if (unit.shot) words.push(t.shot);
  return words;
}

/** The chosen unit: its card (T3), health, arrows, points, facing and state. */
export function renderUnitCard(box, unit, ctx) {
  const t = ctx.t;
  if (unchanged(box, JSON.stringify(unit && [unit, ctx.names.unit(unit.id), ctx.typeName(unit), ctx.card(unit)]))) {
    // As a card drawn anew: the strike a hovered cell showed is gone until the next hover.
    const strikes = box.querySelector("#strike-preview");
    if (strikes && (!strikes.hidden || strikes.firstChild)) {
      strikes.replaceChildren();
      strikes.hidden = true;
    }
    return;
  }
  box.replaceChildren();
  if (!unit) {
    box.appendChild(node("p", { class: "muted" }, t.select_hint));
    return;
  }
  box.appendChild(node("p", { class: `unit-name side-${unit.side}`, "data-unit-card": unit.id }, ctx.names.unit(unit.id)));
  const dl = node("dl", { class: "facts" });
  const row = (label, value, key) => {
    dl.appendChild(node("dt", {}, label));
    dl.appendChild(node("dd", key ? { [`data-${key}`]: "" } : {}, value));
  };
  const type = ctx.typeName(unit);
  const cls = t[`class_${unit.class}`] || unit.class;
  row(t[unit.side], type === cls ? type : `${type} · ${cls}`);
  if (unit.commander) row(t.commander, unit.commander.name);
  row(t.health, healthText(unit), "card-health");
  if (unit.max_arrows) row(t.arrows, `${unit.arrows}/${unit.max_arrows}`, "card-arrows");
  row(t.points, `${unit.points}/${unit.speed}`, "card-points");
  row(t.facing, t[unit.facing] || unit.facing);
  box.appendChild(dl);
  const words = statusWords(unit, t);
  if (words.length) box.appendChild(node("p", { class: "unit-state" }, words.join(" · ")));
  renderCardFacts(box, ctx.card(unit), ctx);
  box.appendChild(node("div", { class: "strike-preview", id: "strike-preview", "aria-live": "polite", hidden: true }));
}

/** Every unit of both sides with its health lines as text; a row chooses the unit. Rows drawn from the same
 * inputs as last time are kept. */
export function renderUnitList(box, state, ctx) {
  const t = ctx.t;
  const sides = ["attacker", "defender"];
  let lists = sides.map((side) => box.querySelector(`.unit-group.side-${side} > .unit-rows`));
  if (lists.some((list) => !list) || box.children.length !== sides.length) {
    box.replaceChildren();
    lists = sides.map((side) => {
      const group = node("div", { class: `unit-group side-${side}` });
      group.appendChild(node("h3", {}, t[side]));
      // Rows are buttons, so their box is a group, not a list (a list may hold list items only).
      const list = node("div", { class: "unit-rows", role: "group", "aria-label": t[side] });
      group.appendChild(list);
      box.appendChild(group);
      return list;
    });
  }
  sides.forEach((side, i) => {
    const drawn = new Map([...lists[i].children].map((row) => [row.dataset.unitRow, row]));
    const rows = state.units.filter((u) => u.side === side).map((unit) => {
      const name = ctx.names.unit(unit.id);
      const words = statusWords(unit, t);
      const key = JSON.stringify([ctx.selected === unit.id, unit.status, unit.class, name, unit.health, unit.max_health, words]);
      const old = drawn.get(unit.id);
      return old && unchanged(old, key) ? old : remember(unitRow(unit, side, name, words, ctx), key);
    });
    reconcile(lists[i], rows);
  });
}

function unitRow(unit, side, name, words, ctx) {
  const t = ctx.t;
  const li = node("div", {
    class: `unit-row${ctx.selected === unit.id ? " selected" : ""}${unit.status !== "field" ? " off" : ""}`,
    "data-unit-row": unit.id, tabindex: "0", role: "button",
  });
  const swatch = node("span", { class: "row-token", title: t[`class_${unit.class}`] || unit.class });
  swatch.appendChild(tokenIcon(unit.class, side));
  li.appendChild(swatch);
  li.appendChild(node("span", { class: "row-name" }, name));
  li.appendChild(node("span", { class: "row-health", "data-health": String(unit.health) }, healthText(unit)));
  if (words.length) li.appendChild(node("span", { class: "row-state" }, words.join(" · ")));
  return li;
}

/** What each unit in melee would deal and take if the turn ended now (the server's forecast). */
export function renderMelee(box, forecast, ctx) {
  const t = ctx.t;
  const entries = forecast ? Object.entries(forecast.units || {}) : [];
  const names = entries.map(([id, p]) => [ctx.names.unit(id), p.target ? ctx.names.unit(p.target) : null]);
  if (unchanged(box, JSON.stringify([entries, names]))) return;
  box.replaceChildren();
  if (!entries.length) {
    box.appendChild(node("p", { class: "muted" }, t.preview_none));
    return;
  }
  const table = node("table", { class: "melee" });
  const head = node("tr");
  for (const label of [t.preview_unit, t.preview_deals, t.preview_takes, t.preview_left]) head.appendChild(node("th", {}, label));
  table.appendChild(node("thead")).appendChild(head);
  const body = node("tbody");
  for (const [id, p] of entries) {
    const tr = node("tr", { "data-melee": id, class: p.routed ? "routed" : "" });
    tr.appendChild(node("td", {}, ctx.names.unit(id)));
    const dealt = p.target ? `${linesText(p.deals)} → ${ctx.names.unit(p.target)}` : linesText(p.deals);
    tr.appendChild(node("td", { "data-deals": String(p.deals) }, dealt));
    tr.appendChild(node("td", { "data-takes": String(p.takes) }, linesText(p.takes)));
    const left = p.needs_die ? t.preview_die : p.routed ? t.preview_routed : linesText(p.health);
    tr.appendChild(node("td", { "data-left": String(p.health) }, left));
    body.appendChild(tr);
  }
  table.appendChild(body);
  box.appendChild(table);
}

/** The orders the viewer may read (T2), newest last. */
export function renderOrders(list, orders, ctx) {
  list.replaceChildren();
  if (!orders.length) {
    list.appendChild(node("li", { class: "muted" }, ctx.t.orders_none));
    return;
  }
  for (const order of orders) {
    list.appendChild(node("li", { "data-order": String(order.id) },
      fill(ctx.t.orders_line, { from: order.from.name, to: order.to.name, text: order.text })));
  }
}

/** Commanders of the viewer's side(s) other than his own: whom he could order (T2). */
export function orderRecipients(state, viewer) {
  const mine = new Set(viewer.commanders || []);
  const sides = new Set(viewer.sides || []);
  const seen = new Map();
  for (const unit of state.units) {
    if (!unit.commander || !sides.has(unit.side) || mine.has(unit.commander.id)) continue;
    seen.set(unit.commander.id, unit.commander.name);
  }
  return [...seen.entries()];
}
