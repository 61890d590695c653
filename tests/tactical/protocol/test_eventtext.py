"""What a battle event says (tactical/protocol/eventtext.py): the board log's lines and the console's rows."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import translation

from tactical.protocol.eventtext import action_sentence, battle_event_sentence, log_sentences

ROSTER = {"u1": {"name": "Legio I"}, "u2": {"name": "Hunni"}}
WITHDRAW = {"do": "withdraw", "unit": "u1"}


def _row(action: dict[str, object] | None, kind: str = "action", events: list[dict[str, object]] | None = None
         ) -> SimpleNamespace:
    return SimpleNamespace(action=action, kind=kind, events=events or [])


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Legio I (u1) moved to (3, 4). (contact: Legio I (u1) and Hunni (u2); "
           "die 2: Legio I (u1) survives)"),
    ("ru", "Legio I (u1) переместился на (3, 4). (контакт: Legio I (u1) и Hunni (u2); "
           "кубик 2: остаётся Legio I (u1))"),
])
def test_a_row_is_its_action_then_its_notable_events(language: str, expected: str) -> None:
    row = _row({"do": "move", "unit": "u1", "path": [[3, 5], [3, 4]]},
               events=[{"type": "moved", "unit": "u1"}, {"type": "contact_made", "unit": "u1", "enemy": "u2"},
                       {"type": "die_rolled", "value": 2, "survivor": "u1"}])
    with translation.override(language):
        assert battle_event_sentence(row, ROSTER) == expected


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "The moderator added 30 s to the turn: ?. (a commander is done)"),
    ("ru", "Модератор добавил к ходу 30 с: ?. (командующий закончил ход)"),
])
def test_a_value_the_row_lacks_reads_as_a_question_mark(language: str, expected: str) -> None:
    row = _row({"do": "add_time", "seconds": 30}, events=[{"type": "commander_done"}])
    with translation.override(language):
        assert battle_event_sentence(row, ROSTER) == expected


def test_a_timed_out_row_says_the_time_ran_out() -> None:
    with translation.override("en"):
        assert battle_event_sentence(_row(None, "timeout", [{"type": "turn_timed_out"}]), {}) == (
            "Time ran out (T6.1): the turn ended. (time ran out)")


def test_the_console_and_the_board_word_a_withdrawal_each_their_own_way_in_russian() -> None:
    """The same English sentence, two Russian ones: the console's row has a context of its own."""
    with translation.override("ru"):
        assert (action_sentence(WITHDRAW, ROSTER), log_sentences()["ev_unit_withdrew"]) == (
            "Legio I (u1) покинул поле боя.", "{unit} ушёл с поля.")
    with translation.override("en"):
        assert (action_sentence(WITHDRAW, ROSTER), log_sentences()["ev_unit_withdrew"]) == (
            "Legio I (u1) withdrew from the field.", "{unit} withdrew from the field.")
