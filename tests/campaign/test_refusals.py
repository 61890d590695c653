"""The catalogue of the engine's refusals (issue 4): every code the engine raises has a sentence, in English
as the engine says it and in Russian, with every placeholder filled and ids said as names."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from django.utils import translation

from campaign.refusals import CATALOGUE, PENALTY_REASONS, penalty_reason, say, sentence
from combat.battle.actions import Move, Turn
from combat.battle.engine import apply
from combat.battle.model import Facing
from combat.battle.scenario import load
from combat.battle.serialize import action_from_dict
from combat.dice import FixedDice
from combat.errors import IllegalAction, InvalidAction
from combat.retreat.model import PENALTY_TEXTS, PenaltyReason

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("combat", "strategic", "tactical")


# -- every code --------------------------------------------------------------------------------------


# The engine's modules that the strategic and tactical services call: every malformed input they raise has a
# code (battle/serialize.py parses a live battle's actions, battle/engine.py checks their unit ids).
SAID_MALFORMED = ("retreat/apply.py", "retreat/routes.py", "retreat/model.py", "quick/resolve.py", "quick/model.py",
                  "battle/serialize.py", "battle/engine.py")


def _codes_raised() -> dict[str, str]:
    """Every refusal code written in combat/, strategic/ and tactical/, with where: ``IllegalAction(..., code=...)``,
    the interception problems (``Problem(text, code, params)``), the retreat's end problems (3-tuples), the
    codes of malformed input (``InvalidAction(..., code=...)``; the sweeps' from their loop's tuples) and why
    no land retreat is open (``Blocked(rule, code, ...)``)."""
    codes: dict[str, str] = {}
    for path in [path for source in SOURCES for path in sorted((ROOT / source).rglob("*.py"))]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            called = getattr(node.func, "id", None) if isinstance(node, ast.Call) else None
            if called in ("IllegalAction", "InvalidAction"):
                code = next((k.value for k in node.keywords if k.arg == "code"), None)  # type: ignore[union-attr]
                assert code is not None or called == "InvalidAction", f"{where}: IllegalAction without a code"
                if isinstance(code, ast.Constant):  # else a variable: the retreat's end problems, read below
                    codes[code.value] = where
            elif called in ("Problem", "Blocked"):
                codes[node.args[1].value] = where  # type: ignore[union-attr]
            elif (isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 3
                  and path.match("combat/retreat/routes.py")):
                codes[node.value.elts[2].value] = where  # type: ignore[attr-defined]
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and path.match("combat/retreat/apply.py")
                  and node.value.startswith("sweep_")):
                codes[node.value] = where
    return codes


@pytest.mark.parametrize("name", SAID_MALFORMED)
def test_every_malformed_input_the_services_may_meet_has_a_code(name: str) -> None:
    tree = ast.parse((ROOT / "combat" / name).read_text(encoding="utf-8"))
    calls = [node for node in ast.walk(tree)
             if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "InvalidAction"]
    assert calls
    assert [node.lineno for node in calls if not any(k.arg == "code" for k in node.keywords)] == []


def test_every_code_the_engine_can_raise_has_a_sentence() -> None:
    codes = _codes_raised()
    assert len(codes) >= 60
    assert {code: where for code, where in codes.items() if code not in CATALOGUE} == {}


def test_the_catalogue_lists_no_code_that_nothing_raises() -> None:
    assert sorted(set(CATALOGUE) - set(_codes_raised())) == []


EVERY_PARAM = {"unit": "u1", "target": "u2", "units": ["u1", "u2"], "side": "attacker", "turn": "defender",
               "x": 4, "y": 5, "from_x": 4, "from_y": 6, "step": 2, "cost": 3, "points": 2, "row": 20, "round": 6,
               "first": 18, "last": 20, "feature": "river", "facing": "E", "type": "Archers", "count": 2,
               "chosen": 1, "province": "Dacia", "from": "Dacia", "to": "Moesia", "border": "strait",
               "nearest": ["Thracia"], "because": {"code": "unit_in_melee", "params": {"unit": "u2"}},
               "action": "move", "expected": "move, turn"}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_sentence_fills_all_its_placeholders(language: str) -> None:
    with translation.override(language):
        said = {code: say(code, EVERY_PARAM, fallback="FALLBACK") for code in CATALOGUE}
    assert [code for code, text in said.items() if text == "FALLBACK" or "%(" in text] == []


def test_an_unknown_code_falls_back_to_the_engines_english_sentence() -> None:
    with translation.override("ru"):
        assert sentence(IllegalAction("T6", "something new happened", code="brand_new")) == "something new happened"


NAMES = {"dacia": "Dacia", "moesia": "Moesia", "thracia": "Thracia"}


def test_provinces_are_said_by_their_names_the_nearest_as_a_list() -> None:
    refusal = IllegalAction("R1.3", "dacia is farther from the battle than the nearest eligible province (moesia, "
                            "thracia)", code="retreat_not_nearest",
                            params={"province": "dacia", "nearest": ["moesia", "thracia"]})
    with translation.override("en"):
        assert sentence(refusal, NAMES) == (
            "Dacia is farther from the battle than the nearest eligible province (Moesia, Thracia)")
    with translation.override("ru"):
        assert sentence(refusal, {"dacia": "Дакия", "moesia": "Мёзия", "thracia": "Фракия"}) == (
            "провинция Дакия дальше от места боя, чем ближайшая подходящая (Мёзия, Фракия)")


def test_no_nearest_province_is_said_in_words() -> None:
    with translation.override("ru"):
        assert say("retreat_not_nearest", {"province": "dacia", "nearest": []}, names=NAMES) == (
            "провинция Dacia дальше от места боя, чем ближайшая подходящая (в пределах досягаемости нет)")


@pytest.mark.parametrize(("border", "english", "russian"), [
    ("rough", "rough", "пересеченная местность"), ("strait", "strait", "пролив"),
    ("impassable", "impassable", "непроходимая")])
def test_a_border_kind_is_a_word_of_the_readers_language(border: str, english: str, russian: str) -> None:
    params = {"border": border, "from": "dacia", "to": "moesia"}
    with translation.override("en"):
        assert say("retreat_border_kind", params, names=NAMES) == (
            f"a retreat may not cross the {english} border from Dacia to Moesia")
    with translation.override("ru"):
        assert say("retreat_border_kind", params, names=NAMES) == (
            f"отступление не может пересечь границу ({russian}) из провинции Dacia в провинцию Moesia")


def test_an_id_without_a_name_is_said_as_it_is() -> None:
    with translation.override("en"):
        assert say("retreat_reenter", {"province": "atlantis"}, names=NAMES) == "a retreat may not re-enter atlantis"


# -- the engine's own refusals, from the rule case files ---------------------------------------------------

REWORDED = {"turn_too_costly": "the facing as a word (south), not a letter", "no_missile": "without the type's name"}


def _case_refusals() -> list[IllegalAction]:
    """The refusal each case file of tests/combat/cases/ that expects one (exit 3) ends with."""
    refusals = []
    for path in sorted((ROOT / "tests" / "combat" / "cases").glob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        if case["expect"]["exit"] != 3:
            continue
        state, dice_values, actions, _events = load(case["scenario"])
        dice = FixedDice(list(dice_values))
        try:
            for action in actions:
                state = apply(state, action, dice).state
        except IllegalAction as error:
            refusals.append(error)
    return refusals


def test_the_catalogues_english_is_the_engines_sentence_for_every_case_file_refusal() -> None:
    refusals = _case_refusals()
    assert len(refusals) >= 20
    with translation.override("en"):
        differ = [(e.code, e.reason, sentence(e)) for e in refusals
                  if e.code not in REWORDED and sentence(e) != e.reason]
    assert differ == []


def test_every_case_file_refusal_has_a_russian_sentence() -> None:
    with translation.override("ru"):
        untranslated = [(e.code, sentence(e)) for e in _case_refusals() if sentence(e) == e.reason]
    assert untranslated == []


# -- malformed input and why no land retreat is open --------------------------------------------------


def test_malformed_input_is_said_without_its_field_units_by_name() -> None:
    error = InvalidAction("choice.lost_units[0]", "unit '000000000007' is not in the retreating army",
                          code="unit_not_in_army", params={"unit": "000000000007"})
    with translation.override("en"):
        assert sentence(error, {"000000000007": "Alan Riders"}) == "Alan Riders is not in the retreating army"
    with translation.override("ru"):
        assert sentence(error, {"000000000007": "Alan Riders"}) == "отряда «Alan Riders» нет в отступающей армии"


def test_malformed_input_without_a_code_falls_back_to_the_engines_message() -> None:
    with translation.override("ru"):
        assert sentence(InvalidAction("dice[0]", "must be a whole number from 1 to 6")) == (
            "must be a whole number from 1 to 6")


MALFORMED_ACTIONS = [
    "move", {"do": 5}, {"do": "end_turn", "who": "me"}, {"do": "move", "unit": "a"},
    {"do": "move", "unit": 7, "path": [[1, 2]]}, {"do": "move", "unit": "a", "path": []},
    {"do": "withdraw", "unit": "a", "path": "x"}, {"do": "move", "unit": "a", "path": [[1, "2"]]},
    {"do": "turn", "unit": "a", "facing": "NE"}, {"do": "concede", "side": "both"},
    {"do": "place", "unit": "a", "x": 1.5},
]


def _malformed_actions() -> list[InvalidAction]:
    """What the engine says of each malformed action a player may send: the parser's, then the engine's own
    (an unknown unit, an empty path)."""
    errors = []
    for data in MALFORMED_ACTIONS:
        with pytest.raises(InvalidAction) as parsed:
            action_from_dict(data)
        errors.append(parsed.value)
    case = json.loads((ROOT / "tests" / "combat" / "cases" / "exit2_unknown_unit_in_action.json").read_text())
    state = load({**case["scenario"], "actions": []})[0]
    for action in (Turn("ghost", Facing.N), Move("a", ())):
        with pytest.raises(InvalidAction) as checked:
            apply(state, action, FixedDice([]))
        errors.append(checked.value)
    return errors


def test_every_malformed_action_is_said_in_english_as_the_engine_says_it_and_in_russian() -> None:
    errors = _malformed_actions()
    assert len({error.code for error in errors}) == len(errors) == 13
    with translation.override("en"):
        assert [(e.code, sentence(e)) for e in errors if sentence(e) != e.message] == []
    with translation.override("ru"):
        assert [e.code for e in errors if sentence(e) == e.message] == []
        assert sentence(errors[-2]) == "нет отряда «ghost»"


@pytest.mark.parametrize(("params", "english", "russian"), [
    ({"side": "defender"}, "the defender needs at least one unit", "у обороняющегося должен быть хотя бы один отряд"),
    ({"side": "attacker"}, "the attacker needs at least one unit", "у нападающего должен быть хотя бы один отряд"),
])
def test_a_side_without_units_is_said_with_the_side_declined(params: dict, english: str, russian: str) -> None:
    with translation.override("en"):
        assert say("side_without_units", params) == english
    with translation.override("ru"):
        assert say("side_without_units", params) == russian


@pytest.mark.parametrize(("count", "russian"), [
    (5, "ближайшая подходящая провинция (Дакия) удалена на 5 провинций"),
    (21, "ближайшая подходящая провинция (Дакия) удалена на 21 провинцию"),
    (22, "ближайшая подходящая провинция (Дакия) удалена на 22 провинции"),
])
def test_the_nearest_province_too_far_counts_in_russian_plural_forms(count: int, russian: str) -> None:
    params = {"province": "dacia", "count": count}
    with translation.override("en"):
        assert say("retreat_nearest_too_far", params, names=NAMES) == (
            f"the nearest eligible province (Dacia) is {count} provinces away")
    with translation.override("ru"):
        assert say("retreat_nearest_too_far", params, names={"dacia": "Дакия"}) == russian


# -- why a province of a retreat route costs units (R4) ------------------------------------------------


def _penalty_codes_made() -> set[str]:
    """Every ``PenaltyReason(code, ...)`` the retreat's routes make."""
    tree = ast.parse((ROOT / "combat" / "retreat" / "routes.py").read_text(encoding="utf-8"))
    return {node.args[0].value for node in ast.walk(tree)  # type: ignore[attr-defined]
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "PenaltyReason"}


