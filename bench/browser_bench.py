"""What a player feels in the browser: Debian's Chromium (Playwright) against the production kind of server.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/limes_mine REDIS_URL=redis://127.0.0.1:6379/10 \\
        python bench/browser_bench.py all --moves 200 --port 18920

* latency: a move clicked in the attacker's browser (the unit, then a reachable cell, as a player does) until
  the defender's board, another context logged in as another user, has drawn it: the moment its units'
  layer holds the unit on the new cell (a MutationObserver on the layer's children and on the tokens' cells,
  since a moved token keeps its node) and the next frame after it. Both times are
  ``performance.timeOrigin + performance.now()`` in their pages, one clock for every context of the machine.
  Baselines in the same run: the click to the attacker's own board showing it, and a bare ping → pong over
  the attacker's socket. The unit goes back and forth between two cells; turns are ended from the boards'
  own "End turn" buttons when its points run out. Goal: p99 ≤ 50 ms.
* render: the defender's board at 4× CPU slowdown (DevTools ``Emulation.setCPUThrottlingRate``): per pushed
  event, the time of the socket's message handler (parse, log, state, every panel drawn), and of the style
  and layout it leaves for the frame (forced by reading a layout value right after). Baseline: the
  ``JSON.parse`` of the same frame alone. Goal: handler + layout p99 ≤ 16 ms (one frame). Measured twice: with
  the moves sent by this process through the battle service, the defender's renderer the only one drawing them
  (the goal's figure: on a player's machine the opponent's browser is elsewhere), then with the moves clicked in
  an attacker's browser, whose renderer draws the same event on the same 2 cores at the same moment.
* load: a cold load of the board (a fresh context: no cache, no cookies but the session) at 4× slowdown:
  every response's bytes on the wire (CDP ``Network.loadingFinished`` ``encodedDataLength``: headers and
  compressed body) plus the socket's welcome frame (its payload; frames are not compressed), and the times
  of first-contentful-paint and of the board drawn from the welcome frame, from navigation start.
  Baseline: the same load of the login page. Goals: ≤ 150 KB, ≤ 1 s.

The server is docker-compose.yml's kind: uvicorn (bench/tactical/common.py ``serve``) with
``LIMES_PRODUCTION=1`` settings, so the channel layer is Redis pub/sub, the database PostgreSQL with the
connection pool, and the static files are collectstatic's (hashed, compressed) served by WhiteNoise, as
the Dockerfile builds them (into the checkout's ``staticfiles/``). Plain HTTP on 127.0.0.1: the HTTPS
redirect and HSTS are off (a TLS proxy does them in production).

The bench uses its own database ``<DATABASE_URL's name>_browser_bench`` (dropped and made again) and
flushes REDIS_URL's db: run it with a database name and a Redis db of your own.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: the project's root

from bench.tactical.common import pct, production_env, summary  # noqa: E402

CHROMIUM = os.environ.get("LIMES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
GOALS = {"latency_p99_ms": 50, "render_p99_ms": 16, "load_kb": 150, "load_s": 1.0}

# Installed in every page before its own scripts: the socket's frames timed, the board's drawing observed.
PROBE = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const probe = window.__bench = { sockets: [], handled: [], drawn: [], clicks: [], pongs: {}, watch: null,
                                   firstBoard: null };
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    probe.sockets.push(ws);
    if (probe.socketAt === undefined && String(args[0]).includes("/ws/battles/")) {
      probe.socketAt = performance.now();
      ws.addEventListener("open", () => { probe.openAt = performance.now(); });
    }
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  const add = Native.prototype.addEventListener;
  Native.prototype.addEventListener = function (type, listener, options) {
    if (type !== "message") return add.call(this, type, listener, options);
    return add.call(this, type, (event) => {
      const head = typeof event.data === "string" ? event.data.slice(0, 40) : "";
      const kind = (head.match(/"type":\\s*"([a-z_]+)"/) || [])[1] || "?";
      if (kind === "pong") {
        const id = (event.data.match(/"id":\\s*"([^"]+)"/) || [])[1];
        if (id) probe.pongs[id] = now();
      }
      const t0 = performance.now();
      if (kind === "welcome" && probe.welcomeAt === undefined) probe.welcomeAt = t0;
      listener.call(this, event);
      const t1 = performance.now();
      void document.documentElement.offsetHeight;  // the style and layout this frame would do
      const t2 = performance.now();
      let parse = null;
      if (kind === "event") { const p0 = performance.now(); JSON.parse(event.data); parse = performance.now() - p0; }
      probe.handled.push({ kind, script: t1 - t0, layout: t2 - t1, parse, bytes: event.data.length || 0 });
    }, options);
  };
  document.addEventListener("click", () => probe.clicks.push(now()), true);
  const observe = () => {
    const layer = document.getElementById("layer-units");
    if (!layer) return false;
    new MutationObserver(() => {
      if (probe.firstBoard === null && layer.firstChild) probe.firstBoard = performance.now();
      const w = probe.watch;
      if (!w) return;
      const g = layer.querySelector(`[data-unit="${w.unit}"]`);
      if (g && g.dataset.x === String(w.x) && g.dataset.y === String(w.y)) {
        probe.watch = null;
        const at = now();
        requestAnimationFrame(() => probe.drawn.push({ n: w.n, at, frame: now() }));
      }
    }).observe(layer, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-x", "data-y"] });
    return true;
  };
  if (!observe()) document.addEventListener("DOMContentLoaded", observe);
})();
"""


