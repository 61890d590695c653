// The rules reference's search (issue 15): hides the rule entries that do not contain every word typed.
// A rule id typed as such (T7.3) also keeps the parts of that rule (T7.3 matches T7.3 only; T7 matches T7.*).
(() => {
  const input = document.getElementById("rules-search");
  const count = document.getElementById("rules-search-count");
  if (!input) return;
  const entries = [...document.querySelectorAll(".rules-reference .rule-entry")];
  const sections = [...document.querySelectorAll(".rules-reference .rules-section")];
  const texts = new Map(entries.map((e) => [e, e.textContent.toLowerCase()]));
  const RULE_ID = /^[strqm]\d{1,2}(\.\d{1,2})?$/i;

  function matches(entry, words) {
    const id = entry.dataset.rule.toLowerCase();
    return words.every((w) => (RULE_ID.test(w) ? id === w || id.startsWith(`${w}.`) : texts.get(entry).includes(w)));
  }

  function filter() {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const entry of entries) {
      const ok = !words.length || matches(entry, words);
      entry.hidden = !ok;
      if (ok) shown += 1;
    }
    for (const section of sections) section.hidden = !section.querySelector(".rule-entry:not([hidden])");
    if (!words.length) count.textContent = "";
    else count.textContent = shown ? input.dataset.found.replace("{n}", shown) : input.dataset.none;
  }

  input.addEventListener("input", filter);
  if (input.value) filter();
})();
