// The account's small helpers: the browser's time zone for the server, and the bell's live count.
(function () {
  "use strict";

  // The browser's time zone: a cookie the server reads for pages (until the account chooses one), and the
  // hidden field of the sign-up form, so a new account starts in it.
  function zone() {
    var name = "";
    try { name = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
    if (!name) return;
    document.cookie = "tz=" + encodeURIComponent(name) + "; path=/; max-age=31536000; SameSite=Lax";
    document.querySelectorAll("input[type=hidden][name=timezone]").forEach(function (input) {
      if (!input.value) input.value = name;
    });
  }

  // The bell: its count follows the notifications socket; reconnects with a growing pause.
  function bell() {
    var link = document.querySelector(".bell");
    if (!link || !window.WebSocket) return;
    var count = link.querySelector(".bell-count");
    var pause = 1000;
    function connect() {
      var scheme = location.protocol === "https:" ? "wss://" : "ws://";
      var socket = new WebSocket(scheme + location.host + "/ws/notifications/");
      socket.onopen = function () { pause = 1000; };
      socket.onmessage = function (event) {
        var data;
        try { data = JSON.parse(event.data); } catch (e) { return; }
        if (data.type !== "unread") return;
        count.textContent = String(data.count);
        count.hidden = !data.count;
        link.dataset.live = "1";
      };
      socket.onclose = function (event) {
        if (event.code === 4403) return;
        setTimeout(connect, pause);
        pause = Math.min(pause * 2, 30000);
      };
    }
    connect();
  }

  // The first Intl call loads the browser's zone data (tens of ms on a slow phone) and would hold back the
  // page's own scripts, which run after this one: it waits for an idle moment unless a form needs the zone.
  function start() {
    bell();
    if (document.querySelector("input[type=hidden][name=timezone]")) zone();
    else if (window.requestIdleCallback) window.requestIdleCallback(zone, { timeout: 3000 });
    else setTimeout(zone, 1000);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