class Bench:
    """The world, the server and the browser; one attacker and one defender context on one battle."""

    def __init__(self, base: str) -> None:
        self.base = base

    def setup_world(self) -> None:
        from bench.tactical.common import world_and_battles

        self.world, (self.battle,) = world_and_battles(1, turn_seconds=600)
        state = self.battle.state
        self.attacker_units = [u for u in state["units"] if u["side"] == "attacker" and u["status"] == "field"]

    def session(self, user: Any) -> str:
        from django.conf import settings
        from django.test import Client

        client = Client()
        client.force_login(user)
        return client.cookies[settings.SESSION_COOKIE_NAME].value

    def context(self, browser: Any, user: Any | None) -> Any:
        from django.conf import settings

        context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en",
                                      extra_http_headers={"Accept-Language": "en"})
        if user is not None:
            context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": self.session(user),
                                  "domain": "127.0.0.1", "path": "/"}])
        context.add_init_script(PROBE)
        return context

    def board(self, context: Any) -> Any:
        page = context.new_page()
        page.set_default_timeout(20000)
        page.goto(f"{self.base}/battles/{self.battle.pk}/")
        page.wait_for_selector('#status-conn[data-state="live"]')
        page.wait_for_selector("#layer-units [data-unit]", state="attached")
        return page


def unit_at(page: Any, unit: str) -> tuple[int, int, int]:
    g = page.locator(f'#layer-units [data-unit="{unit}"]')
    return int(g.get_attribute("data-x")), int(g.get_attribute("data-y")), int(g.count())


def end_turns(attacker: Any, defender: Any) -> None:
    """The attacker's "End turn", then the defender's (and an interception window's end if one opens)."""
    attacker.locator("#btn-end-turn").click()
    for _ in range(3):
        defender.wait_for_function("""() => {
            const b = (id) => !document.getElementById(id).hidden && !document.getElementById(id).disabled;
            return b("btn-end-turn") || b("btn-end-interceptions");
        }""")
        if not defender.locator("#btn-end-interceptions").is_hidden():
            defender.locator("#btn-end-interceptions").click()
            continue
        defender.locator("#btn-end-turn").click()
        break
    for _ in range(3):
        attacker.wait_for_function("""() => {
            const b = (id) => !document.getElementById(id).hidden && !document.getElementById(id).disabled;
            return b("btn-end-turn") || b("btn-end-interceptions");
        }""")
        if not attacker.locator("#btn-end-interceptions").is_hidden():
            attacker.locator("#btn-end-interceptions").click()
            continue
        break