def test_every_penalty_reason_the_engine_gives_has_a_sentence_and_no_other() -> None:
    assert _penalty_codes_made() == set(PENALTY_TEXTS) == set(PENALTY_REASONS) == {
        "enemy_control", "enemy_fortress_city", "tribe", "enemy_units"}


@pytest.mark.parametrize(("reason", "english", "russian"), [
    (PenaltyReason("enemy_control"), "enemy control", "вражеский контроль"),
    (PenaltyReason("enemy_fortress_city"), "enemy fortress city", "вражеский город-крепость"),
    (PenaltyReason("tribe"), "tribe", "племя"),
    (PenaltyReason("enemy_units", {"count": 1}), "1 enemy unit", "1 вражеский отряд"),
    (PenaltyReason("enemy_units", {"count": 2}), "2 enemy units", "2 вражеских отряда"),
    (PenaltyReason("enemy_units", {"count": 5}), "5 enemy units", "5 вражеских отрядов"),
    (PenaltyReason("enemy_units", {"count": 11}), "11 enemy units", "11 вражеских отрядов"),
    (PenaltyReason("enemy_units", {"count": 21}), "21 enemy units", "21 вражеский отряд"),
    (PenaltyReason("enemy_units", {"count": 22}), "22 enemy units", "22 вражеских отряда"),
])
def test_a_penalty_reason_is_said_in_the_readers_language(reason: PenaltyReason, english: str,
                                                          russian: str) -> None:
    assert reason.text == english  # the engine's English, in the command line's JSON
    with translation.override("en"):
        assert penalty_reason(reason) == english
    with translation.override("ru"):
        assert penalty_reason(reason) == russian

