// The chosen unit's card on this battlefield (T3, T4, T5) and the strike a move would make (T7.2–T7.4).
// Every number comes from the server (the board state's unit_types, the options' strikes): nothing of the
// rules is worked out here.

import { fill } from "./log.js";

const CLASSES = ["LI1", "LI2", "HI", "LC", "HC"];

function el(tag, attrs = {}, text = null) {
  const n = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) n.setAttribute(key, value);
  if (text !== null) n.textContent = text;
  return n;
}

/** Lines as a player reads them everywhere: 3.5 → "3½", 0.5 → "½", a routed unit 0 (T3.1). */
export function linesText(value) {
  if (value === null || value === undefined) return "–";
  if (value <= 0) return "0";
  const whole = Math.floor(value);
  return (whole ? String(whole) : "") + (value - whole >= 0.5 ? "½" : "");
}

/** The card's damage against each class, its volley, speed and charge on this terrain. */
export function renderCardFacts(box, card, ctx) {
  const t = ctx.t;
  if (!card) return;
  const facts = el("dl", { class: "facts card-here" });
  const row = (label, value, key) => {
    facts.appendChild(el("dt", {}, label));
    facts.appendChild(el("dd", { [`data-${key}`]: "" }, value));
  };
  row(t.card_speed_here, String(card.speed), "card-speed");
  if (card.mounted) row(t.card_charge, card.charge ? t.card_charge_yes : t.card_charge_no, "card-charge");
  box.appendChild(facts);
  const table = el("table", { class: "card-table" });
  const head = el("tr");
  head.appendChild(el("th", { scope: "col" }, t.card_damage));
  for (const cls of CLASSES) head.appendChild(el("th", { scope: "col", title: t[`class_${cls}`] || cls }, cls));
  const thead = el("thead");
  thead.appendChild(head);
  table.appendChild(thead);
  const body = el("tbody");
  const line = (label, values, key) => {
    const tr = el("tr");
    tr.appendChild(el("th", { scope: "row" }, label));
    for (const cls of CLASSES) tr.appendChild(el("td", { [`data-${key}`]: cls }, linesText((values || {})[cls] || 0)));
    body.appendChild(tr);
  };
  line(t.card_melee, card.damage, "damage");
  if (card.missile) line(t.card_volley, card.missile_damage, "volley");
  table.appendChild(body);
  box.appendChild(table);
}

/** What moving to a cell would strike: the damage against each enemy touched, with flank and charge. */
export function renderStrikes(box, strikes, ctx) {
  box.replaceChildren();
  box.hidden = !strikes || !strikes.length;
  if (box.hidden) return;
  const t = ctx.t;
  for (const s of strikes) {
    const bonus = [s.flank ? t.strike_flank : null, s.charge ? t.strike_charge : null].filter(Boolean);
    const text = `${fill(t.strike_preview, { damage: linesText(s.damage), target: ctx.names.unit(s.target) })} · ${bonus.length ? bonus.join(", ") : t.strike_plain}`;
    box.appendChild(el("p", { "data-strike": s.target }, text));
  }
}

