"""Growth benchmark: how pages cost as a campaign's log, its battles, its map and its history grow (issue 13).

Run it from the repository root against PostgreSQL (the logs are copied with PostgreSQL's SQL):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/limes REDIS_URL=redis://127.0.0.1:6379/0 \\
        python bench/growth_bench.py                       # every part, full sizes
    python bench/growth_bench.py --parts audit --small 2000 --large 10000 --runs 10   # quick look

Like bench/strategic_bench.py it creates a throw-away test database (``test_<name>``), bulk-loads it,
ANALYZEs it, measures whole requests with Django's test Client and drops it; the same baselines (a trivial
view through the same middleware, a one-row select) are measured in the same run. Parts:

- ``audit``: the audit log page (first page, a later page, filtered by battle, turn, unit and person) and
  its CSV and BBCode exports, with ``--small`` entries (10,000) and again after the same campaign's log
  grew to ``--large`` (200,000): campaign log entries and battle events, one turn (1,000 of each) at a
  time. The exports compared are those of one turn and of one battle, which hold the same rows in both
  logs; the whole log's export is reported too (time to its first byte and to its end, its peak memory),
  as it grows with the log by nature. Goal: ≤ 1.3× the small log's median.
- ``replay``: a battle of ``--versions`` versions (2,000) against one of 50: the replay page, one step
  (``?v=``, and its PNG) and the rebuild of the state from the log; the last-version page also with the
  replay checkpoints dropped before each request (its first request in a process).
- ``map``: the map page, the turn page and the roster index with 100 provinces, 60 factions, 20,000 units.
  Goal: each median ≤ 50 ms.
- ``history``: the campaign page and the turn page at turn 1 and after 50 turns of history (log entries,
  orders and battles): two campaigns built alike, one left at turn 1, asked for in alternation, request by
  request, so that a host whose speed drifts over the minutes slows both alike. Goal: ≤ 1.3× the turn-1 median.

``--profile`` prints the queries and hot functions of each measured request of the parts run.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from bench import strategic_bench as sb  # noqa: E402
from bench.growth import logs  # noqa: E402
from bench.growth.maps import grid_map  # noqa: E402

RATIO = 1.3
PAGE_MS = 50.0
Figures = dict[str, float]
ROWS: list[tuple[str, Figures | None, Figures, str]] = []


def get(client: Client, url: str, status: int = 200) -> Callable[[], Any]:
    def request() -> Any:
        response = client.get(url)
        assert response.status_code == status, (url, response.status_code, response.content[:300])
        if response.streaming:
            b"".join(response.streaming_content)
        return response

    return request


def first_byte(client: Client, url: str) -> Callable[[], Any]:
    """A request read up to its first chunk (a response that is not streamed is whole by then)."""
    def request() -> Any:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        if response.streaming:
            chunks = iter(response.streaming_content)
            next(chunks, b"")
            response.close()
        return response

    return request


def peak_kb(request: Callable[[], Any]) -> float:
    """Peak Python memory allocated during one call, in KB."""
    tracemalloc.start()
    try:
        request()
        return tracemalloc.get_traced_memory()[1] / 1024
    finally:
        tracemalloc.stop()


def row(name: str, small: Figures | None, large: Figures, verdict: str = "") -> None:
    ROWS.append((name, small, large, verdict))
    before = f"{small['median']:9.1f}" if small else f"{'':9}"
    print(f"{name:52} {before} {large['median']:9.1f} {large['p90']:8.1f} {large['p99']:8.1f}   {verdict}", flush=True)


def header(title: str, left: str, right: str) -> None:
    print(f"\n## {title}\n{'request (ms)':52} {left:>9} {right:>9} {'p90':>8} {'p99':>8}", flush=True)


def ratio_verdict(small: Figures, large: Figures, goal: float = RATIO) -> str:
    ratio = large["median"] / small["median"]
    return f"{ratio:.2f}× (≤ {goal}: {'met' if ratio <= goal else 'MISSED'})"


def timed(request: Callable[[], Any], runs: int, reset: Callable[[], object] | None = None) -> Figures:
    return sb.summary(sb.measure(request, runs, reset))


def timed_alternately(first: Callable[[], Any], second: Callable[[], Any], runs: int) -> tuple[Figures, Figures]:
    """Both requests ``runs`` times each, turn about, the one that goes first alternating."""
    for _ in range(3):
        first()
        second()
    times: tuple[list[float], list[float]] = ([], [])
    for i in range(runs):
        for which in ((0, 1) if i % 2 == 0 else (1, 0)):
            start = time.perf_counter()
            (first, second)[which]()
            times[which].append((time.perf_counter() - start) * 1000)
    return sb.summary(times[0]), sb.summary(times[1])


def baselines(args: argparse.Namespace, campaign_pk: int) -> None:
    from campaign.models import Campaign

    header("baselines", "", "median")

    def select_one() -> None:
        Campaign.objects.filter(pk=campaign_pk).values_list("pk", flat=True).get()

    row("baseline: trivial view", None, timed(get(Client(), "/bench/ping/"), args.runs))
    row("baseline: one-row select", None, timed(select_one, args.runs))


def audit_urls(world: Any, turn_one: Any) -> list[tuple[str, str]]:
    """(name, url) of the audit part's pages and exports compared between the two logs."""
    from campaign.models import LogEntry

    base = f"/c/{world.campaign.slug}/log/"
    middle = LogEntry.objects.filter(campaign=world.campaign, turn=turn_one.record.turn).order_by("id")[500]
    unit = next(iter(world.east_army.units.values_list("pk", flat=True)))
    return [
        ("log page: first", base),
        ("log page: a later page (after an entry of turn 2)", f"{base}?after=L{middle.pk}"),
        ("log page: one battle", f"{base}?battle={turn_one.pk}"),
        ("log page: one turn", f"{base}?turn={turn_one.record.turn}"),
        ("log page: one unit", f"{base}?unit={unit}"),
        ("log page: one person", f"{base}?person=west_leader"),
        ("CSV export: one turn (2,000 rows)", f"{base}export.csv?turn={turn_one.record.turn}"),
        ("CSV export: one battle", f"{base}export.csv?battle={turn_one.pk}"),
        ("BBCode export: one turn (2,000 rows)", f"{base}export.txt?turn={turn_one.record.turn}"),
    ]


