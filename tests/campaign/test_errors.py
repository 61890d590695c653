"""The one error family (campaign/errors.py): statuses, codes from the catalogues, params, the body."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.utils.functional import Promise
from django.utils.translation import override

from campaign.errors import Conflict, Forbidden, Invalid, NotFound, ServiceError, code_of, refusal_of
from combat.errors import IllegalAction, InvalidAction
from strategic.messages import NOT_YOUR_TURN, SUPPORT_SPLIT


@pytest.mark.parametrize(
    ("cls", "status", "code"),
    [
        (Invalid, 400, "invalid"),
        (Forbidden, 403, "forbidden"),
        (NotFound, 404, "not_found"),
        (Conflict, 409, "conflict"),
    ],
)
def test_a_text_outside_the_catalogues_has_its_class_status_and_code(cls: type[ServiceError], status: int,
                                                                    code: str) -> None:
    error = cls("Something is wrong.")
    assert (isinstance(error, ServiceError), error.status, error.code, error.as_dict()) == (
        True, status, code, {"status": status, "code": code, "detail": "Something is wrong."})


@pytest.mark.parametrize("app", ["campaign", "strategic", "tactical", "moderation"])
def test_every_sentence_of_a_catalogue_has_its_name_as_code(app: str) -> None:
    module = import_module(f"{app}.messages")
    sentences = {name: value for name, value in vars(module).items() if name.isupper() and isinstance(value, Promise)}
    assert sentences and {name: code_of(value) for name, value in sentences.items()} == {
        name: name.lower() for name in sentences}


def test_s4_a_refusal_carries_its_sentence_code_rule_and_translated_detail() -> None:
    with override("ru"):
        error = Conflict(NOT_YOUR_TURN, rule="S4")
    assert error.as_dict() == {"status": 409, "code": "not_your_turn", "detail": "Сейчас не ход этой фракции (S4).",
                               "rule": "S4"}


def test_r6_params_fill_the_sentence_and_the_field_names_it() -> None:
    error = Invalid(SUPPORT_SPLIT, params={"points": 3}, field="removed", rule="R6")
    detail = "Choose how many of the 3 support points to remove from the loser: 0 to 3 (R6)."
    assert (error.code, error.params, error.as_dict()) == ("support_split", {"points": 3}, {
        "status": 400, "code": "support_split", "detail": detail, "rule": "R6", "errors": {"removed": [detail]}})


def test_an_explicit_code_wins_over_the_sentences() -> None:
    assert Conflict(NOT_YOUR_TURN, code="stale", version=3).as_dict()["code"] == "stale"


def test_a_refusal_keeps_engine_ids_unless_the_strategic_api_asks_for_plain_ones() -> None:
    illegal = IllegalAction("R4", "no", code="retreat_unit_lost", params={"unit": "000017", "province": "moesia"})
    malformed = InvalidAction("choice.route[0]", "unknown province", code="unknown_province",
                              params={"province": "atlantis"})
    assert (refusal_of(illegal), refusal_of(illegal, plain_units=True), refusal_of(malformed),
            refusal_of(malformed, plain_units=True)) == (
        {"code": "retreat_unit_lost", "params": {"unit": "000017", "province": "moesia"}},
        {"code": "retreat_unit_lost", "params": {"unit": 17, "province": "moesia"}},
        {"code": "unknown_province", "params": {"province": "atlantis"}},
        {"code": "unknown_province", "params": {"province": "atlantis"}, "field": "choice.route[0]"},
    )
