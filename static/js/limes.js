// Small enhancements; every page works without them.
(function () {
  "use strict";

  // Show times in the visitor's own time zone; the UTC text stays as the fallback.
  function localTimes() {
    // The page's language, in the visitor's own regional variant when the browser has one (en-GB, ru-RU).
    var lang = document.documentElement.lang || "en";
    var regional = (navigator.languages || []).filter(function (l) { return l.split("-")[0] === lang; })[0];
    lang = regional || lang;
    document.querySelectorAll("time.js-local[datetime]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (isNaN(when.getTime())) return;
      el.title = el.textContent;
      el.textContent = when.toLocaleString(lang, {
        year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short",
      });
    });
  }

  // "Copy as BBCode": copy the textarea named by data-target.
  function copyButtons() {
    document.querySelectorAll(".js-copy").forEach(function (button) {
      button.addEventListener("click", function () {
        var area = document.getElementById(button.dataset.target);
        if (!area) return;
        var done = function () {
          var label = button.textContent;
          button.textContent = button.dataset.done || label;
          setTimeout(function () { button.textContent = label; }, 1500);
        };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(area.value).then(done);
        } else {
          area.select();
          document.execCommand("copy");
          done();
        }
      });
    });
  }

  // Turn page: a click on a highlighted province chooses it as the destination of the move form.
  function mapDestinations() {
    var form = document.getElementById("move-form");
    if (!form) return;
    var select = form.querySelector("select[name=destination]");
    document.querySelectorAll(".limes-map .dest[data-province]").forEach(function (g) {
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      var choose = function () {
        select.value = g.dataset.province;
        document.querySelectorAll(".limes-map .dest.chosen").forEach(function (o) { o.classList.remove("chosen"); });
        g.classList.add("chosen");
        form.querySelector("button[type=submit]").focus();
      };
      g.addEventListener("click", choose);
      g.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(); } });
    });
  }

  // Turn page: a click on a province the army may not enter says why (S5, S7, S8), instead of nothing.
  function mapRefusals() {
    var data = document.getElementById("map-refusals");
    var box = document.getElementById("map-refusal");
    if (!data || !box) return;
    var refusals = JSON.parse(data.textContent);
    document.querySelectorAll(".limes-map [data-province]").forEach(function (g) {
      if (g.classList.contains("dest")) return;
      var why = refusals[g.dataset.province];
      if (!why) return;
      g.addEventListener("click", function () {
        var title = g.querySelector("title");
        box.textContent = (title ? title.textContent.split(" — ")[0] : g.dataset.code) + ": " + why;
        box.hidden = false;
      });
    });
  }

  function confirmForms() {
    document.querySelectorAll("form.js-confirm").forEach(function (form) {
      form.addEventListener("submit", function (e) {
        if (!window.confirm(form.dataset.confirm)) e.preventDefault();
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    localTimes();
    copyButtons();
    mapDestinations();
    mapRefusals();
    confirmForms();
  });
})();