def play_moves(attacker: Any, defender: Any, unit: str, moves: int) -> dict[str, list[float]]:
    """``moves`` moves of one unit between two cells by the attacker's clicks; latencies in ms."""
    x0, y0, _ = unit_at(attacker, unit)
    home = (x0, y0)
    g = attacker.locator(f'#layer-units [data-unit="{unit}"]')
    if "selected" not in (g.get_attribute("class") or ""):
        g.click()
    try:
        attacker.wait_for_selector("#layer-marks [data-cell]", state="attached", timeout=2000)
    except Exception:  # an earlier run spent the unit's points: a new turn
        end_turns(attacker, defender)
        if "selected" not in (g.get_attribute("class") or ""):
            g.click()
        attacker.wait_for_selector("#layer-marks [data-cell]", state="attached")
    cells = [tuple(map(int, c.split(","))) for c in attacker.evaluate(
        "() => [...document.querySelectorAll('#layer-marks [data-cell]')].map((m) => m.dataset.cell)")]
    away = next(c for c in cells if abs(c[0] - x0) + abs(c[1] - y0) == 1)  # a free neighbouring cell
    to_defender, to_defender_frame, to_self = [], [], []
    for page in (attacker, defender):  # the numbering starts again at 0
        page.evaluate("() => { window.__bench.drawn.length = 0; window.__bench.watch = null; }")
    done = stuck = 0
    while done < moves:
        x, y, _ = unit_at(attacker, unit)
        target = away if (x, y) == home else home
        g = attacker.locator(f'#layer-units [data-unit="{unit}"]')
        if "selected" not in (g.get_attribute("class") or ""):
            g.click()
        mark = attacker.locator(f'#layer-marks [data-cell="{target[0]},{target[1]}"]')
        try:
            mark.wait_for(state="attached", timeout=1000)  # drawn at once when the unit is selected
        except Exception:  # no point left for this move: end both sides' turns
            stuck += 1
            if stuck > 3:
                attacker.screenshot(path="/tmp/browser-bench-stuck.png")
                raise RuntimeError(f"no move to {target} for unit {unit} after {stuck - 1} turns ended") from None
            print(f"  end turns at move {done}", file=sys.stderr, flush=True)
            end_turns(attacker, defender)
            continue
        stuck = 0
        watch = {"unit": unit, "x": target[0], "y": target[1], "n": done}
        defender.evaluate("(w) => { window.__bench.watch = w; }", watch)
        attacker.evaluate("(w) => { window.__bench.watch = w; }", watch)
        clicks = attacker.evaluate("() => window.__bench.clicks.length")
        mark.click()
        defender.wait_for_function("(n) => window.__bench.drawn.some((d) => d.n === n)", arg=done)
        attacker.wait_for_function("(n) => window.__bench.drawn.some((d) => d.n === n)", arg=done)
        clicked = attacker.evaluate("(i) => window.__bench.clicks[i]", clicks)
        seen = defender.evaluate("(n) => window.__bench.drawn.find((d) => d.n === n)", done)
        own = attacker.evaluate("(n) => window.__bench.drawn.find((d) => d.n === n)", done)
        to_defender.append(seen["at"] - clicked)
        to_defender_frame.append(seen["frame"] - clicked)
        to_self.append(own["at"] - clicked)
        done += 1
        time.sleep(0.05)
    return {"to_defender": to_defender, "to_defender_frame": to_defender_frame, "to_self": to_self}


def server_moves(bench: Bench, defender: Any, unit: str, moves: int) -> None:
    """``moves`` moves of one unit between two cells, sent by this process through the battle service (the call
    the socket's consumer makes for a player's click), each one waited for on the defender's board.

    No attacker's browser draws the same event on the same cores at the same moment: on a player's machine the
    opponent's browser is somewhere else."""
    from campaign.errors import ServiceError
    from combat.battle.model import GRID_HEIGHT, GRID_WIDTH
    from tactical.models import LiveBattle
    from tactical.services import play as services

    actors = {"attacker": bench.world.east_general, "defender": bench.world.west_leader}
    battle_id = bench.battle.pk

    def state() -> dict[str, Any]:
        return LiveBattle.objects.get(pk=battle_id).state

    def apply(actor: Any, action: dict[str, Any]) -> None:
        services.battle_action_apply(actor=actor, battle_id=battle_id, action=action)

    def next_attacker_turn(start_round: int) -> None:
        """The attacker's turn ended, then the defender's (and any interception window), as the boards' buttons do."""
        for _ in range(8):
            s = state()
            if s["phase"] == "interception":
                apply(actors[s["side"]], {"do": "end_interceptions", "side": s["side"]})
            elif s["phase"] == "move" and s["side"] == "defender":
                apply(actors["defender"], {"do": "end_turn", "side": "defender"})
            elif s["phase"] == "move" and s["side"] == "attacker" and s["round"] == start_round:
                apply(actors["attacker"], {"do": "end_turn", "side": "attacker"})
            else:
                return
        raise RuntimeError("the attacker's turn did not come back")

    me = next(u for u in state()["units"] if u["id"] == unit)
    home = (me["x"], me["y"])
    taken = {(u["x"], u["y"]) for u in state()["units"] if u["x"] is not None}
    away_cells = [(home[0] + dx, home[1] + dy) for dx, dy in ((0, -1), (1, 0), (-1, 0), (0, 1))]
    away_cells = [c for c in away_cells if c not in taken and 0 <= c[0] < GRID_WIDTH and 0 <= c[1] < GRID_HEIGHT]
    defender.evaluate("() => { window.__bench.drawn.length = 0; window.__bench.watch = null; }")
    at, away, done, stuck = home, None, 0, 0
    while done < moves:
        if away is None:  # the first move finds a free neighbouring cell the unit may enter
            target = away_cells[0]
        else:
            target = away if at == home else home
        defender.evaluate("(w) => { window.__bench.watch = w; }",
                          {"unit": unit, "x": target[0], "y": target[1], "n": done})
        try:
            apply(actors["attacker"], {"do": "move", "unit": unit, "path": [list(target)]})
        except ServiceError:  # no point left for this move (or, at first, a cell it may not enter)
            if away is None and len(away_cells) > 1 and stuck == 0:
                away_cells.pop(0)
                continue
            stuck += 1
            if stuck > 3:
                raise RuntimeError(f"no move to {target} for unit {unit} after {stuck - 1} turns ended") from None
            print(f"  end turns at move {done}", file=sys.stderr, flush=True)
            next_attacker_turn(state()["round"])
            continue
        stuck = 0
        if away is None:
            away = target
        at = target
        defender.wait_for_function("(n) => window.__bench.drawn.some((d) => d.n === n)", arg=done)
        done += 1
        time.sleep(0.05)


