// The battle log: every version of the battle as sentences, in order, whatever order they arrive in.

export function fill(template, values) {
  return String(template).replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
}

export function num(value) {
  if (value === null || value === undefined) return "–";
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 10) / 10);
}

const shown = (value) => (typeof value === "number" ? num(value) : String(value));

// toLocaleTimeString builds a new formatter on every call; one formatter per language gives the same text.
const clocks = new Map();
function timeText(when) {
  const lang = document.documentElement.lang || undefined;
  if (!clocks.has(lang)) clocks.set(lang, new Intl.DateTimeFormat(lang, { hour: "numeric", minute: "numeric", second: "numeric" }));
  return clocks.get(lang).format(when);
}

// The log's lines are kept in lists of this many, newest first: a line put above the others then moves the lines of
// one list, not every line of the battle so far (and the browser skips laying out the lists scrolled out of view).
const LINES_PER_LIST = 50;

export class BattleLog {
  constructor(list, t, names) {
    this.list = list; // the scrolled box of the lists of lines
    this.t = t; // strings
    this.names = names; // {unit(id), side(side), facing(f), commander(id)}
    this.version = 0;
    this.waiting = new Map();
    this.onGap = null;
  }

  /** Take one event message; render it and every waiting one that now follows without a gap. */
  ingest(item) {
    if (!item || typeof item.version !== "number" || item.version <= this.version) return;
    this.waiting.set(item.version, item);
    while (this.waiting.has(this.version + 1)) {
      const next = this.waiting.get(this.version + 1);
      this.waiting.delete(this.version + 1);
      this.version = next.version;
      this.render(next);
    }
    if (this.waiting.size && this.onGap) this.onGap(this.version);
  }

  /** Start after ``version`` (the server sent a whole state instead of the missing events). */
  skipTo(version) {
    if (version <= this.version) return;
    const li = document.createElement("li");
    li.className = "log-note";
    li.textContent = fill(this.t.log_skipped, { version });
    this.put(li);
    this.version = version;
    for (const key of [...this.waiting.keys()]) if (key <= version) this.waiting.delete(key);
    this.ingest(this.waiting.get(version + 1));
  }

  render(item) {
    const lines = this.sentences(item).filter(Boolean);
    if (!lines.length) return;
    const li = document.createElement("li");
    li.className = `log-item kind-${item.kind}`;
    li.dataset.version = item.version;
    const head = document.createElement("span");
    head.className = "log-head";
    const when = item.created_at ? new Date(item.created_at) : null;
    const time = when && !Number.isNaN(when.getTime()) ? timeText(when) : "";
    head.textContent = `#${item.version} ${time}`;
    li.appendChild(head);
    for (const line of lines) {
      const p = document.createElement("span");
      p.className = "log-line";
      p.textContent = line;
      li.appendChild(p);
    }
    this.put(li);
  }

  /** Puts ``li`` above every other line: into the newest list while it has room, else into a new one. */
  put(li) {
    const newest = this.list.firstElementChild;
    if (newest && newest.childElementCount < LINES_PER_LIST) {
      newest.prepend(li);
      return;
    }
    const ol = document.createElement("ol");
    ol.className = "log-lines";
    ol.appendChild(li);
    this.list.prepend(ol);
  }

  sentences(item) {
    const out = [];
    for (const ev of item.events || []) out.push(this.sentence(ev));
    if (!out.length && item.kind === "setup") out.push(this.t.ev_battle_created);
    return out;
  }

