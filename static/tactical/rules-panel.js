// The rule beside the board (issue 15): a rule id the board shows (a refusal, the log) is a link; on the board
// it opens the rule's entry in a side panel, fetched from /c/<slug>/rules/<id>/, so the turn is not left.

const t = JSON.parse(document.getElementById("board-strings").textContent);
const links = () => window.limesRuleLinks || { base: "", linkify: () => {} };
let panel = null;
let returnFocus = null;

function build() {
  // In the board's side column, above its panels, so that the board and the clock stay in view.
  const side = document.querySelector(".board-side");
  panel = document.createElement(side ? "section" : "aside");
  panel.id = "rules-panel";
  panel.className = side ? "bpanel rules-panel beside" : "rules-panel";
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-labelledby", "rules-panel-title");
  panel.hidden = true;
  const head = document.createElement("div");
  head.className = "rules-panel-head";
  const title = document.createElement("h2");
  title.id = "rules-panel-title";
  title.textContent = t.rules_panel_title;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "bbtn";
  close.id = "rules-panel-close";
  close.textContent = t.rules_panel_close;
  close.addEventListener("click", closeRule);
  head.append(title, close);
  const body = document.createElement("div");
  body.id = "rules-panel-body";
  body.setAttribute("aria-live", "polite");
  const full = document.createElement("a");
  full.id = "rules-panel-full";
  full.target = "_blank";
  full.rel = "noopener";
  full.textContent = t.rules_panel_full;
  panel.append(head, body, full);
  if (side) side.prepend(panel);
  else document.body.append(panel);
  return panel;
}

/** Opens one rule's entry beside the board. */
export async function openRule(id) {
  const box = panel || build();
  const body = box.querySelector("#rules-panel-body");
  const base = links().base;
  box.querySelector("#rules-panel-full").href = `${base}#${id}`;
  body.textContent = t.rules_panel_loading;
  if (box.hidden) returnFocus = document.activeElement;
  box.hidden = false;
  box.dataset.rule = id;
  try {
    const response = await fetch(`${base}${encodeURIComponent(id)}/`, { headers: { Accept: "text/html" }, credentials: "same-origin" });
    if (!response.ok) throw new Error(String(response.status));
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    body.replaceChildren(...doc.body.childNodes);
  } catch {
    body.textContent = t.rules_panel_failed;
  }
  box.querySelector("#rules-panel-close").focus({ preventScroll: true });
  box.scrollIntoView({ block: "nearest" });
}

export function closeRule() {
  if (!panel) return;
  panel.hidden = true;
  if (returnFocus && returnFocus.focus) returnFocus.focus();
}

/** Makes every rule id in this element a link (the refusal box, a log line). */
export function linkRules(element) {
  links().linkify(element);
}

document.addEventListener("click", (event) => {
  const a = event.target.closest && event.target.closest("a[data-rule]");
  if (!a || a.id === "rules-panel-full" || !links().base || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  openRule(a.dataset.rule);
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && panel && !panel.hidden) closeRule();
});

// The moderator's hold ("… die (T7.6) …"), the battle log, the unit card and the melee forecast are rewritten as
// the battle goes: their rule ids are linked as they appear (a second pass finds them inside links already and
// changes nothing). Only what a change added is read again: the log grows by a line an event, and reading it
// whole each time cost more as the battle went on.
const observer = new MutationObserver((records) => {
  const roots = new Set();
  for (const record of records) {
    if (record.type === "childList") {
      for (const added of record.addedNodes) roots.add(added.nodeType === Node.ELEMENT_NODE ? added : record.target);
    } else {
      roots.add(record.target.nodeType === Node.TEXT_NODE ? record.target.parentElement : record.target);
    }
  }
  for (const root of roots) if (root && root.isConnected) linkRules(root);
});
for (const id of ["board-halt", "board-log", "unit-card-body", "melee-body"]) {
  const element = document.getElementById(id);
  if (element) observer.observe(element, { childList: true, subtree: true, characterData: true });
}