def ping_round_trips(page: Any, count: int) -> list[float]:
    """Bare ping → pong frames over the board's own socket, one at a time."""
    times = []
    for n in range(count):
        sent = page.evaluate("""(id) => {
            const ws = window.__bench.sockets.at(-1);
            const at = performance.timeOrigin + performance.now();
            ws.send(JSON.stringify({ type: "ping", id }));
            return at;
        }""", f"bench-{n}")
        page.wait_for_function("(id) => window.__bench.pongs[id] !== undefined", arg=f"bench-{n}")
        times.append(page.evaluate("(id) => window.__bench.pongs[id]", f"bench-{n}") - sent)
        time.sleep(0.02)
    return times


def handled(page: Any, kind: str = "event") -> list[dict[str, Any]]:
    return [h for h in page.evaluate("() => window.__bench.handled") if h["kind"] == kind]


def bench_latency(bench: Bench, browser: Any, moves: int) -> dict[str, Any]:
    attacker = bench.board(bench.context(browser, bench.world.east_general))
    defender = bench.board(bench.context(browser, bench.world.west_leader))
    unit = bench.attacker_units[0]["id"]
    play_moves(attacker, defender, unit, 4)  # warm-up: the server's first requests, the pages' first draws
    times = play_moves(attacker, defender, unit, moves)
    pings = ping_round_trips(attacker, moves)
    events = handled(defender)
    result = {"moves": moves,
              "click → defender's board (DOM)": summary(times["to_defender"]),
              "click → defender's board (next frame)": summary(times["to_defender_frame"]),
              "baseline: click → attacker's own board": summary(times["to_self"]),
              "baseline: ping → pong, same socket": summary(pings),
              "defender's handler per event at 1× (script + layout)": summary(
                  [e["script"] + e["layout"] for e in events])}
    attacker.context.close()
    defender.context.close()
    return result


def bench_render(bench: Bench, browser: Any, moves: int, rate: float) -> dict[str, Any]:
    """The defender's board at the slowdown, the moves sent by the service (its renderer alone on the cores), then
    the same with the moves clicked in an attacker's browser on the same machine (two renderers at once)."""
    result: dict[str, Any] = {"rate": rate}
    for driver in ("service", "attacker's browser"):
        defender = bench.board(bench.context(browser, bench.world.west_leader))
        attacker = bench.board(bench.context(browser, bench.world.east_general)) if driver != "service" else None
        cdp = defender.context.new_cdp_session(defender)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        defender.evaluate("() => { window.__bench.handled.length = 0; }")
        if attacker is None:
            server_moves(bench, defender, bench.attacker_units[0]["id"], moves)
        else:
            play_moves(attacker, defender, bench.attacker_units[0]["id"], moves)
        events = handled(defender)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        result[f"moves by the {driver}"] = {
            "events": len(events),
            "event frame bytes p50": pct([e["bytes"] for e in events], 50),
            "script + layout": summary([e["script"] + e["layout"] for e in events]),
            "script": summary([e["script"] for e in events]),
            "layout": summary([e["layout"] for e in events]),
            "baseline: JSON.parse of the frame": summary([e["parse"] for e in events if e["parse"] is not None])}
        if attacker is not None:
            attacker.context.close()
        defender.context.close()
    return result


