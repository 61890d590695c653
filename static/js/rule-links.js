// Rule ids in a campaign's pages (issue 15): every id written in a text, "(S5)", "T10.4", becomes a link to the
// rule's entry on the campaign's rules page. The campaign bar carries the page's address and the known ids;
// ids the server already drew as links (a.rule-link) and text in code, forms and pictures are left alone.
(() => {
  const RULE_ID = /\b([STRQM]\d{1,2}(?:\.\d{1,2})?)\b/g;
  const SKIP = "a, code, pre, script, style, textarea, select, option, button, svg, input, label, .rule-id, [data-no-rule-links]";

  function linkify(root, base, known) {
    if (!root || !base) return;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode: (node) => {
        if (!RULE_ID.test(node.nodeValue)) return NodeFilter.FILTER_REJECT;
        RULE_ID.lastIndex = 0;
        return node.parentElement && node.parentElement.closest(SKIP) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
      },
    });
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    for (const node of nodes) {
      const text = node.nodeValue;
      const parts = document.createDocumentFragment();
      let last = 0;
      for (const m of text.matchAll(RULE_ID)) {
        if (!known.has(m[1])) continue;
        parts.append(text.slice(last, m.index));
        const a = document.createElement("a");
        a.className = "rule-link";
        a.href = `${base}#${m[1]}`;
        a.dataset.rule = m[1];
        a.textContent = m[1];
        parts.append(a);
        last = m.index + m[1].length;
      }
      if (last === 0) continue;
      parts.append(text.slice(last));
      node.replaceWith(parts);
    }
  }

  const bar = document.querySelector("[data-rules]");
  const base = bar ? bar.dataset.rules : "";
  const known = new Set(bar ? bar.dataset.ruleIds.split(" ") : []);
  window.limesRuleLinks = { base, known, linkify: (root) => linkify(root, base, known) };
  const run = () => linkify(document.querySelector("main"), base, known);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
})();
