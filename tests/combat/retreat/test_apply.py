"""R1–R5 through the Python API: frozen values, deterministic order, and the mixed outcomes."""

from __future__ import annotations

import dataclasses
import json

import pytest

from combat.errors import IllegalAction
from combat.retreat.apply import apply_retreat
from combat.retreat.model import ArmyUnit, Border, Fortress, Province, RetreatChoice, RetreatInput, Side
from combat.retreat.routes import retreat_options

UNITS = (ArmyUnit("a", 5), ArmyUnit("b", 4), ArmyUnit("c", 2))


def square(
    order: int = 1, fortress: Fortress | None = None, units: tuple[ArmyUnit, ...] = UNITS
) -> RetreatInput:
    """Fregellae with two equally near friendly provinces, Casinum and Sora, each reached two ways."""
    provinces = [
        Province(
            "Fregellae",
            "Rome",
            fortress=fortress,
            units={"Samnites": 4, "Rome": fortress.garrison if fortress else 0},
        ),
        Province("Samnium", "Samnites"),
        Province("Casinum", "Rome"),
        Province("Sora", "Latins"),
        Province("Aquinum", None),
    ]
    borders = [
        Border("Fregellae", "Samnium"),
        Border("Fregellae", "Casinum"),
        Border("Fregellae", "Sora"),
        Border("Fregellae", "Aquinum"),
        Border("Aquinum", "Casinum"),
    ]
    return RetreatInput(
        faction="Rome",
        side=Side.DEFENDER,
        units=units,
        battle_province="Fregellae",
        attacker_origin="Samnium",
        provinces={p.name: p for p in provinces[::order]},
        borders=tuple(borders[::order]),
        allies=frozenset({"Latins"}),
        enemies=frozenset({"Samnites"}),
    )


def test_r1_options_do_not_depend_on_the_order_of_the_map() -> None:
    assert retreat_options(square(1)) == retreat_options(square(-1))


def test_r1_every_legal_route_to_the_nearest_provinces_shortest_first() -> None:
    routes = [r.path for r in retreat_options(square()).routes]
    assert routes == [("Casinum",), ("Sora",), ("Aquinum", "Casinum")]


def test_r1_a_detour_to_the_nearest_province_is_a_legal_route() -> None:
    result = apply_retreat(square(), RetreatChoice(route=("Aquinum", "Casinum")))
    assert (result.destination, result.path, result.penalty) == ("Casinum", ("Aquinum", "Casinum"), 0)


def test_r1_the_input_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        square().faction = "Carthage"  # type: ignore[misc]


def test_r3_units_in_the_city_and_the_rest_destroyed_when_it_cannot_retreat() -> None:
    inp = dataclasses.replace(
        square(fortress=Fortress("Rome", 3, 2)), borders=(Border("Fregellae", "Samnium"),)
    )
    result = apply_retreat(inp, RetreatChoice(fortress_units=("a",)))
    assert result.kind == "fortress+destroyed"
    assert ([u.id for u in result.fortress_units], [u.id for u in result.destroyed_units]) == (
        ["a"],
        ["b", "c"],
    )
    assert result.reason == "R1.4: no eligible province can be reached"


def test_r3_the_rest_of_the_army_is_judged_by_its_own_size() -> None:
    # Aquinum holds 2 Latin units: not more than 3 retreating, but more than the 1 left outside the city.
    inp = square(fortress=Fortress("Rome", 3, 0))
    aquinum = dataclasses.replace(inp.provinces["Aquinum"], units={"Latins": 2})
    inp = dataclasses.replace(inp, provinces={**inp.provinces, "Aquinum": aquinum})
    assert "Aquinum" not in retreat_options(inp).destinations
    result = apply_retreat(inp, RetreatChoice(fortress_units=("a", "b"), route=("Aquinum",)))
    assert (result.kind, result.destination, [u.id for u in result.army]) == (
        "fortress+route",
        "Aquinum",
        ["c"],
    )


def test_r1_4_a_destroyed_army_cannot_name_a_route() -> None:
    inp = dataclasses.replace(square(), borders=(Border("Fregellae", "Samnium"),))
    with pytest.raises(IllegalAction) as error:
        apply_retreat(inp, RetreatChoice(route=("Samnium",)))
    assert error.value.rule == "R1.2"


def test_r4_every_result_is_json_for_the_campaign_log() -> None:
    result = apply_retreat(square(), RetreatChoice(route=("Sora",)))
    data = json.loads(json.dumps(result.to_dict()))
    assert data["army"] == [{"id": "a", "health": 5}, {"id": "b", "health": 4}, {"id": "c", "health": 2}]
    assert json.loads(json.dumps(retreat_options(square()).to_dict()))["destinations"] == ["Casinum", "Sora"]