def cold_load(bench: Bench, browser: Any, user: Any, path: str, rate: float, board: bool) -> dict[str, Any]:
    context = bench.context(browser, user)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    urls: dict[str, str] = {}
    sizes: dict[str, int] = {}
    encodings: dict[str, str] = {}
    frames: list[int] = []
    cdp.on("Network.responseReceived", lambda e: (urls.__setitem__(e["requestId"], e["response"]["url"]),
                                                   encodings.__setitem__(e["requestId"], (
                                                       {k.lower(): v for k, v in e["response"]["headers"].items()}
                                                       .get("content-encoding", "")))))
    cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])))
    cdp.on("Network.webSocketFrameReceived", lambda e: frames.append(e["response"]["payloadData"]))
    page.goto(f"{bench.base}{path}", wait_until="load")
    if board:
        page.wait_for_function("() => window.__bench.firstBoard !== null")
        page.wait_for_function("() => window.__bench.handled.some((h) => h.kind === 'welcome')")
    page.wait_for_timeout(300)
    timing = page.evaluate("""() => ({
        fcp: (performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime ?? null,
        board: window.__bench.firstBoard,
        load: performance.getEntriesByType("navigation")[0].loadEventEnd,
        welcome: window.__bench.handled.filter((h) => h.kind === "welcome").map((h) => h.script + h.layout)[0] ?? null,
        html_end: performance.getEntriesByType("navigation")[0].responseEnd,
        dom_content_loaded: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd,
        socket_created: window.__bench.socketAt ?? null, socket_open: window.__bench.openAt ?? null,
        welcome_arrived: window.__bench.welcomeAt ?? null,
        resources: performance.getEntriesByType("resource").map((r) => [r.name.replace(location.origin, ""),
                                                                      Math.round(r.startTime), Math.round(r.responseEnd)]),
    })""")
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    context.close()
    files = sorted(((urls.get(r, r).replace(bench.base, ""), size, encodings.get(r, "")) for r, size in sizes.items()),
                   key=lambda f: -f[1])
    welcome = max((len(f.encode()) for f in frames if '"welcome"' in f[:60]), default=0)
    total = sum(s for _, s, _ in files) + welcome
    return {"bytes": total, "kb": round(total / 1024, 1), "requests": len(files), "welcome_frame_bytes": welcome,
            "fcp_ms": timing["fcp"] and round(timing["fcp"], 1), "board_ms": timing["board"] and round(timing["board"], 1),
            "load_event_ms": round(timing["load"], 1),
            "welcome_handler_ms": timing["welcome"] and round(timing["welcome"], 1),
            "timeline_ms": {k: timing[k] and round(timing[k]) for k in ("html_end", "dom_content_loaded", "socket_created",
                                                                         "socket_open", "welcome_arrived", "board")},
            "resources": timing["resources"],
            "files": [f"{size} {url} {enc}".strip() for url, size, enc in files]}


def bench_load(bench: Bench, browser: Any, rate: float, runs: int) -> dict[str, Any]:
    boards = [cold_load(bench, browser, bench.world.east_general, f"/battles/{bench.battle.pk}/", rate, True)
              for _ in range(runs)]
    logins = [cold_load(bench, browser, None, "/accounts/login/", rate, False) for _ in range(runs)]
    return {"rate": rate, "runs": runs,
            "board": {"kb": boards[-1]["kb"], "requests": boards[-1]["requests"],
                      "welcome_frame_bytes": boards[-1]["welcome_frame_bytes"],
                      "fcp_ms": summary([b["fcp_ms"] for b in boards]),
                      "board_drawn_ms": summary([b["board_ms"] for b in boards]),
                      "load_event_ms": summary([b["load_event_ms"] for b in boards]),
                      "welcome_handler_ms": summary([b["welcome_handler_ms"] for b in boards]),
                      "timeline_ms": boards[-1]["timeline_ms"], "resources": boards[-1]["resources"],
                      "files": boards[-1]["files"]},
            "baseline: login page": {"kb": logins[-1]["kb"], "requests": logins[-1]["requests"],
                                     "fcp_ms": summary([b["fcp_ms"] for b in logins]),
                                     "files": logins[-1]["files"]}}