def audit_cases(world: Any, turn_one: Any) -> list[tuple[str, Callable[[], Any], bool]]:
    """(name, request, compared with the small log?) of the audit part."""
    anonymous = Client()
    base = f"/c/{world.campaign.slug}/log/"
    cases = audit_urls(world, turn_one)
    made = [(name, get(anonymous, url), True) for name, url in cases]
    made += [
        ("CSV export: the whole log, first byte", first_byte(anonymous, f"{base}export.csv"), False),
        ("CSV export: the whole log", get(anonymous, f"{base}export.csv"), False),
    ]
    return made


def run_audit(args: argparse.Namespace) -> None:
    from bench.growth.logs import ENTRIES_PER_TURN, EVENTS_PER_TURN

    started = time.perf_counter()
    world, battle = logs.played_battle(args.versions)
    print(f"a battle of {battle.version} versions played in {time.perf_counter() - started:.1f} s", flush=True)
    per_turn = ENTRIES_PER_TURN + EVENTS_PER_TURN
    have = sum(logs.log_size(world.campaign))
    small_turns = max(1, round((args.small - have) / per_turn))
    started = time.perf_counter()
    logs.log_turns(world, battle, 2, 1 + small_turns)
    logs.analyze()
    small_size = logs.log_size(world.campaign)
    print(f"log of {sum(small_size):,} rows ({small_size[0]:,} entries, {small_size[1]:,} battle events) "
          f"built in {time.perf_counter() - started:.1f} s", flush=True)
    from tactical.models import LiveBattle

    turn_two = LiveBattle.objects.get(campaign=world.campaign, record__turn=2)
    cases = audit_cases(world, turn_two)
    small: dict[str, Figures] = {}
    memory: dict[str, float] = {}
    for name, request, _compared in cases:
        small[name] = timed(request, args.runs if _compared else max(3, args.runs // 10))
    memory["small"] = peak_kb(cases[-1][1])
    if args.profile:
        for name, request, _ in cases:
            sb.profile(f"{name} ({sum(small_size):,})", request)

    started = time.perf_counter()
    large_turns = max(small_turns, round((args.large - sum(small_size)) / per_turn))
    first = 2 + small_turns
    step = 20
    for low in range(first, first + large_turns, step):
        logs.log_turns(world, battle, low, min(low + step, first + large_turns) - 1)
    logs.analyze()
    large_size = logs.log_size(world.campaign)
    world.campaign.turn = first + large_turns - 1
    world.campaign.save(update_fields=["turn"])
    print(f"log grown to {sum(large_size):,} rows ({large_size[0]:,} entries, {large_size[1]:,} battle events) "
          f"in {time.perf_counter() - started:.1f} s", flush=True)
    header(f"audit log: {sum(small_size):,} against {sum(large_size):,} rows", f"{sum(small_size) // 1000}k",
           f"{sum(large_size) // 1000}k")
    for name, request, compared in cases:
        large = timed(request, args.runs if compared else max(3, args.runs // 10))
        row(name, small[name], large, ratio_verdict(small[name], large) if compared else "(grows with the log)")
    memory["large"] = peak_kb(cases[-1][1])
    print(f"whole CSV export, peak Python memory: {memory['small']:,.0f} KB at {sum(small_size):,} rows, "
          f"{memory['large']:,.0f} KB at {sum(large_size):,}")
    if args.profile:
        for name, request, _ in cases:
            sb.profile(f"{name} ({sum(large_size):,})", request)
    if args.explain:
        explain_audit([url for name, url in audit_urls(world, turn_two) if name.startswith("log page")])


def explain_audit(urls: list[str]) -> None:
    """EXPLAIN ANALYZE of every query of the log's pages."""
    from django.test.utils import CaptureQueriesContext

    client = Client()
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        print(f"\n--- EXPLAIN ANALYZE: {url}")
        with connection.cursor() as cursor:
            for query in queries.captured_queries:
                sql = query["sql"]
                if not sql.startswith("SELECT") or "django_session" in sql:
                    continue
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS OFF) " + sql)
                plan = [r[0] for r in cursor.fetchall()]
                print(f"{float(query['time']) * 1000:7.1f} ms  {sql[:160]}")
                print("\n".join("           " + line for line in plan[:12]))


def run_replay(args: argparse.Namespace) -> None:
    from datetime import datetime

    from moderation.selectors import replay
    from moderation.selectors.replay import replay_steps
    from tactical.models import LiveBattle
    from tactical.selectors.replay import state_rebuild

    started = time.perf_counter()
    world, battle = logs.played_battle(args.versions)
    short = logs.battle_copy(battle, turn=1, versions=50, at=datetime.now().astimezone() - timedelta(days=1))
    print(f"a battle of {battle.version} versions played in {time.perf_counter() - started:.1f} s", flush=True)
    logs.analyze()
    slug = world.campaign.slug
    client = Client()
    header(f"replay: a battle of 50 against {battle.version} versions", "50", f"{battle.version}")
    runs = max(5, args.runs // 5)
    for name, make in (
        ("replay page (last version)", lambda b: get(client, f"/c/{slug}/battles/{b.pk}/replay/")),
        ("replay page, one step (?v=40)", lambda b: get(client, f"/c/{slug}/battles/{b.pk}/replay/?v=40")),
        ("one step as PNG (v40)", lambda b: get(client, f"/c/{slug}/battles/{b.pk}/replay/40.png")),
        ("rebuild from the log (state_rebuild)",
         lambda b: lambda: state_rebuild(LiveBattle.objects.get(pk=b.pk))),
        ("replay steps (replay_steps)", lambda b: lambda: replay_steps(battle=LiveBattle.objects.get(pk=b.pk))),
    ):
        small, large = timed(make(short), runs), timed(make(battle), runs)
        row(name, small, large, f"{large['median'] / small['median']:.1f}×")
    # The page replays a block from the checkpoint an earlier replay kept: its first request in a process
    # (nothing kept yet) still replays the whole log, and is measured apart with the checkpoints dropped.
    small, large = (
        timed(get(client, f"/c/{slug}/battles/{b.pk}/replay/"), runs, replay._checkpoints.clear)
        for b in (short, battle)
    )
    row("replay page (last version), no checkpoint kept", small, large, f"{large['median'] / small['median']:.1f}×")
    if args.profile:
        sb.profile("replay page (long, no checkpoint kept)", get(client, f"/c/{slug}/battles/{battle.pk}/replay/"))
        sb.profile("replay page (long)", get(client, f"/c/{slug}/battles/{battle.pk}/replay/"))
        sb.profile("replay step png (long)", get(client, f"/c/{slug}/battles/{battle.pk}/replay/40.png"))


def run_map(args: argparse.Namespace, moderator: Any) -> None:
    from campaign.models import Campaign
    from strategic.models import Unit

    started = time.perf_counter()
    world = sb.build(moderator, slug="grid", factions_count=args.factions, units_count=args.units,
                     map_data=grid_map(args.provinces))
    campaign = world["campaign"]
    assert isinstance(campaign, Campaign)
    print(f"built in {time.perf_counter() - started:.1f} s: {campaign.provinces.count()} provinces, "
          f"{campaign.factions.count()} factions, {Unit.objects.filter(campaign=campaign).count():,} units",
          flush=True)
    player = Client()
    player.force_login(moderator)
    header(f"strategic pages: {args.provinces} provinces, {args.factions} factions, {args.units:,} units", "",
           "median")
    cases = [("map page", f"/c/{campaign.slug}/map/"), ("turn page", f"/c/{campaign.slug}/turn/"),
             ("roster index", f"/c/{campaign.slug}/rosters/")]
    for name, url in cases:
        figures = timed(get(player, url), args.runs)
        row(name, None, figures, f"≤ {PAGE_MS:.0f}: {'met' if figures['median'] <= PAGE_MS else 'MISSED'}")
    if args.profile:
        for name, url in cases:
            sb.profile(name, get(player, url))


def history(campaign: Any, turns: int, moderator: Any) -> None:
    """``turns`` turns of history: per turn 300 log entries (orders, captures), 5 resolved battles and their
    log lines; the campaign then stands at turn ``turns + 1``."""
    from campaign.models import Campaign, LogEntry
    from strategic.models import Army, Battle

    armies = list(Army.objects.filter(campaign=campaign).select_related("province")[:50])
    provinces = list(campaign.provinces.all())
    start = logs.START
    entries, battles = [], []
    for turn in range(1, turns + 1):
        at = start + timedelta(days=turn)
        for n in range(300):
            army = armies[n % len(armies)]
            entries.append(LogEntry(
                campaign=campaign, turn=turn, created_at=at + timedelta(seconds=n), kind="army_moved", rule="S5",
                actor=moderator, data={"army": army.pk, "faction": army.faction_id, "from": army.province.code,
                                       "to": provinces[n % len(provinces)].code, "border": "normal"}))
        for n in range(5):
            army = armies[(turn + n) % len(armies)]
            battles.append(Battle(
                campaign=campaign, turn=turn, province=provinces[n], origin=provinces[n + 1], terrain="field",
                attacker_army=army, attacker_faction_id=army.faction_id,
                defender_faction_id=armies[(turn + n + 1) % len(armies)].faction_id,
                status=Battle.Status.RESOLVED, winner="attacker", created_at=at, resolved_at=at))
    LogEntry.objects.bulk_create(entries, batch_size=2000)
    Battle.objects.bulk_create(battles)
    Campaign.objects.filter(pk=campaign.pk).update(turn=turns + 1)
    logs.analyze()


def run_history(args: argparse.Namespace, moderator: Any) -> None:
    from campaign.models import Campaign

    start = sb.build(moderator, slug="history-start")["campaign"]
    campaign = sb.build(moderator, slug="history")["campaign"]
    assert isinstance(start, Campaign) and isinstance(campaign, Campaign)
    player = Client()
    player.force_login(moderator)
    started = time.perf_counter()
    history(campaign, args.turns, moderator)
    print(f"{args.turns} turns of history added in {time.perf_counter() - started:.1f} s", flush=True)
    header(f"a campaign at turn 1 and one after {args.turns} turns, asked for in turn", "turn 1",
           f"turn {args.turns + 1}")
    cases = [("campaign page", "/c/{}/"), ("turn page", "/c/{}/turn/")]
    for name, url in cases:
        before, after = timed_alternately(get(player, url.format(start.slug)), get(player, url.format(campaign.slug)),
                                          args.runs)
        row(name, before, after, ratio_verdict(before, after))
    if args.profile:
        for name, url in cases:
            sb.profile(f"{name} at turn 1", get(player, url.format(start.slug)))
            sb.profile(f"{name} at turn {args.turns + 1}", get(player, url.format(campaign.slug)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="audit,replay,map,history",
                        help="comma-separated parts to run (default: audit,replay,map,history)")
    parser.add_argument("--runs", type=int, default=50, help="timed requests per measurement (default 50)")
    parser.add_argument("--small", type=int, default=10_000, help="rows of the short audit log (10,000)")
    parser.add_argument("--large", type=int, default=200_000, help="rows of the long audit log (200,000)")
    parser.add_argument("--versions", type=int, default=2000, help="versions of the long battle (2,000)")
    parser.add_argument("--provinces", type=int, default=100)
    parser.add_argument("--factions", type=int, default=60)
    parser.add_argument("--units", type=int, default=20_000)
    parser.add_argument("--turns", type=int, default=50, help="turns of history (50)")
    parser.add_argument("--profile", action="store_true", help="print queries and hot functions per request")
    parser.add_argument("--explain", action="store_true", help="EXPLAIN ANALYZE the audit page's queries")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("the growth bench needs PostgreSQL: set DATABASE_URL")

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    load = os.getloadavg()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {commit}{' (+ changes)' if dirty else ''}, "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
    try:
        with override_settings(ROOT_URLCONF="bench.strategic_bench", DEBUG=False,
                               PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
            parts = [p.strip() for p in args.parts.split(",") if p.strip()]
            for part in parts:
                if part in ("audit", "replay"):
                    (run_audit if part == "audit" else run_replay)(args)
                    from campaign.models import Campaign

                    baselines(args, Campaign.objects.get(slug="limes").pk)
                else:
                    moderator = get_user_model().objects.create_user(f"bench-{part}", password="x")
                    (run_map if part == "map" else run_history)(args, moderator)
                    from campaign.models import Campaign

                    baselines(args, Campaign.objects.order_by("-pk").values_list("pk", flat=True)[0])
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    version = ".".join(map(str, connection.get_database_version()))
    print(f"\nPostgreSQL {version}; python {platform.python_version()}; {platform.machine()} {os.cpu_count()} cpus; "
          f"load average {os.getloadavg()[0]:.2f} at the end ({load[0]:.2f} at the start)")


if __name__ == "__main__":
    main()