  sentence(ev) {
    const t = this.t;
    const n = this.names;
    const cell = (x, y) => `(${x}, ${y})`;
    const last = (path) => (path && path.length ? cell(...path[path.length - 1]) : "");
    switch (ev.type) {
      case "battle_created": return t.ev_battle_created;
      case "map_changed": return t.ev_map_changed;
      case "deployment_opened": return t.ev_deployment_opened;
      case "deployed": return fill(t.ev_deployed, { unit: n.unit(ev.unit), cell: cell(ev.x, ev.y), facing: n.facing(ev.facing) });
      case "side_ready": return fill(t.ev_side_ready, { side: n.side(ev.side) });
      case "commander_ready": return fill(t.ev_commander_ready, { commander: n.commander(ev.commander) });
      case "commander_done": return fill(t.ev_commander_done, { commander: n.commander(ev.commander) });
      case "moved": return fill(t.ev_moved, { unit: n.unit(ev.unit), cell: last(ev.path), cost: ev.cost, left: ev.points_left });
      case "turned": return fill(t.ev_turned, { unit: n.unit(ev.unit), facing: n.facing(ev.facing), cost: ev.cost });
      case "shot": return fill(t.ev_shot, { unit: n.unit(ev.unit), target: n.unit(ev.target), damage: num(ev.damage), health: num(ev.health) });
      case "contact_made":
        return fill(ev.charge ? t.ev_contact_charge : t.ev_contact_made, { unit: n.unit(ev.unit), enemy: n.unit(ev.enemy) });
      case "left_melee": return fill(t.ev_left_melee, { unit: n.unit(ev.unit), damage: num(ev.damage), health: num(ev.health) });
      case "melee_resolved": {
        const strikes = (ev.strikes || []).map((s) => {
          const extras = [s.flank ? t.ev_flank : "", s.charge ? t.ev_charge : ""].filter(Boolean);
          const base = fill(t.ev_strike, { unit: n.unit(s.unit), target: n.unit(s.target), damage: num(s.damage) });
          return extras.length ? `${base} (${extras.join(", ")})` : base;
        });
        const results = (ev.results || []).map((r) => fill(t.ev_result, { unit: n.unit(r.unit), health: num(Math.max(r.health, 0)) }));
        return `${t.ev_melee_resolved} ${strikes.join("; ")}. ${results.join("; ")}.`;
      }
      case "die_rolled": return fill(t.ev_die_rolled, { value: ev.value, unit: n.unit(ev.survivor), health: num(ev.survivor_health) });
      case "unit_routed": return fill(t.ev_unit_routed, { unit: n.unit(ev.unit) });
      case "unit_withdrew": return fill(t.ev_unit_withdrew, { unit: n.unit(ev.unit) });
      case "turn_ended": return fill(t.ev_turn_ended, { side: n.side(ev.side), round: ev.round });
      case "turn_started": return fill(t.ev_turn_started, { side: n.side(ev.side), round: ev.round });
      case "window_opened": return fill(t.ev_window_opened, { side: n.side(ev.side), units: (ev.interceptors || []).map(n.unit).join(", ") });
      case "window_closed": return t.ev_window_closed;
      case "interception_declared": return fill(t.ev_interception_declared, { unit: n.unit(ev.unit), target: n.unit(ev.target) });
      case "reinforcement_placed": return fill(t.ev_reinforcement_placed, { unit: n.unit(ev.unit), cell: cell(ev.x, ev.y) });
      case "battle_ended": return fill(t.ev_battle_ended, { side: n.side(ev.winner) });
      case "action_void": return t.ev_action_void;
      case "turn_timed_out": return fill(t.log_timeout, { side: n.side(ev.side), round: ev.round });
      case "seed_revealed": return fill(t.ev_seed_revealed, { seed: String(ev.seed).slice(0, 16) + "…" });
      case "result_applied": return t.ev_result_applied;
      // the moderator's controls (tactical/services/moderation.py)
      case "clock_paused": return fill(t.ev_clock_paused, { reason: ev.reason || "" });
      case "clock_resumed": return fill(t.ev_clock_resumed, { reason: ev.reason || "" });
      case "time_added": return fill(t.ev_time_added, { seconds: ev.seconds, reason: ev.reason || "" });
      case "corrected": return fill(t.ev_corrected, { reason: ev.reason || "" });
      case "unit_corrected": {
        const value = (k, v) => (k === "facing" ? n.facing(v) : shown(v));
        const changes = Object.keys(ev.after || {})
          .map((k) => `${t[`field_${k}`] || k} ${value(k, ev.before[k])} → ${value(k, ev.after[k])}`);
        return fill(t.ev_unit_corrected, { unit: n.unit(ev.unit), changes: changes.join(", ") });
      }
      case "action_undone": return fill(t.ev_action_undone, { version: ev.version, reason: ev.reason || "" });
      case "die_awaited": return t.ev_die_awaited;
      case "moderator_rolled": return fill(t.ev_moderator_rolled, { dice: (ev.dice || []).join(", "), reason: ev.reason || "" });
      default: return "";
    }
  }
}
