"""Strategic benchmark: the roster pages, the map page and an army move with 30 factions and 3,000 units.

Run it from the repository root:

    python bench/strategic_bench.py                      # SQLite in memory
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/limes python bench/strategic_bench.py   # test_limes on PG

It never touches real data: like the test runner it creates a throw-away test database (``test_<name>``),
fills it with bulk_create, measures with Django's test Client and drops it. Each figure is the time of one
whole request through the middleware, views, templates and database (the client adds no network). A
baseline measured in the same run (a trivial view through the same middleware, and a one-row select) shows
what the machine gives for nothing. ``--profile`` prints, for each measured request, its queries and the
functions that take most time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth import get_user_model
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext, setup_test_environment
from django.urls import include, path
from django.utils import timezone

FACTIONS = 30
UNITS = 3000
ARMIES_PER_FACTION = 10
COMMANDERS_PER_FACTION = 4
# What a forum reader opens: the roster index (one line per faction) and one faction's roster (100 units,
# its BBCode on the page), the files offered there, and the map.
TARGETS_MS = {
    "roster index (30 factions)": 50.0,
    "faction roster page (100 units)": 50.0,
    "faction roster JSON (100 units)": 50.0,
    "faction roster BBCode (100 units)": 50.0,
    "map page": 50.0,
    "army move (API)": 20.0,
}


def ping(request: HttpRequest) -> HttpResponse:
    """The baseline: a view that does nothing, behind the same middleware."""
    return HttpResponse("ok")


# This module is the URL configuration during the run: the app's routes plus the baseline view.
urlpatterns = [path("bench/ping/", ping), path("", include("config.urls"))]


def build(
    moderator: object,
    *,
    slug: str = "bench",
    factions_count: int = FACTIONS,
    units_count: int = UNITS,
    map_data: dict[str, object] | None = None,
) -> dict[str, object]:
    """A campaign of ``factions_count`` factions and ``units_count`` units in armies, on the demo map (or
    ``map_data``); the first faction acts."""
    from campaign.models import Campaign, Commander, Faction, Relation
    from campaign.services import campaign_create
    from strategic.demo.loader import demo_data, demo_map
    from strategic.models import Army, Border, Province, Unit, UnitType
    from strategic.services.map_file import map_import

    campaign = campaign_create(actor=moderator, slug=slug, name_en=slug.title(), name_ru=slug.title())
    map_import(actor=moderator, campaign=campaign, data=map_data or demo_map())
    factions = Faction.objects.bulk_create(
        [
            Faction(
                campaign=campaign,
                slug=f"f{i:02d}",
                name_en=f"Faction {i}",
                name_ru=f"Фракция {i}",
                color=f"#{(i * 8) % 256:02x}40{(255 - i * 8) % 256:02x}",
                turn_order=i,
                naval_capacity=i % 4,
            )
            for i in range(factions_count)
        ]
    )
    factions = list(Faction.objects.filter(campaign=campaign).order_by("turn_order"))
    # Neighbours in turn order are at war, every third pair allied: the relations map has real rows.
    relations = []
    for i in range(factions_count):
        a, b = factions[i], factions[(i + 1) % factions_count]
        low, high = sorted((a, b), key=lambda f: f.pk)
        relations.append(Relation(campaign=campaign, a=low, b=high, kind="war" if i % 3 else "allied"))
    Relation.objects.bulk_create(relations, ignore_conflicts=True)

    provinces = list(Province.objects.filter(campaign=campaign).order_by("code"))
    home = provinces[0]
    neighbour_ids = {
        b.b_id if b.a_id == home.pk else b.a_id
        for b in Border.objects.filter(campaign=campaign).exclude(kind="impassable")
        if home.pk in (b.a_id, b.b_id)
    }
    spare = next(p for p in provinces if p.pk in neighbour_ids)
    others = [p for p in provinces if p.pk not in (home.pk, spare.pk)]
    seats = [home] + others[: factions_count - 1]
    for faction, province in zip(factions, seats):
        province.controller = faction
        province.capital_of = faction
    spare.controller = factions[0]
    Province.objects.bulk_update(seats + [spare], ["controller", "capital_of"])

    cards = UnitType.objects.bulk_create(
        [
            UnitType(
                campaign=campaign,
                code=c["code"],
                name_en=c["name_en"],
                name_ru=c["name_ru"],
                unit_class=c["unit_class"],
                mounted=c.get("mounted", False),
                health=c["health"],
                damage=c["damage"],
                missile=c.get("missile", False),
                arrows=c.get("arrows", 0),
                missile_damage=c.get("missile_damage"),
                morale=c.get("morale", 10),
            )
            for c in demo_data()["unit_types"]
        ]
    )
    cards = list(UnitType.objects.filter(campaign=campaign).order_by("code"))
    Commander.objects.bulk_create(
        [
            Commander(
                campaign=campaign,
                faction=f,
                name=f"Commander {f.turn_order}-{k}",
                rank="leader" if k == 0 else "general",
                strategy=10 + k,
                tactics=10,
            )
            for f in factions
            for k in range(COMMANDERS_PER_FACTION)
        ]
    )
    commanders: dict[int, list[Commander]] = {}
    for commander in Commander.objects.filter(campaign=campaign).order_by("pk"):
        commanders.setdefault(commander.faction_id, []).append(commander)
    Army.objects.bulk_create(
        [
            Army(
                campaign=campaign,
                faction=f,
                commander=commanders[f.pk][k % COMMANDERS_PER_FACTION],
                province=province,
                name=f"Army {f.turn_order}-{k}",
            )
            for f, province in zip(factions, seats)
            for k in range(ARMIES_PER_FACTION)
        ]
    )
    armies = list(Army.objects.filter(campaign=campaign).order_by("pk"))
    per_army = units_count // len(armies)
    Unit.objects.bulk_create(
        [
            Unit(
                campaign=campaign,
                faction_id=army.faction_id,
                army=army,
                unit_type=card,
                name=f"{card.name_en} {army.pk}-{n}",
                health_halves=int(card.health * 2),
                arrows=card.arrows,
            )
            for army in armies
            for n in range(per_army)
            for card in [cards[(army.pk + n) % len(cards)]]
        ],
        batch_size=1000,
    )
    for faction in factions:
        Faction.objects.filter(pk=faction.pk).update(leader=commanders[faction.pk][0])
    Campaign.objects.filter(pk=campaign.pk).update(
        phase="strategic", current_faction=factions[0], faction_deadline=timezone.now() + timedelta(days=30)
    )
    if connection.vendor == "postgresql":
        # A live database has planner statistics and a visibility map for index-only scans (autovacuum);
        # bulk-loaded tables have neither until it runs, and it might run in the middle of the measurement.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    mover = Army.objects.filter(faction=factions[0]).order_by("pk").first()
    return {"campaign": campaign, "mover": mover, "home": home, "spare": spare}


def measure(
    request: Callable[[], object], runs: int, reset: Callable[[], object] | None = None
) -> list[float]:
    """Milliseconds of ``runs`` calls after a few warm-up calls; ``reset`` runs between calls, untimed."""
    for _ in range(3):
        request()
        if reset:
            reset()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        request()
        times.append((time.perf_counter() - start) * 1000)
        if reset:
            reset()
    return times


def summary(times: list[float]) -> dict[str, float]:
    """Median, p90 and p99 in milliseconds."""
    ordered = sorted(times)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]

    return {"median": statistics.median(ordered), "p90": pct(90), "p99": pct(99)}


def profile(name: str, request: Callable[[], object]) -> None:
    """The queries of one request (grouped by statement) and the functions that took most time."""
    with CaptureQueriesContext(connection) as queries:
        profiler = cProfile.Profile()
        profiler.enable()
        request()
        profiler.disable()
    print(
        f"\n--- profile: {name}: {len(queries.captured_queries)} queries, "
        f"{sum(float(q['time']) for q in queries.captured_queries) * 1000:.1f} ms in the database"
    )
    # By the database's time: the statement that costs most is the one to look at first, not the commonest.
    shapes: Counter[str] = Counter()
    costs: Counter[str] = Counter()
    for query in queries.captured_queries:
        shape = query["sql"].split(" WHERE ")[0][:150]
        shapes[shape] += 1
        costs[shape] += float(query["time"]) * 1000
    for sql, cost in costs.most_common(10):
        print(f"  {shapes[sql]:4d} × {cost:5.1f} ms  {sql}")
    for order, restriction, count in (("cumulative", rf"^(?!.*\.venv){re.escape(str(ROOT))}/", int(os.environ.get("PROFILE_LINES", "12"))), ("tottime", "", 10)):
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out).sort_stats(order)
        stats.print_stats(*(r for r in (restriction, count) if r != ""))
        lines = out.getvalue().splitlines()
        start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls")), 0)
        print(f"  by {order}:")
        print("\n".join("  " + line[:180] for line in lines[start:] if line.strip()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100, help="timed requests per measurement (default 100)")
    parser.add_argument("--profile", action="store_true", help="print queries and hot functions per request")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        with override_settings(
            ROOT_URLCONF=__name__,
            DEBUG=False,
            PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        ):
            run(args)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(args: argparse.Namespace) -> None:
    from campaign.models import Campaign
    from strategic.models import Army, Unit

    load_before = os.getloadavg()[0]
    moderator = get_user_model().objects.create_user("bench-moderator", password="x")
    started = time.perf_counter()
    world = build(moderator)
    campaign, mover, home, spare = world["campaign"], world["mover"], world["home"], world["spare"]
    assert isinstance(campaign, Campaign) and isinstance(mover, Army)
    print(
        f"built in {time.perf_counter() - started:.1f} s: {campaign.factions.count()} factions, "
        f"{Army.objects.filter(campaign=campaign).count()} armies, {Unit.objects.filter(campaign=campaign).count()} "
        f"units, {campaign.provinces.count()} provinces"
    )

    anonymous, player = Client(), Client()
    player.force_login(moderator)
    slug = campaign.slug
    move_url = f"/api/campaigns/{slug}/armies/{mover.pk}/move/"
    big = mover.faction.slug
    assert Unit.objects.filter(faction=mover.faction).count() == UNITS // FACTIONS

    def move() -> None:
        response = player.post(move_url, {"destination": spare.pk}, content_type="application/json")
        assert response.status_code == 200, (response.status_code, response.content[:300])

    def reset_move() -> None:
        Army.objects.filter(pk=mover.pk).update(province=home, moved_turn=None)

    def get(client: Client, url: str) -> Callable[[], None]:
        def request() -> None:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)

        return request

    def select_one() -> None:
        Campaign.objects.filter(pk=campaign.pk).values_list("pk", flat=True).get()

    cases: list[tuple[str, Callable[[], object], Callable[[], object] | None]] = [
        ("baseline: trivial view", get(anonymous, "/bench/ping/"), None),
        ("baseline: one-row select", select_one, None),
        ("roster index (30 factions)", get(anonymous, f"/c/{slug}/rosters/"), None),
        ("faction roster page (100 units)", get(anonymous, f"/c/{slug}/rosters/{big}/"), None),
        ("faction roster JSON (100 units)", get(anonymous, f"/c/{slug}/rosters/{big}/roster.json"), None),
        ("faction roster BBCode (100 units)", get(anonymous, f"/c/{slug}/rosters/{big}/roster.txt"), None),
        ("all rosters JSON (3,000 units)", get(anonymous, f"/c/{slug}/roster.json"), None),
        ("map page", get(player, f"/c/{slug}/map/"), None),
        ("army move (API)", move, reset_move),
    ]
    results = {}
    print(f"\n{'request':36} {'median':>8} {'p90':>8} {'p99':>8}   target (ms)   runs={args.runs}")
    for name, request, reset in cases:
        figures = summary(measure(request, args.runs, reset))
        results[name] = figures
        target = TARGETS_MS.get(name)
        verdict = (
            "" if target is None else f"≤ {target:.0f} {'ok' if figures['median'] <= target else 'MISSED'}"
        )
        print(f"{name:36} {figures['median']:8.1f} {figures['p90']:8.1f} {figures['p99']:8.1f}   {verdict}")
    version = ".".join(map(str, connection.get_database_version()))
    print(
        f"\ndatabase: {connection.vendor} {version}; python {platform.python_version()}; {platform.machine()} "
        f"{os.cpu_count()} cpus; load average {os.getloadavg()[0]:.1f} at the end ({load_before:.1f} at the start)"
    )
    if args.profile:
        for name, request, reset in cases[2:]:
            profile(name, request)
            if reset:
                reset()
    if args.json:
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
