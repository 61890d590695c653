"""Where the board's render per pushed event goes: a trace and a CPU profile of the defender's page at 4×.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/limes_mine REDIS_URL=redis://127.0.0.1:6379/10 \\
        python bench/render_profile.py --moves 30 --port 18920 [--no-collectstatic]

The same world, server, page and moves as ``browser_bench.py render`` (the moves sent by the service); on top
of its probe, every handled frame is bracketed by ``performance.mark`` so the trace's work can be given to the
frame it belongs to. Prints, per frame: its events, script and forced layout (as the bench measures them), the
trace's style recalcs and layouts inside it (elements restyled, objects laid out, the layout's duration) and, for
the whole run, the functions with the most self time in the handlers and every layout outside the handlers
(timers, frames).
The raw trace is left in /tmp/render-profile-trace.json.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import browser_bench as bb  # noqa: E402
from bench.tactical.common import production_env, summary  # noqa: E402

# Marks around the probe's own handler wrapper; the probe runs first (an init script), this one after it.
MARKS = """
(() => {
  const add = WebSocket.prototype.addEventListener;
  let n = 0;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== "message") return add.call(this, type, listener, options);
    return add.call(this, type, (event) => {
      const i = n++;
      let types = "";
      try { const m = JSON.parse(event.data); types = m.type + ":" + (m.events || []).map((e) => e.type).join(","); } catch {}
      performance.mark(`frame-start-${i}|${types}`);
      listener.call(this, event);
      performance.mark(`frame-end-${i}`);
    }, options);
  };
})();
"""

CATEGORIES = ",".join(["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing",
                       "v8.execute", "disabled-by-default-devtools.timeline.stack"])


def profile(bench: bb.Bench, browser: Any, moves: int, rate: float, trace: bool = True) -> None:
    context = bench.context(browser, bench.world.west_leader)
    context.add_init_script(MARKS)
    defender = bench.board(context)
    cdp = defender.context.new_cdp_session(defender)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    defender.evaluate("() => { window.__bench.handled.length = 0; }")
    chunks: list[dict[str, Any]] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda e: chunks.extend(e["value"]))
    cdp.on("Tracing.tracingComplete", lambda e: done.append(True))
    if not trace:  # the bench's own figures per frame, with each frame's events, and nothing recorded besides
        bb.server_moves(bench, defender, bench.attacker_units[0]["id"], moves)
        kinds = defender.evaluate("() => performance.getEntriesByType('mark').filter((m) => m.name.startsWith('frame-start-'))"
                                  ".map((m) => m.name.split('|')[1])")
        for i, h in enumerate(defender.evaluate("() => window.__bench.handled")):
            print(f"{i:3d} {h['kind']:7s} {h['script'] + h['layout']:6.1f} = {h['script']:5.1f} + {h['layout']:5.1f}"
                  f"  {kinds[i] if i < len(kinds) else ''}")
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        return
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 50 if rate <= 1 else 200})
    cdp.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
    cdp.send("Profiler.start")
    bb.server_moves(bench, defender, bench.attacker_units[0]["id"], moves)
    defender.wait_for_timeout(1500)  # the clock's ticks with no event
    prof = cdp.send("Profiler.stop")["profile"]
    cdp.send("Tracing.end")
    while not done:
        defender.wait_for_timeout(100)
    handled = [h for h in defender.evaluate("() => window.__bench.handled")]
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    Path("/tmp/render-profile-trace.json").write_text(json.dumps(chunks))
    Path("/tmp/render-profile-extra.json").write_text(json.dumps({"profile": prof, "handled": handled}))
    report(chunks, prof, handled)


def report(events: list[dict[str, Any]], prof: dict[str, Any], handled: list[dict[str, Any]]) -> None:
    marks: dict[int, dict[str, Any]] = {}
    for e in events:
        name = e.get("name", "")
        if name.startswith("frame-start-"):
            i, _, types = name[len("frame-start-"):].partition("|")
            marks.setdefault(int(i), {}).update(start=e["ts"], types=types, tid=(e.get("pid"), e.get("tid")))
        elif name.startswith("frame-end-"):
            marks.setdefault(int(name[len("frame-end-"):]), {})["end"] = e["ts"]
    tid = next((m["tid"] for m in marks.values() if "tid" in m), None)
    main = sorted((e for e in events if (e.get("pid"), e.get("tid")) == tid and e.get("ph") == "X"), key=lambda e: e["ts"])
    tasks = [e for e in main if e["name"] == "RunTask"]
    work = [e for e in main if e["name"] in ("Layout", "UpdateLayoutTree")]

    cpu: dict[float, float] = {}

    def task_of(ts: float) -> tuple[float, float]:
        best = None
        for t in tasks:  # the outermost task around the mark: the handler, the forced layout and the rest
            if t["ts"] <= ts <= t["ts"] + t.get("dur", 0):
                best = t
                break
        if best:  # the task's thread time: the work done, without the time the thread was stopped or waited
            cpu[ts] = best.get("tdur", 0) / 1000
        return (best["ts"], best["ts"] + best.get("dur", 0)) if best else (ts, marks_end.get(ts, ts))

    marks_end = {m["start"]: m.get("end", m["start"]) for m in marks.values() if "start" in m}
    windows = []
    print(f"bench per event frame at this rate: {summary([h['script'] + h['layout'] for h in handled if h.get('kind') == 'event'])}")
    for i, m in sorted(marks.items()):
        if "start" not in m:
            continue
        a, b = task_of(m["start"])
        windows.append((a, b, i, m.get("types", ""), m["start"], m.get("end", b)))
    by_kind: dict[str, list[float]] = collections.defaultdict(list)
    print(f"{len(handled)} handled frames, {len(windows)} marked windows")
    inside: set[int] = set()
    for a, b, i, types, ms, me in windows:
        parts = []
        for j, e in enumerate(work):
            if a <= e["ts"] < b:
                inside.add(j)
                d = e.get("dur", 0) / 1000
                where = "h" if e["ts"] < me else "f"  # inside the handler (thrash) or the forced one after
                if e["name"] == "Layout":
                    bd = e.get("args", {}).get("beginData", {})
                    roots = e.get("args", {}).get("endData", {}).get("layoutRoots") or [{}]
                    parts.append(f"{where}L{bd.get('dirtyObjects')}/{bd.get('totalObjects')}"
                                 f"@{','.join(str(r.get('depth')) for r in roots)}:{d:.1f}")
                else:
                    parts.append(f"{where}S{(e.get('args', {}).get('elementCount'))}:{d:.1f}")
        task_cpu = cpu.get(ms, 0.0)
        if types.startswith("event:"):
            by_kind[types].append(task_cpu)
        print(f"{i:3d} task {(b - a) / 1000:6.1f} ms, thread time {task_cpu:5.1f} ms  {types[:44]:44s} {' '.join(parts)}")
    print("\nthread time of the task of each event frame, per kind (ms):")
    for types, values in sorted(by_kind.items(), key=lambda kv: -max(kv[1])):
        print(f"  {summary(values)}  {types}")
    outside = collections.Counter()
    out_ms = collections.Counter()
    for j, e in enumerate(work):
        if j in inside:
            continue
        key = e["name"]
        if e["name"] == "Layout":
            bd = e.get("args", {}).get("beginData", {})
            roots = e.get("args", {}).get("endData", {}).get("layoutRoots") or [{}]
            key += f" {bd.get('dirtyObjects')} dirty from depth {','.join(str(r.get('depth')) for r in roots)}"
        else:
            key += f" {e.get('args', {}).get('elementCount')} elements"
        outside[key] += 1
        out_ms[key] += e.get("dur", 0) / 1000
    span = (main[-1]["ts"] - main[0]["ts"]) / 1e6 if main else 0
    print(f"\nlayouts and style recalcs outside the handlers, over {span:.0f} s:")
    for key, n in outside.most_common(12):
        print(f"  {n:5d} x {key}: {out_ms[key]:.0f} ms")
    # Time per function inside the handlers' tasks (the profile's clock is the trace's).
    nodes = {n["id"]: n for n in prof["nodes"]}
    parent = {c: n["id"] for n in prof["nodes"] for c in n.get("children", [])}
    def label(n: dict[str, Any]) -> str:
        f = n["callFrame"]
        return f"{f['functionName'] or '(anon)'} {f['url'].rsplit('/', 1)[-1]}:{f['lineNumber'] + 1}"

    selfs: collections.Counter[str] = collections.Counter()
    incl: collections.Counter[str] = collections.Counter()
    ts = prof["startTime"]
    spans = sorted((a, b) for a, b, *_ in windows)
    k = 0
    for sample, delta in zip(prof["samples"], prof["timeDeltas"]):
        ts += delta
        while k < len(spans) and spans[k][1] < ts:
            k += 1
        if k >= len(spans) or not (spans[k][0] <= ts <= spans[k][1]):
            continue
        n = nodes[sample]
        selfs[label(n)] += delta
        seen = set()
        node = sample
        while node in nodes:
            lab = label(nodes[node])
            if lab not in seen:
                incl[lab] += delta
                seen.add(lab)
            node = parent.get(node)
    print("\ninside the handlers' tasks: self ms | inclusive ms, top 40 by inclusive:")
    for name, us in incl.most_common(40):
        print(f"  {selfs[name] / 1000:7.1f} | {us / 1000:7.1f}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--rate", type=float, default=4)
    parser.add_argument("--port", type=int, default=18920)
    parser.add_argument("--no-collectstatic", action="store_true")
    parser.add_argument("--no-trace", action="store_true", help="only the bench's figures per frame")
    parser.add_argument("--report-only", action="store_true", help="the last run's files in /tmp again")
    args = parser.parse_args()
    if args.report_only:
        extra = json.loads(Path("/tmp/render-profile-extra.json").read_text())
        report(json.loads(Path("/tmp/render-profile-trace.json").read_text()), extra["profile"], extra["handled"])
        return
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
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if not args.no_collectstatic:
        call_command("collectstatic", interactive=False, clear=True, verbosity=0)
    bench = bb.Bench(f"http://127.0.0.1:{args.port}")
    bench.setup_world()
    server = common.serve("uvicorn", env, tempfile.mkdtemp(prefix="limes-render-profile-"))
    try:
        common.wait_http(args.port)
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=bb.CHROMIUM, args=bb.CHROMIUM_ARGS)
            profile(bench, browser, args.moves, args.rate, not args.no_trace)
            browser.close()
    finally:
        common.stop(server)


if __name__ == "__main__":
    main()
