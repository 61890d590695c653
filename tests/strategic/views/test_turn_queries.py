"""The turn page reads a fixed number of queries whatever the number of the faction's armies (S2, S5, S7, S8)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign import services as campaign_services
from campaign.models import Campaign
from strategic.models import Army, Battle
from strategic.render.map_data import map_data
from strategic.selectors.map import (
    army_move_blocker,
    army_move_blockers,
    legal_destinations,
    legal_destinations_of,
    open_battles,
    unit_counts_by_province,
)
from strategic.services import moves
from tests.factories import ArmyFactory, UnitFactory

# The page's queries for each viewer, whatever the number of armies: session, user, profile, campaign, the
# viewer's membership (read once for every check of the page), the faction's armies (2: the armies, their units
# as rows), the unresolved battles (read once for the cards and the map's refusals; the pending ones in full only
# when there is one), the cards (units, the borders of every province the page asks about, relations 2,
# transitions; the units in the destinations are the map's counts, not read again), the refusals of the map (none
# more: the provinces are the map's), the rest of the page (leader, loose units, commanders, map 5, ...); a
# general, no leader, is asked about his commanders too.
QUERIES = {"east_leader": 23, "east_general": 25, "moderator": 24}
# With a pending battle: its supporters, the pending battles in full and their supports (its province's borders
# come with the cards').
QUERIES_WITH_BATTLE = {"east_leader": 26, "east_general": 28, "moderator": 27}


@pytest.fixture
def east_turn(world: Any) -> Any:
    """The strategic phase has begun: Eastern Rome (first in turn order) acts."""
    campaign_services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    return world


def _count(client: Any, selected: Army) -> tuple[int, str]:
    # The army shown on the map is named: which one it is changes the refusals read for the map, not the cards.
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/c/limes/turn/?faction=east&army={selected.pk}")
    assert response.status_code == 200
    return len(queries.captured_queries), response.content.decode()


def _army(w: Any, name: str, where: Any, units: int, commander: Any = None, **fields: Any) -> Army:
    army = ArmyFactory(faction=w.east, commander=commander or w.belisarius, province=where, name=name)
    for _ in range(units):
        UnitFactory(faction=w.east, unit_type=w.infantry, army=army)
    if fields:
        Army.objects.filter(pk=army.pk).update(**fields)
        army.refresh_from_db()
    return army


def _more_armies(w: Any) -> list[Army]:
    """Eight more armies of every state a card shows: free to move (from two provinces), moved, empty, bound to
    retreat, led by a commander without a player, and one engaged in the pending battle as a supporter."""
    turn = Campaign.objects.get(pk=w.campaign.pk).turn
    return [
        _army(w, "Z free", w.dacia, 2),
        _army(w, "Z free in Moesia", w.moesia, 3),
        _army(w, "Z moved", w.moesia, 1, moved_turn=turn),
        _army(w, "Z empty", w.dacia, 0),
        _army(w, "Z beaten", w.dacia, 1, must_retreat=True),
        _army(w, "Z of Narses", w.moesia, 2, commander=w.narses),
        _army(w, "Z of Narses in Dacia", w.dacia, 1, commander=w.narses),
        _army(w, "Z second", w.dacia, 4),
    ]


@pytest.mark.parametrize("viewer", sorted(QUERIES))
def test_the_turn_page_reads_as_many_queries_for_ten_armies_as_for_two(
    east_turn: Any, client: Any, viewer: str
) -> None:
    w = east_turn
    second = _army(w, "Second army", w.moesia, 1)
    client.force_login(getattr(w, viewer))
    few, _ = _count(client, second)
    _more_armies(w)
    many, page = _count(client, second)
    assert Army.objects.filter(faction=w.east).count() == 10
    assert (few, many) == (QUERIES[viewer], QUERIES[viewer])
    assert "Z free in Moesia" in page


@pytest.mark.parametrize("viewer", sorted(QUERIES))
def test_with_a_pending_battle_the_count_does_not_grow_either(east_turn: Any, client: Any, viewer: str) -> None:
    w = east_turn
    second = _army(w, "Second army", w.moesia, 1)
    outcome = moves.army_move(actor=w.east_general, army=w.east_army, destination=w.dalmatia)
    assert outcome.battle is not None and outcome.battle.status == Battle.Status.PENDING
    client.force_login(getattr(w, viewer))
    few, _ = _count(client, second)
    _more_armies(w)
    many, page = _count(client, second)
    assert (few, many) == (QUERIES_WITH_BATTLE[viewer], QUERIES_WITH_BATTLE[viewer])
    assert "This army has already moved this turn (S5)." in page


def test_the_batched_rules_answer_as_the_single_army_ones(east_turn: Any) -> None:
    w = east_turn
    _army(w, "Second army", w.moesia, 1)
    moves.army_move(actor=w.east_general, army=w.east_army, destination=w.dalmatia)
    campaign = Campaign.objects.get(pk=w.campaign.pk)
    _more_armies(w)
    _army(w, "Z at the battle", w.dalmatia, 1)  # stands where the battle is pending
    armies = list(Army.objects.filter(faction=w.east).select_related("province", "faction").order_by("name"))
    for army in armies:
        army.campaign = campaign
    blockers = army_move_blockers(campaign=campaign, armies=armies)
    assert {a.name: blockers[a.id] for a in armies} == {a.name: army_move_blocker(army=a) for a in armies}
    battles = open_battles(campaign=campaign)  # the battles read once for the page answer the same
    assert army_move_blockers(campaign=campaign, armies=armies, battles=battles) == blockers
    assert {a.name: (b[1] if b else None) for a in armies for b in [blockers[a.id]]} == {
        "Danube army": "S5",
        "Second army": None,
        "Z at the battle": "S7",
        "Z beaten": "S10",
        "Z empty": "S2",
        "Z free": None,
        "Z free in Moesia": None,
        "Z moved": "S5",
        "Z of Narses": None,
        "Z of Narses in Dacia": None,
        "Z second": None,
    }
    free = [a for a in armies if blockers[a.id] is None]
    legal = legal_destinations_of(campaign=campaign, armies=free)
    assert {a.name: legal[a.id] for a in free} == {a.name: legal_destinations(army=a) for a in free}
    assert legal_destinations_of(campaign=campaign, armies=free, battles=battles) == legal
    # The map's counts of every province are the counts the legal moves read (units in armies and loose ones).
    UnitFactory(faction=w.west, unit_type=w.infantry, army=None, province=w.pannonia)
    counts = map_data(campaign=campaign).unit_counts
    everywhere = unit_counts_by_province(province_ids=campaign.provinces.values_list("id", flat=True))
    assert counts == {pk: by_faction for pk, by_faction in everywhere.items() if by_faction}
    assert counts[w.pannonia.pk][w.west.pk] == 1  # Pannonia was open to capture: no western unit stood there
    with_counts = legal_destinations_of(campaign=campaign, armies=free, battles=battles, counts=counts)
    assert with_counts == legal_destinations_of(campaign=campaign, armies=free)
    # The western unit now standing in Pannonia is what the moves into it see.
    assert sorted((d.province.code, d.kind) for d in with_counts[next(a.id for a in free if a.name == "Z free")]) == [
        ("moesia", "move"),
        ("pannonia", "battle"),
    ]
    assert {a.name: sorted((d.province.code, d.kind) for d in legal[a.id]) for a in free} == {
        "Second army": [("armenia", "move"), ("dacia", "move"), ("italia", "capture")],
        "Z free": [("moesia", "move"), ("pannonia", "capture")],
        "Z free in Moesia": [("armenia", "move"), ("dacia", "move"), ("italia", "capture")],
        "Z of Narses": [("armenia", "move"), ("dacia", "move"), ("italia", "capture")],
        "Z of Narses in Dacia": [("moesia", "move"), ("pannonia", "capture")],
        "Z second": [("moesia", "move"), ("pannonia", "capture")],
    }
