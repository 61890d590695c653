"""The one escaping of BBCode and of CSV cells that every export uses (campaign/textexport.py)."""

from __future__ import annotations

import pytest

from campaign.textexport import bbcode_text, csv_cell, csv_text


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("Army of Gaul", "Army of Gaul"),  # nothing to escape
        # the probe's army name
        ("x[/b][url=https://evil.example]x[/url]", "x［/b］［url=https://evil.example］x［/url］"),
        ("[[b]]", "［［b］］"),  # every bracket, nested or not
        ("Legio ] I [", "Legio ］ I ［"),  # a lone bracket cannot close or open a tag either
        (7, "7"),  # not text: written as text
    ],
)
def test_bbcode_text_turns_brackets_into_look_alikes(text: object, escaped: str) -> None:
    assert bbcode_text(text) == escaped


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"),  # the probe's: DDE through a formula
        ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
        ("\t=1", "'\t=1"),  # a tab or a carriage return before the formula
        ("\r=1", "'\r=1"),
        ("Typo in the turn order", "Typo in the turn order"),  # plain text is left alone
        ("a=b", "a=b"),  # only the first character counts
        ("", ""),
        (None, ""),
        (-3, -3),  # a number stays a number
        (2.5, 2.5),
    ],
)
def test_csv_cell_neutralises_a_formula_with_a_leading_quote(value: object, cell: object) -> None:
    assert csv_cell(value) == cell


def test_csv_text_writes_every_cell_through_csv_cell() -> None:
    rows = [("ref", "reason"), ("L1", "=cmd|' /C calc'!A0"), ("L2", 'said "no", twice')]
    assert csv_text(rows) == "ref,reason\r\nL1,'=cmd|' /C calc'!A0\r\nL2,\"said \"\"no\"\", twice\"\r\n"