def verdicts(results: dict[str, Any]) -> dict[str, str]:
    out = {}
    if "latency" in results:
        p99 = results["latency"]["click → defender's board (DOM)"]["p99"]
        out["latency p99 ≤ 50 ms"] = f"{p99} ms: {'met' if p99 <= GOALS['latency_p99_ms'] else 'MISSED'}"
    if "render" in results:
        p99 = results["render"]["moves by the service"]["script + layout"]["p99"]
        out["render p99 ≤ 16 ms at 4×"] = f"{p99} ms: {'met' if p99 <= GOALS['render_p99_ms'] else 'MISSED'}"
    if "load" in results:
        board = results["load"]["board"]
        out["board page ≤ 150 KB"] = f"{board['kb']} KB: {'met' if board['kb'] <= GOALS['load_kb'] else 'MISSED'}"
        worst = max(board["fcp_ms"]["p50"], board["board_drawn_ms"]["p50"])
        out["first render ≤ 1 s at 4× (median)"] = (f"FCP {board['fcp_ms']['p50']} ms, board {board['board_drawn_ms']['p50']}"
                                                   f" ms: {'met' if worst <= GOALS['load_s'] * 1000 else 'MISSED'}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["all", "latency", "render", "load"])
    parser.add_argument("--moves", type=int, default=200, help="latency: moves measured (and pings)")
    parser.add_argument("--render-moves", type=int, default=60, help="render: moves at the slowdown")
    parser.add_argument("--rate", type=float, default=4, help="render, load: CPU slowdown")
    parser.add_argument("--loads", type=int, default=5, help="load: cold loads of each page")
    parser.add_argument("--port", type=int, default=int(os.environ.get("TACTICAL_BENCH_PORT", "18920")))
    parser.add_argument("--no-collectstatic", action="store_true", help="reuse staticfiles/ as it is")
    args = parser.parse_args()
    if os.environ.get("BENCH_TRACEBACK_AFTER"):  # where a stuck run is stuck
        import faulthandler

        faulthandler.dump_traceback_later(float(os.environ["BENCH_TRACEBACK_AFTER"]), exit=False)
    os.environ["TACTICAL_BENCH_PORT"] = str(args.port)
    from bench.tactical import common

    common.PORT = args.port
    source = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/limes"
    name = source.rsplit("/", 1)[1] + "_browser_bench"
    database = f"{source.rsplit('/', 1)[0]}/{name}"
    redis = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/10"
    env = production_env(database, redis)
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", name], check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", name], check=True)
    subprocess.run(["redis-cli", "-n", redis.rsplit("/", 1)[1], "flushdb"], check=True, capture_output=True)
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs a loop in this thread
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if not args.no_collectstatic:
        call_command("collectstatic", interactive=False, clear=True, verbosity=0)
    logs = tempfile.mkdtemp(prefix="limes-browser-bench-")
    bench = Bench(f"http://127.0.0.1:{args.port}")
    bench.setup_world()
    server = common.serve("uvicorn", env, logs)
    results: dict[str, Any] = {"started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
                               "load_average": os.getloadavg(), "machine": f"{os.cpu_count()} cores {platform.machine()}"}
    try:
        common.wait_http(args.port)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            results["chromium"] = browser.version
            if args.what in ("all", "load"):
                print("load ...", file=sys.stderr, flush=True)
                results["load"] = bench_load(bench, browser, args.rate, args.loads)
            if args.what in ("all", "latency"):
                print("latency ...", file=sys.stderr, flush=True)
                results["latency"] = bench_latency(bench, browser, args.moves)
            if args.what in ("all", "render"):
                print("render ...", file=sys.stderr, flush=True)
                results["render"] = bench_render(bench, browser, args.render_moves, args.rate)
            browser.close()
    finally:
        common.stop(server)
    results["load_average_end"] = os.getloadavg()
    results["goals"] = verdicts(results)
    print(json.dumps(results, indent=1, ensure_ascii=False, default=str))
    print(f"logs: {logs}", file=sys.stderr)


if __name__ == "__main__":
    main()
